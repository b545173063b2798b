/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @typescript-eslint/no-explicit-any, no-console -- local tooling: injects faults into a local n8n, not published (package.json "files" is dist/ only) */
/**
 * What the fault suites share: a sender that behaves like the service (signed deliveries, every
 * non-2xx answer or connection error retried up to 5 times, then every event delivered once
 * more), the count per event id from n8n's own execution records, and the table they print.
 *
 * Two receivers get the same events: this package's trigger, and n8n's own Webhook node
 * (Respond: Immediately) as the yardstick. The yardstick has no deduplication, so it gets the
 * closing "once more" delivery only for the events it never acknowledged (a copy of an
 * acknowledged event would be its own second run by design, not a fault's).
 */
import axios from 'axios';
import { spawn } from 'child_process';
import { createHmac, randomBytes } from 'crypto';

import type { Stack } from '../../scripts/lib/stack';
import { sleep, waitFor } from '../../scripts/lib/stack';
import { log } from './lib';

/** Retries after the first attempt, and the wait before each (the service's back-off, shortened). */
export const RETRIES = 5;
const BACKOFF_MS = [1000, 2000, 3000, 4000, 5000];

export interface FaultEvent {
	id: string;
	body: string;
}

export function makeEvents(label: string, count: number): FaultEvent[] {
	const tag = randomBytes(3).toString('hex');
	return Array.from({ length: count }, (_, i) => {
		const id = `evt_${label}_${tag}_${i + 1}`;
		const at = new Date().toISOString();
		const body = JSON.stringify({
			id,
			event: 'document.sent',
			createdAt: at,
			data: {
				envelopeId: `env_${id}`,
				title: 'Fault check',
				status: 'pending',
				recipients: [],
				occurredAt: at,
			},
		});
		return { id, body };
	});
}

export interface Receiver {
	/** Shown in the table. */
	name: string;
	urls: string[];
	workflowId: string;
	/** The node whose output holds the event, and where in it the id is. */
	node: string;
	idOf: (json: Record<string, any>) => unknown;
	/** Gets the closing delivery of every event (true), or only of those never answered 2xx. */
	dedupes: boolean;
}

export const triggerReceiver = (workflowId: string, urls: string[]): Receiver => ({
	name: 'this trigger',
	urls,
	workflowId,
	node: 'Document Signing Trigger',
	idOf: (json) => json.id,
	dedupes: true,
});

export const webhookReceiver = (
	workflowId: string,
	urls: string[],
	name = "n8n's Webhook node",
): Receiver => ({
	name,
	urls,
	workflowId,
	node: 'Webhook',
	idOf: (json) => json.body?.id,
	dedupes: false,
});

/** Resolves once n8n serves `url` (it answers 404 until it has registered the webhook). */
export async function untilServed(url: string, timeoutMs = 30_000): Promise<void> {
	await waitFor(
		`${url} to be served`,
		async () => (await axios.post(url, '{}', { validateStatus: () => true })).status !== 404,
		timeoutMs,
	);
}

/** One attempt: its answer (status or error code) and when it came. */
export interface Attempt {
	status: number | string;
	at: number;
	/** What a 200 from the trigger said: `started`, or the reason it started nothing. */
	said?: string;
}
const ok = (a: Attempt) => typeof a.status === 'number' && a.status >= 200 && a.status < 300;

/** Delivers and retries; remembers every answer per receiver and event id. */
export class Sender {
	readonly answers = new Map<string, Map<string, Attempt[]>>();

	constructor(private readonly secret: string) {}

	private sign(body: string): string {
		return createHmac('sha256', this.secret).update(body).digest('hex');
	}

	/** One POST; never throws. */
	async post(url: string, body: string): Promise<Attempt> {
		return await axios
			.post(url, body, {
				headers: { 'Content-Type': 'application/json', 'X-Service-Signature': this.sign(body) },
				validateStatus: () => true,
				timeout: 20_000,
			})
			.then((a) => ({
				status: a.status as number | string,
				at: Date.now(),
				said:
					a.data?.started === true
						? 'started'
						: typeof a.data?.reason === 'string'
							? (a.data.reason as string)
							: undefined,
			}))
			.catch((error: { code?: string; message: string }) => ({
				status: error.code ?? error.message,
				at: Date.now(),
			}));
	}

	private record(receiver: Receiver, id: string, attempt: Attempt): void {
		let byId = this.answers.get(receiver.name);
		if (!byId) this.answers.set(receiver.name, (byId = new Map()));
		byId.set(id, [...(byId.get(id) ?? []), attempt]);
	}

	/** Delivers one event to one URL, retrying every non-2xx answer up to RETRIES times; true once 2xx. */
	async deliver(receiver: Receiver, event: FaultEvent, url = receiver.urls[0]): Promise<boolean> {
		for (let attempt = 0; attempt <= RETRIES; attempt++) {
			if (attempt > 0) await sleep(BACKOFF_MS[attempt - 1]);
			const answer = await this.post(url, event.body);
			this.record(receiver, event.id, answer);
			if (ok(answer)) return true;
		}
		return false;
	}

	/** Every event to every receiver, `everyMs` apart (retries go on in the background); resolves when all are settled. */
	async sendAll(receivers: Receiver[], events: FaultEvent[], everyMs: number): Promise<void> {
		const pending: Array<Promise<boolean>> = [];
		for (const event of events) {
			for (const receiver of receivers) pending.push(this.deliver(receiver, event));
			if (everyMs > 0) await sleep(everyMs);
		}
		await Promise.all(pending);
	}

	/** Every event to every URL of every receiver at once (copies hitting several processes), `everyMs` apart between events. */
	async sendCopies(receivers: Receiver[], events: FaultEvent[], everyMs: number): Promise<void> {
		const pending: Array<Promise<boolean>> = [];
		for (const event of events) {
			for (const receiver of receivers)
				for (const url of receiver.urls) pending.push(this.deliver(receiver, event, url));
			if (everyMs > 0) await sleep(everyMs);
		}
		await Promise.all(pending);
	}

	/**
	 * The closing delivery: every event once more (with retries) to a deduplicating receiver, the
	 * unacknowledged ones to the others; `atOnce` deliveries at a time, as a service's queue does.
	 */
	async onceMore(receivers: Receiver[], events: FaultEvent[], atOnce = 10): Promise<void> {
		const work = receivers.flatMap((receiver) =>
			events
				.filter((e) => receiver.dedupes || !this.acknowledged(receiver, e.id))
				.map((e) => ({ receiver, e })),
		);
		await Promise.all(
			Array.from({ length: atOnce }, async () => {
				for (let next = work.shift(); next; next = work.shift())
					await this.deliver(next.receiver, next.e);
			}),
		);
	}

	/** True once every event has had at least one answer from every receiver. */
	answeredOnce(receivers: Receiver[], events: FaultEvent[]): boolean {
		return receivers.every((r) =>
			events.every((e) => (this.answers.get(r.name)?.get(e.id)?.length ?? 0) > 0),
		);
	}

	/**
	 * Ends a fault once it has lasted `ms` and every event's first attempt has been answered (on
	 * a loaded machine a first attempt may reach n8n's database only after seconds), at most
	 * `maxMs`; resolves when `stop` has run.
	 */
	async endFault(
		receivers: Receiver[],
		events: FaultEvent[],
		ms: number,
		stop: () => Promise<void>,
		maxMs = 30_000,
	): Promise<void> {
		const t0 = Date.now();
		await sleep(ms);
		while (!this.answeredOnce(receivers, events) && Date.now() - t0 < maxMs) await sleep(100);
		await stop();
		log(`  fault over after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	}

	acknowledged(receiver: Receiver, id: string): boolean {
		return (this.answers.get(receiver.name)?.get(id) ?? []).some(ok);
	}

	/** When an event was first answered 2xx by a receiver. */
	firstAcknowledged(receiver: Receiver, id: string): number | undefined {
		return (this.answers.get(receiver.name)?.get(id) ?? []).find(ok)?.at;
	}

	/** `{"200": 8, "500": 12, "ECONNRESET": 3}` over every attempt to a receiver. */
	statusCounts(receiver: Receiver): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const attempts of this.answers.get(receiver.name)?.values() ?? []) {
			for (const a of attempts) counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
		}
		return counts;
	}
}

// ---------- n8n's records -------------------------------------------------------------

const RAN = new Set(['success', 'error']);
/**
 * Statuses of an execution n8n created and never ran to an end (a process or Redis died under
 * it); an `error` execution that never started counts too, and one in which no node ran (n8n
 * failed it before the run: its pre-execution checks, workflow-runner.js run()).
 */
const NOT_RUN = new Set(['crashed', 'canceled']);

export interface ExecutionsPerId {
	/** Executions that ran, per event id. */
	ran: Map<string, number>;
	/** Event ids with an execution n8n created and did not run (crashed, canceled, failed before it started). */
	notRun: Set<string>;
	/** Executions not run whose data no longer names an event (n8n dropped it). */
	notRunWithoutId: number;
	statuses: Record<string, number>;
}

/** Executions of a workflow per event id (from the node's output, or the queued start data), and the statuses of all. */
export async function executionsPerId(stack: Stack, receiver: Receiver): Promise<ExecutionsPerId> {
	const out: ExecutionsPerId = {
		ran: new Map(),
		notRun: new Set(),
		notRunWithoutId: 0,
		statuses: {},
	};
	let cursor: string | undefined;
	do {
		const response = await stack.api.get('/executions', {
			params: { workflowId: receiver.workflowId, includeData: true, limit: 100, cursor },
		});
		if (response.status !== 200)
			throw new Error(`GET /api/v1/executions answered ${response.status}`);
		for (const e of response.data.data as Array<Record<string, any>>) {
			const fromRun = e.data?.resultData?.runData?.[receiver.node]?.[0]?.data?.main?.[0]?.[0]?.json;
			const fromStart = e.data?.executionData?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json;
			const id = receiver.idOf(fromRun ?? fromStart ?? {});
			out.statuses[e.status] = (out.statuses[e.status] ?? 0) + 1;
			// n8n failed it before it started, or ran it with no node at all (its start emptied).
			const neverStarted =
				(e.status === 'error' && !e.startedAt) ||
				(RAN.has(e.status) && Object.keys(e.data?.resultData?.runData ?? {}).length === 0);
			if (typeof id === 'string' && RAN.has(e.status) && !neverStarted)
				out.ran.set(id, (out.ran.get(id) ?? 0) + 1);
			else if (NOT_RUN.has(e.status) || neverStarted) {
				if (typeof id === 'string') out.notRun.add(id);
				else out.notRunWithoutId++;
			}
		}
		cursor = response.data.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

/** Resolves once the workflow's executions stop changing and none is running (or after `timeoutMs`). */
export async function settle(
	stack: Stack,
	receivers: Receiver[],
	timeoutMs = 30_000,
): Promise<void> {
	const t0 = Date.now();
	let last = '';
	while (Date.now() - t0 < timeoutMs) {
		const now: string[] = [];
		for (const r of receivers) {
			const response = await stack.api.get('/executions', {
				params: { workflowId: r.workflowId, limit: 250 },
			});
			const list = (response.data?.data ?? []) as Array<{ id: string; status: string }>;
			now.push(
				`${list.length}:${list.filter((e) => !['new', 'running', 'waiting'].includes(e.status)).length}`,
			);
		}
		const key = now.join(',');
		if (key === last && now.every((n) => n.split(':')[0] === n.split(':')[1])) return;
		last = key;
		await sleep(1500);
	}
}

export interface FaultFigures {
	fault: string;
	receiver: string;
	sent: number;
	/** Answered 2xx at some point, no execution that ran. */
	lost: number;
	/**
	 * Of those, lost in n8n after it had created their execution: it ended crashed or canceled,
	 * or failed before it started (by id, or counted against such executions whose data n8n
	 * dropped). The rest were answered 2xx with no execution at all: a false 2xx.
	 */
	lostInN8n: number;
	falseAcks: number;
	/** Never answered 2xx (the sender knows them). */
	refused: number;
	executions: number;
	/** Executions beyond one per event id. */
	twice: number;
	answers: Record<string, number>;
	lostIds: string[];
	twiceIds: string[];
}

export async function figures(
	stack: Stack,
	sender: Sender,
	fault: string,
	receiver: Receiver,
	events: FaultEvent[],
): Promise<FaultFigures> {
	const { ran, notRun, notRunWithoutId, statuses } = await executionsPerId(stack, receiver);
	const mine = events.filter((e) => ran.has(e.id));
	const lost = events.filter((e) => sender.acknowledged(receiver, e.id) && !ran.has(e.id));
	const withoutExecution = lost.filter((e) => !notRun.has(e.id)).length;
	const falseAcks = Math.max(0, withoutExecution - notRunWithoutId);
	const twiceIds = mine.filter((e) => ran.get(e.id)! > 1).map((e) => e.id);
	log(`  ${receiver.name}: execution statuses ${JSON.stringify(statuses)}`);
	return {
		fault,
		receiver: receiver.name,
		sent: events.length,
		lost: lost.length,
		lostInN8n: lost.length - falseAcks,
		falseAcks,
		refused: events.filter((e) => !sender.acknowledged(receiver, e.id)).length,
		executions: mine.reduce((sum, e) => sum + ran.get(e.id)!, 0),
		twice: mine.reduce((sum, e) => sum + ran.get(e.id)! - 1, 0),
		answers: sender.statusCounts(receiver),
		lostIds: lost.map((e) => e.id),
		twiceIds,
	};
}

/** The table every fault suite prints (one row per fault and receiver). */
export function printTable(title: string, rows: FaultFigures[]): void {
	const header = [
		'fault',
		'receiver',
		'sent',
		'lost',
		'of which n8n failed',
		'twice',
		'executions',
		'never 2xx',
		'answers (all attempts)',
	];
	const cells = rows.map((r) =>
		[
			r.fault,
			r.receiver,
			r.sent,
			r.lost,
			r.lostInN8n,
			r.twice,
			r.executions,
			r.refused,
			JSON.stringify(r.answers),
		].map(String),
	);
	const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
	const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
	log(`FIGURES ${title}`);
	for (const l of [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)])
		console.log(`        ${l}`);
}

// ---------- SQLite faults (regular mode) ----------------------------------------------

/**
 * Runs SQL on n8n's SQLite file from another connection, with the sqlite3 module n8n itself
 * uses, under the Node n8n runs on (the module is built for it). `hold`: takes the write lock
 * (BEGIN IMMEDIATE) instead and holds it until `release()` (or 60 s); resolves once the SQL ran
 * or the lock is held.
 */
export async function sqlite(
	stack: Stack,
	sql: string,
	hold = false,
): Promise<{ release: () => Promise<void> }> {
	const file = `${stack.userFolder}/.n8n/database.sqlite`;
	const script = `
		const [modules, file, sql, hold] = process.argv.slice(1);
		const sqlite3 = require(modules + '/sqlite3');
		const db = new sqlite3.Database(file);
		db.configure('busyTimeout', 20000);
		db.exec(hold === 'hold' ? 'BEGIN IMMEDIATE' : sql, (error) => {
			if (error) { console.error(error.message); process.exit(1); }
			console.log('ready');
			if (hold !== 'hold') return db.close();
			let released = false;
			const release = () => {
				if (released) return;
				released = true;
				clearTimeout(timer);
				process.stdin.destroy();
				db.exec('ROLLBACK', () => db.close());
			};
			const timer = setTimeout(release, 60000);
			process.stdin.on('data', release);
		});`;
	const child = spawn(
		stack.line.nodeBin,
		['-e', script, stack.line.modules, file, sql, hold ? 'hold' : ''],
		{ stdio: ['pipe', 'pipe', 'pipe'] },
	);
	let errors = '';
	child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
	const done = new Promise<void>((resolve, reject) =>
		child.on('exit', (code) =>
			code === 0
				? resolve()
				: reject(new Error(`sqlite on n8n's database failed (${code}): ${errors.trim()}`)),
		),
	);
	await new Promise<void>((resolve, reject) => {
		child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
		done.then(resolve, reject);
	});
	return {
		release: async () => {
			child.stdin.end('release\n');
			await done;
		},
	};
}
