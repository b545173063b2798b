/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/** The dashboard tells a Test URL nobody listens on (n8n's 404) from a failed delivery. */
import axios from 'axios';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

import {
	admin,
	client,
	draftWithPdf,
	signer,
	startSandbox,
	waitFor,
	type Sandbox,
} from './helpers';

let sandbox: Sandbox;
let n8nLike: Server;
let origin = '';
beforeAll(async () => {
	sandbox = await startSandbox();
	// Answers 404 to everything, as n8n does on a Test URL while the editor is not listening
	// and on the production URL of an inactive workflow.
	n8nLike = createServer((_req, res) => {
		res.statusCode = 404;
		res.end('{"code":404,"message":"The requested webhook is not registered."}');
	});
	await new Promise<void>((resolve) => n8nLike.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(n8nLike.address() as AddressInfo).port}`;
});
afterAll(async () => {
	sandbox.close();
	await new Promise((resolve) => n8nLike.close(resolve));
});

test('a 404 from a Test URL reads as the editor not listening; a 404 from a production URL stays a failure', async () => {
	await admin(sandbox).post('/reset');
	const testUrl = `${origin}/webhook-test/abc/webhook`;
	const productionUrl = `${origin}/webhook/abc/webhook`;
	for (const url of [testUrl, productionUrl])
		await admin(sandbox).post('/webhooks', { url, events: ['document.sent'] });
	const api = client(sandbox);
	const created = await draftWithPdf(api, { title: 'Lease', recipients: [signer('Ann Lee')] });
	await api.post(`/envelopes/${created.id}/send`);

	const rows = await waitFor(async () => {
		const page = (await axios.get(`${sandbox.origin}/`)).data as string;
		const deliveries = page.slice(page.indexOf('Latest deliveries')).split('<tr>');
		const found = [testUrl, productionUrl].map((url) =>
			deliveries.find((row) => row.includes(`<code>${url}</code>`) && row.includes('404')),
		);
		return found.every(Boolean) ? (found as string[]) : undefined;
	}, 10_000);
	expect(rows[0]).toContain('Test URL, the editor was not listening (404)');
	expect(rows[0]).not.toContain('class="bad"');
	expect(rows[1]).not.toContain('Test URL');
	expect(rows[1]).toContain('404');
});
