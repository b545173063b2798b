/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * Both triggers against the variant service: the Status Trigger on a status the guesses do
 * not hold (declined), with a smaller largest page and another list order; the webhook
 * trigger on event kinds beyond the four, signed in base64.
 */
import axios from 'axios';

import { type Harness, startHarness } from '../harness';
import { startPollRunner } from '../harness/poll';
import { startWebhookRunner, type WebhookRunner } from '../harness/webhook';
import { STATUS_POLL } from '../../nodes/DocumentSigningStatusTrigger/pollPolicy';
import { admin } from '../sandbox-admin';
import { seedEnvelope, setStatus } from './helpers';

let h: Harness;

beforeAll(async () => {
	h = await startHarness({ variant: true });
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

async function listLimits(from: number): Promise<Array<[number, unknown]>> {
	return (await h.requests())
		.slice(from)
		.filter((r) => r.method === 'GET' && r.path === '/api/v1/envelopes')
		.map((r) => [r.status, r.query.limit]);
}

describe('Status Trigger against the variant service', () => {
	it('starts once per envelope reaching a status given in Other Statuses (declined); the refused page size is lowered', async () => {
		expect(STATUS_POLL.pageSize).toBe(100);
		const p = await startPollRunner({
			credentials: {
				baseUrl: h.sandbox.baseUrl,
				apiKey: h.sandbox.apiKey,
				webhookSecret: h.sandbox.webhookSecret,
			},
			parameters: { statuses: [], otherStatuses: 'declined' },
		});
		const early = (await seedEnvelope(h, { title: 'Declined before' })).id as string;
		await setStatus(h, early, 'declined');

		const start = (await h.requests()).length;
		expect(await p.poll()).toBeNull();
		expect(await listLimits(start)).toEqual([
			[400, '100'],
			[200, '50'],
		]);

		const later = (await seedEnvelope(h, { title: 'Declined after' })).id as string;
		// the change comes later on the service's clock (moved, not waited for)
		await admin(h.sandbox).post('/clock', { advanceSeconds: 1 });
		await setStatus(h, later, 'declined');
		const result = await p.poll();
		expect(
			result?.items.map((item) => [item.json.envelopeId, item.json.status, item.json.statusName]),
		).toEqual([[later, 'declined', 'declined']]);
		expect(await p.poll()).toBeNull();
	});
});

describe('Document Signing Trigger against the variant service', () => {
	let runner: WebhookRunner | undefined;
	afterEach(async () => await runner?.close());

	async function listen(parameters: Record<string, unknown>): Promise<WebhookRunner> {
		runner = await startWebhookRunner({
			credentials: {
				baseUrl: h.sandbox.baseUrl,
				apiKey: h.sandbox.apiKey,
				webhookSecret: h.sandbox.webhookSecret,
			},
			parameters: parameters as never,
		});
		const sub = await axios.post(`${h.sandbox.origin}/__sandbox/webhooks`, { url: runner.url });
		expect(sub.status).toBe(201);
		return runner;
	}

	async function emit(envelopeId: string, event: string): Promise<void> {
		const response = await axios.post(
			`${h.sandbox.origin}/__sandbox/envelopes/${envelopeId}/events`,
			{ event, data: { signer: 'asha@example.com' } },
		);
		expect(response.status).toBe(201);
	}

	async function deliveries(count: number, r: WebhookRunner): Promise<number[]> {
		const end = Date.now() + 10_000;
		// real time: the sandbox delivers over HTTP on its own timers; ends once they have come
		while (r.deliveries.length < count && Date.now() < end)
			await new Promise((resolve) => setTimeout(resolve, 25));
		return r.deliveries.map((d) => d.status);
	}

	it('with Any Other Event and Signature Encoding base64: an unknown kind starts the workflow, output whole', async () => {
		const r = await listen({ events: ['otherEvents'], options: { encoding: 'base64' } });
		const id = (await seedEnvelope(h)).id as string;
		await emit(id, 'document.recipient.signed');
		await r.waitForExecutions(1);
		const json = r.executions[0].items[0].json;
		expect(json).toMatchObject({
			event: 'document.recipient.signed',
			verified: true,
			data: { envelopeId: id, signer: 'asha@example.com' },
		});
	});

	it('with the default encoding (hex) a base64 signature is refused with 401, nothing starts', async () => {
		const r = await listen({ events: ['otherEvents'] });
		await emit((await seedEnvelope(h)).id as string, 'document.completed');
		expect((await deliveries(1, r)).every((status) => status === 401)).toBe(true);
		expect(r.executions).toHaveLength(0);
	});

	it('with the four kinds only, an unknown kind is acknowledged and starts nothing (the reason says why)', async () => {
		const r = await listen({ options: { encoding: 'base64' } });
		await emit((await seedEnvelope(h)).id as string, 'document.completed');
		expect(await deliveries(1, r)).toEqual([200]);
		expect(r.deliveries[0].responseBody).toMatchObject({
			started: false,
			reason: 'event not selected',
		});
		expect(r.executions).toHaveLength(0);
	});
});
