/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
import { spawn } from 'child_process';
import * as path from 'path';

/** What `npm run sandbox` prints as its first line. */
export interface SandboxCliInfo {
	baseUrl: string;
	apiKey: string;
	disabledApiKey: string;
	orgApiKey: string;
	webhookSecret: string;
}

/**
 * Runs `npm run sandbox -- <args>` as a user does, hands `body` the JSON of its first
 * line, then stops it (its whole process group) and waits for it to exit.
 */
export async function withSandboxCli(
	args: string[],
	body: (info: SandboxCliInfo) => Promise<void>,
): Promise<void> {
	const child = spawn('npm', ['run', '--silent', 'sandbox', '--', ...args], {
		cwd: path.join(__dirname, '..', '..'),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let stderr = '';
	child.stderr.on('data', (d) => (stderr += d));
	try {
		const firstLine = await new Promise<string>((resolve, reject) => {
			let out = '';
			child.stdout.on('data', (d) => {
				out += d;
				const nl = out.indexOf('\n');
				if (nl >= 0) resolve(out.slice(0, nl));
			});
			child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
		});
		await body(JSON.parse(firstLine) as SandboxCliInfo);
	} finally {
		const exited = new Promise((resolve) => child.on('exit', resolve));
		if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
		await exited;
	}
}
