/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** The sandbox's pages for people: the dashboard at its root and the signing answer. */
import axios from 'axios';
import { admin, client, draftWithPdf, signer } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

const form = (path: string, fields: Record<string, string>) =>
	axios.post(`${sandbox.origin}${path}`, new URLSearchParams(fields).toString(), {
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
		maxRedirects: 0,
		validateStatus: () => true,
	});

describe('sandbox dashboard', () => {
	test('the root address is a page with the API base URL, webhooks, deliveries and envelopes', async () => {
		const page = await axios.get(`${sandbox.origin}/`);
		expect(page.headers['content-type']).toMatch(/text\/html/);
		expect(page.data).toContain(`<code>${sandbox.baseUrl}</code>`);
		expect(page.data).toContain('No webhook registered yet.');
		expect(page.data).not.toContain(sandbox.apiKey);
		expect(page.data).not.toContain(sandbox.webhookSecret);
	});

	test('a URL registered through the form receives events; Remove takes it away', async () => {
		const url = 'http://127.0.0.1:9/webhook-test/abc/webhook';
		const added = await form('/dashboard/webhooks', { url, event: 'document.sent' });
		expect([added.status, added.headers.location]).toEqual([303, '/']);
		const hooks = (await admin(sandbox).get('/webhooks')).data.items as any[];
		expect(hooks.map((h) => [h.url, h.events])).toEqual([[url, ['document.sent']]]);
		expect((await axios.get(`${sandbox.origin}/`)).data).toContain(url);

		expect((await form('/dashboard/webhooks', { url: 'javascript:alert(1)' })).status).toBe(400);
		await form(`/dashboard/webhooks/${hooks[0].id}/delete`, {});
		expect((await admin(sandbox).get('/webhooks')).data.items).toEqual([]);
	});

	test('signing from the browser answers a page; API clients still get JSON', async () => {
		const api = client(sandbox);
		const created = await draftWithPdf(api, {
			title: 'Lease <b>',
			recipients: [signer('Ann Lee'), signer('Bo Chen')],
		});
		const sent = await api.post(`/envelopes/${created.id}/send`);
		const [ann, bo] = sent.data.recipients.sort((a: any, b: any) => a.order - b.order);

		const byBrowser = await axios.post(ann.actionUrl, '', {
			headers: { accept: 'text/html,application/xhtml+xml' },
			validateStatus: () => true,
		});
		expect(byBrowser.status).toBe(200);
		expect(byBrowser.headers['content-type']).toMatch(/text\/html/);
		expect(byBrowser.data).toContain('Done: Ann Lee has signed.');
		expect(byBrowser.data).toContain('Lease &#60;b&#62;');

		const again = await axios.post(ann.actionUrl, '', {
			headers: { accept: 'text/html' },
			validateStatus: () => true,
		});
		expect(again.status).toBe(409);
		expect(again.data).toContain('Not done:');

		const byApi = await axios.post(bo.actionUrl, {}, { validateStatus: () => true });
		expect(byApi.headers['content-type']).toMatch(/application\/json/);
		expect((await axios.get(`${sandbox.origin}/`)).data).toContain('Ann Lee');
	});
});
