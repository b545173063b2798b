/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- local tooling for npm start, not published (package.json "files" is dist/ only) */
/**
 * One `npm start` per folder. Its n8n data (one SQLite database) and the credential that
 * points at its sandbox live in .e2e/start: a second start there would share the database
 * and repoint the credential at its own sandbox. The lock file holds the pid of the start
 * that runs (checked for liveness, so a crashed start leaves no lasting lock) and, once it
 * is up, its URLs for the message the second start prints.
 */
import axios from 'axios';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'fs';
import path from 'path';

export interface LockInfo {
	pid: number;
	startedAt: string;
	n8nUrl?: string;
	sandboxUrl?: string;
}

export class StartLock {
	private held = false;
	private info?: LockInfo;

	constructor(private readonly file: string) {}

	/** The record of a start that holds the lock and still runs (reads only). */
	running(): LockInfo | undefined {
		const other = this.read();
		return other && other.pid !== process.pid && alive(other.pid) ? other : undefined;
	}

	/** Takes the lock; returns the running start's record instead when one holds it. */
	acquire(): LockInfo | undefined {
		mkdirSync(path.dirname(this.file), { recursive: true });
		for (let attempt = 0; attempt < 2; attempt++) {
			const info: LockInfo = {
				pid: process.pid,
				startedAt: new Date().toISOString().slice(0, 19).replace('T', ' '),
			};
			try {
				// 'wx': created only if absent, so two starts at the same moment cannot both win.
				writeFileSync(this.file, JSON.stringify(info), { flag: 'wx' });
				this.held = true;
				this.info = info;
				return undefined;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			}
			const other = this.read();
			if (other && alive(other.pid)) return other;
			// Left by a start that no longer runs: take it over.
			try {
				unlinkSync(this.file);
			} catch {
				// removed meanwhile by someone else; try again
			}
		}
		return this.read() ?? { pid: 0, startedAt: 'unknown' };
	}

	/** Adds what the second start should tell (the URLs) once they are known. */
	update(fields: Partial<LockInfo>): void {
		if (!this.held || !this.info) return;
		this.info = { ...this.info, ...fields };
		writeFileSync(this.file, JSON.stringify(this.info));
	}

	/** Removes the lock if this process holds it (safe to call more than once). */
	release(): void {
		if (!this.held) return;
		this.held = false;
		if (this.read()?.pid === process.pid) {
			try {
				unlinkSync(this.file);
			} catch {
				// already gone
			}
		}
	}

	private read(): LockInfo | undefined {
		try {
			return JSON.parse(readFileSync(this.file, 'utf8')) as LockInfo;
		} catch {
			return undefined;
		}
	}
}

function alive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** What answers on a busy loopback port, in a few words (n8n, the sandbox, or something else). */
export async function describePort(port: number): Promise<string> {
	const base = `http://127.0.0.1:${port}`;
	const health = await axios
		.get(`${base}/healthz`, { validateStatus: () => true, timeout: 2000 })
		.catch(() => undefined);
	if (health?.status === 200 && health.data?.status === 'ok') return `an n8n answers at ${base}/`;
	const sandbox = await axios
		.get(`${base}/__sandbox/webhooks`, { validateStatus: () => true, timeout: 2000 })
		.catch(() => undefined);
	if (sandbox?.status === 200) return `a Document Signing sandbox answers at ${base}/`;
	return health ? `something answers HTTP at ${base}/` : 'another program listens there';
}

/**
 * A command to paste into a shell: sends one `document.sent` event to `url`, signed as the
 * service signs its deliveries (HMAC-SHA256 of the exact body, hex, header X-Service-Signature).
 * Needs only Node (18 or later, for fetch).
 */
export function testDeliveryCommand(url: string, secret: string): string {
	const script = [
		"const b=JSON.stringify({id:'evt_test_'+Date.now(),event:'document.sent',createdAt:new Date().toISOString(),",
		"data:{envelopeId:'env_test',title:'Test delivery',status:'pending',recipients:[],occurredAt:new Date().toISOString()}});",
		`fetch('${url}',{method:'POST',headers:{'Content-Type':'application/json',`,
		`'X-Service-Signature':require('crypto').createHmac('sha256','${secret}').update(b).digest('hex')},body:b})`,
		'.then(async r=>console.log(r.status,await r.text()))',
	].join('');
	return `node -e "${script}"`;
}
