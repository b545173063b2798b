/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The webhook trigger while the editor listens (a test delivery, mode `manual`) and its
 * output's top-level `envelopeId`:
 * - a test delivery refused (signature, no secret, malformed body) fails with the reason, so
 *   n8n stops listening and the editor shows why; a live delivery is still answered 401/400;
 * - an event's `data.envelopeId` is also output as `envelopeId`, `data` kept whole.
 */
import { createHmac } from 'crypto';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { useWebhookRunners } from '../harness/webhook';
import { sampleEvents } from './events';

const SECRET = 'whsec_listening_test_5b2f0c7e1a9d4e38b6f1c2a7d9e0b4c3';
const sign = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');
const startRunner = useWebhookRunners();

async function post(url: string, body: Buffer | string, signature: string) {
	const response = await axios.post(url, body, {
		headers: { 'content-type': 'application/json', 'X-Service-Signature': signature },
		transformRequest: [(data: unknown) => data],
		validateStatus: () => true,
	});
	return { status: response.status, body: response.data as IDataObject };
}

describe('Document Signing Trigger while the editor listens', () => {
	it('a test delivery with a wrong signature fails with the reason (n8n stops listening); nothing starts', async () => {
		const r = await startRunner({ mode: 'manual', credentials: { webhookSecret: SECRET } });
		const [event] = sampleEvents(1);
		const answer = await post(r.url, event.raw, 'forged');
		const error = r.deliveries[0].error;
		expect(error?.message).toMatch(/^Test delivery refused: .*signature/i);
		expect((error as { description?: string }).description).toContain(
			'answered 401 (INVALID_SIGNATURE)',
		);
		expect(error?.message).not.toContain(SECRET);
		expect(answer.status).toBe(500);
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});

	it('a test delivery without a webhook secret in the credential fails saying so', async () => {
		const r = await startRunner({ mode: 'manual', credentials: { webhookSecret: '' } });
		const [event] = sampleEvents(1);
		await post(r.url, event.raw, 'anything');
		expect(r.deliveries[0].error?.message).toMatch(/Test delivery refused: .*webhook secret/);
	});

	it('a live delivery with a wrong signature is still answered 401 and throws nothing', async () => {
		const r = await startRunner({ credentials: { webhookSecret: SECRET } });
		const [event] = sampleEvents(1);
		const answer = await post(r.url, event.raw, 'forged');
		expect(answer).toEqual({
			status: 401,
			body: { code: 'INVALID_SIGNATURE', message: 'Signature missing or invalid' },
		});
		expect(r.deliveries[0].error).toBeUndefined();
	});

	it('a signed test delivery starts the run, with the envelope id at the top and in data', async () => {
		const r = await startRunner({ mode: 'manual', credentials: { webhookSecret: SECRET } });
		const body = JSON.stringify({
			id: 'evt_listen_1',
			event: 'document.sent',
			createdAt: new Date().toISOString(),
			data: { envelopeId: 'env_42', title: 'Lease' },
		});
		const answer = await post(r.url, body, sign(body));
		expect(answer.status).toBe(200);
		const [execution] = await r.waitForExecutions(1);
		const json = execution.items[0].json;
		expect(json.envelopeId).toBe('env_42');
		expect(json.data).toEqual({ envelopeId: 'env_42', title: 'Lease' });
		expect(json.id).toBe('evt_listen_1');
	});
});
