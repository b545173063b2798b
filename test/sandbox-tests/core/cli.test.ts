import axios from 'axios';
import { withSandboxCli } from '../cli-process';

test('npm run sandbox prints one JSON line first and serves until killed', async () => {
	await withSandboxCli(['--port', '0'], async (info) => {
		expect(Object.keys(info).sort()).toEqual([
			'apiKey',
			'baseUrl',
			'disabledApiKey',
			'orgApiKey',
			'webhookSecret',
		]);
		expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
		const created = await axios.post(
			`${info.baseUrl}/envelopes`,
			{ fileName: 'a.pdf' },
			{ headers: { Authorization: `Bearer ${info.apiKey}` } },
		);
		expect(created.status).toBe(201);
		const refused = await axios.get(`${info.baseUrl}/envelopes`, {
			headers: { Authorization: `Bearer ${info.disabledApiKey}` },
			validateStatus: () => true,
		});
		expect(refused.status).toBe(403);
	});
}, 30000);
