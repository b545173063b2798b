/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * End to end in-process: the sandbox sends real signed deliveries of an e-stamp send to the
 * trigger served by the webhook runner, which runs the node through n8n-core.
 */
import axios, { type AxiosInstance } from 'axios';

import { PROVIDER_FAILURE_NAME } from '../sandbox/envelopes';
import { useSandbox } from '../sandbox-fixture';
import { estampConfig, makePdf, uploadPut } from '../sandbox-tests/core/helpers';
import { startWebhookRunner, type WebhookRunner } from '../harness/webhook';

describe('Document Signing Trigger with the sandbox', () => {
	const sandbox = useSandbox({ reset: 'afterEach' });
	let api: AxiosInstance;
	let runner: WebhookRunner;

	beforeAll(() => {
		api = axios.create({
			baseURL: sandbox.baseUrl,
			headers: { Authorization: `Bearer ${sandbox.apiKey}` },
			validateStatus: () => true,
		});
	});

	beforeEach(async () => {
		runner = await startWebhookRunner({
			credentials: {
				baseUrl: sandbox.baseUrl,
				apiKey: sandbox.apiKey,
				webhookSecret: sandbox.webhookSecret,
			},
		});
		const sub = await axios.post(`${sandbox.origin}/__sandbox/webhooks`, {
			url: runner.url,
			events: [],
		});
		expect(sub.status).toBe(201);
	});

	afterEach(async () => {
		await runner.close();
	});

	/** Creates an e-stamped draft, uploads its PDF and sends it (202, estamping). */
	async function sendWithEstamp(firstPartyName?: string): Promise<string> {
		const created = await api.post('/envelopes', {
			fileName: 'lease.pdf',
			title: 'Lease agreement – Indiranagar',
			recipients: [{ name: 'Ravi Kumar', email: 'ravi@example.com', role: 'signer' }],
			workflow: { estampEnabled: true, estampConfig: estampConfig(firstPartyName) },
		});
		expect(created.status).toBe(201);
		const upload = await uploadPut(created.data.upload.url, await makePdf());
		expect(upload.status).toBe(200);
		const sent = await api.post(`/envelopes/${created.data.id}/send`, {});
		expect(sent.status).toBe(202);
		expect(sent.data).toMatchObject({ estamp: true, estampStatus: 'queued', status: 'estamping' });
		return created.data.id as string;
	}

	it('delivers started, completed and sent, verified and in order', async () => {
		const envelopeId = await sendWithEstamp();
		await runner.waitForExecutions(3);

		// Deliveries come one at a time, so execution ids follow the delivery order.
		const executions = [...runner.executions].sort((a, b) => Number(a.id) - Number(b.id));
		const events = executions.map((e) => e.items[0].json);
		expect(events.map((e) => e.event)).toEqual([
			'document.estamp.started',
			'document.estamp.completed',
			'document.sent',
		]);
		for (const event of events) {
			expect(event.verified).toBe(true);
			expect(event.data).toMatchObject({ envelopeId });
		}
		expect(events[1].data).toMatchObject({
			status: 'completed',
			certificateId: expect.any(String),
		});
		// Each delivery answered 200 and started exactly one execution.
		expect(runner.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
		const recorded = await axios.get(`${sandbox.origin}/__sandbox/events`);
		expect(events.map((e) => e.id)).toEqual(recorded.data.items.map((e: { id: string }) => e.id));
	});

	it('delivers started then failed when the provider fails', async () => {
		const envelopeId = await sendWithEstamp(PROVIDER_FAILURE_NAME);
		await runner.waitForExecutions(2);
		// Real time on purpose: a third event would be a defect, and there is nothing to wait
		// for when none comes; the sandbox delivers within milliseconds of the first two.
		await new Promise((resolve) => setTimeout(resolve, 200));

		const executions = [...runner.executions].sort((a, b) => Number(a.id) - Number(b.id));
		const events = executions.map((e) => e.items[0].json);
		expect(events.map((e) => e.event)).toEqual([
			'document.estamp.started',
			'document.estamp.failed',
		]);
		expect(events[1]).toMatchObject({
			verified: true,
			data: { envelopeId, status: 'failed', error: expect.any(String) },
		});
	});

	it('refuses deliveries signed with another secret, and the sandbox retries them', async () => {
		await runner.close();
		runner = await startWebhookRunner({
			credentials: { webhookSecret: 'whsec_not_the_sandbox_secret' },
		});
		await axios.post(`${sandbox.origin}/__sandbox/reset`);
		await axios.post(`${sandbox.origin}/__sandbox/webhooks`, {
			url: runner.url,
			events: ['document.estamp.started'],
			retry: { attempts: 2, backoffMs: 10 },
		});
		await sendWithEstamp();

		// Waits for the sandbox's own retry over real HTTP (its backoff is real time), at most 5 s.
		const deadline = Date.now() + 5000;
		while (runner.deliveries.length < 2 && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 20));
		await runner.settle();
		expect(runner.deliveries.map((d) => d.status)).toEqual([401, 401]);
		expect(runner.executions).toHaveLength(0);
	});
});
