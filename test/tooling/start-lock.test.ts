/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- tests of local tooling (npm start), not published (package.json "files" is dist/ only) */
/** npm start's one-per-folder lock: a live holder blocks, a dead one's lock is taken over. */
import { exec, spawn } from 'child_process';
import { createHmac } from 'crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';

import { StartLock, testDeliveryCommand } from '../../scripts/lib/start-lock';

describe('StartLock', () => {
	let dir: string;
	let file: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'start-lock-'));
		file = path.join(dir, 'start.lock');
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('is taken when free, refuses a second holder while the first lives, and is released', () => {
		const first = new StartLock(file);
		expect(first.acquire()).toBeUndefined();
		first.update({ n8nUrl: 'http://127.0.0.1:5678', sandboxUrl: 'http://127.0.0.1:4000' });

		// Another process's view: the lock names this (living) process and its URLs.
		writeFileSync(
			file,
			JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), pid: process.ppid }),
		);
		const second = new StartLock(file);
		expect(second.running()).toMatchObject({ pid: process.ppid, n8nUrl: 'http://127.0.0.1:5678' });
		expect(second.acquire()).toMatchObject({
			pid: process.ppid,
			n8nUrl: 'http://127.0.0.1:5678',
			sandboxUrl: 'http://127.0.0.1:4000',
		});
		// The second never held it, so it must not remove the first one's lock.
		second.release();
		expect(existsSync(file)).toBe(true);
	});

	it('takes over the lock of a start that no longer runs', async () => {
		const child = spawn(process.execPath, ['-e', '0']);
		const deadPid = child.pid!;
		await new Promise((resolve) => child.on('exit', resolve));
		writeFileSync(file, JSON.stringify({ pid: deadPid, startedAt: '2026-01-01 00:00:00' }));
		const lock = new StartLock(file);
		expect(lock.running()).toBeUndefined();
		expect(lock.acquire()).toBeUndefined();
		expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
		lock.release();
		expect(existsSync(file)).toBe(false);
	});
});

describe('testDeliveryCommand', () => {
	it('pasted into a shell, sends one event signed with the HMAC-SHA256 of the exact body', async () => {
		const received: Array<{ body: string; signature: string | undefined }> = [];
		const server = createServer((req, res) => {
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString()));
			req.on('end', () => {
				received.push({
					body,
					signature: req.headers['x-service-signature'] as string | undefined,
				});
				res.end('ok');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const command = testDeliveryCommand(
				`http://127.0.0.1:${port}/webhook/abc/webhook`,
				'sec-ret',
			);
			const output = await new Promise<string>((resolve, reject) =>
				exec(command, { shell: '/bin/sh' }, (error, stdout) =>
					error ? reject(error) : resolve(stdout),
				),
			);
			expect(output.trim()).toBe('200 ok');
			expect(received).toHaveLength(1);
			const [delivery] = received;
			expect(delivery.signature).toBe(
				createHmac('sha256', 'sec-ret').update(delivery.body).digest('hex'),
			);
			expect(JSON.parse(delivery.body)).toMatchObject({
				event: 'document.sent',
				data: { envelopeId: 'env_test' },
			});
		} finally {
			server.close();
		}
	});
});
