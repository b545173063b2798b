/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import axios from 'axios';
import { spawn } from 'child_process';
import * as path from 'path';

test('npm run sandbox prints one JSON line first and serves until killed', async () => {
	const child = spawn('npm', ['run', '--silent', 'sandbox', '--', '--port', '0'], {
		cwd: path.join(__dirname, '..', '..', '..'),
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
		const info = JSON.parse(firstLine);
		expect(Object.keys(info).sort()).toEqual(['apiKey', 'baseUrl', 'disabledApiKey', 'orgApiKey', 'webhookSecret']);
		expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
		const created = await axios.post(`${info.baseUrl}/envelopes`, { fileName: 'a.pdf' }, { headers: { Authorization: `Bearer ${info.apiKey}` } });
		expect(created.status).toBe(201);
		const refused = await axios.get(`${info.baseUrl}/envelopes`, { headers: { Authorization: `Bearer ${info.disabledApiKey}` }, validateStatus: () => true });
		expect(refused.status).toBe(403);
	} finally {
		const exited = new Promise((resolve) => child.on('exit', resolve));
		if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
		await exited;
	}
}, 30000);
