/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * How often the trigger reads its credential (secret.ts): once per burst of deliveries, again
 * when the kept secret refuses one (a changed secret takes effect with its first delivery),
 * and at every delivery while there is no secret. Over real HTTP through n8n-core's
 * WebhookContext and getCredentials (test/harness/webhook.ts), which counts the reads.
 */
import { createHmac } from 'crypto';
import axios from 'axios';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	forgetKeptSecrets,
	judgedWithSecret,
	SECRET_KEPT_MS,
} from '../../nodes/DocumentSigningTrigger/secret';
import type { Verdict } from '../../nodes/DocumentSigningTrigger/verdict';
import { useWebhookRunners } from '../harness/webhook';
import { sampleEvents } from './events';

const SECRET = 'whsec_secret_test_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const NEW_SECRET = 'whsec_secret_test_rotated_99887766554433221100aabb';

async function post(url: string, raw: string, secret?: string) {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (secret)
		headers['X-Service-Signature'] = createHmac('sha256', secret).update(raw).digest('hex');
	const response = await axios.post(url, raw, {
		headers,
		transformRequest: [(data: unknown) => data],
		validateStatus: () => true,
	});
	return { status: response.status, started: (response.data as IDataObject).started };
}

const bodies = (count: number, seed: number) =>
	sampleEvents(count, seed).map((e) =>
		JSON.stringify({ ...e.object, createdAt: new Date().toISOString() }),
	);

const startRunner = useWebhookRunners();

afterEach(() => forgetKeptSecrets());

describe('Document Signing Trigger: reading the credential', () => {
	it('reads it once for a burst of signed deliveries', async () => {
		const r = await startRunner({ credentials: { webhookSecret: SECRET } });
		for (const raw of bodies(6, 1))
			expect(await post(r.url, raw, SECRET)).toEqual({ status: 200, started: true });
		expect(r.credentialReads()).toBe(1);
		await r.waitForExecutions(6);
	});

	it('a changed secret takes effect with its first delivery; the old one is refused from then on', async () => {
		const r = await startRunner({ credentials: { webhookSecret: SECRET } });
		const [a, b, c, d] = bodies(4, 2);
		expect((await post(r.url, a, SECRET)).started).toBe(true);
		r.credentials.webhookSecret = NEW_SECRET;
		// kept, the old secret still verifies (at most SECRET_KEPT_MS after the change)
		expect((await post(r.url, b, SECRET)).started).toBe(true);
		expect(r.credentialReads()).toBe(1);
		// the new secret: refused by the kept one, so the credential is read again
		expect(await post(r.url, c, NEW_SECRET)).toEqual({ status: 200, started: true });
		expect(r.credentialReads()).toBe(2);
		expect((await post(r.url, d, SECRET)).status).toBe(401);
		expect(r.credentialReads()).toBe(3);
		await r.waitForExecutions(3);
	});

	it('keeps no empty secret: with Accept Unsigned, setting a secret closes the node at the next delivery', async () => {
		const r = await startRunner({
			parameters: { acceptUnsigned: true },
			credentials: { webhookSecret: '' },
		});
		const [a, b, c] = bodies(3, 3);
		expect((await post(r.url, a)).started).toBe(true);
		expect((await post(r.url, b)).started).toBe(true);
		expect(r.credentialReads()).toBe(2);
		r.credentials.webhookSecret = SECRET;
		expect((await post(r.url, c)).status).toBe(401);
		await r.waitForExecutions(2);
	});
});

describe('judgedWithSecret: how long a secret is kept', () => {
	const context = (reads: { count: number }, secret: () => string) =>
		({
			getNode: () => ({
				name: 'Trigger',
				credentials: { documentSigningApi: { id: '7', name: 'Signing' } },
			}),
			getWorkflow: () => ({ id: 'wf-1' }),
			getCredentials: async () => {
				reads.count++;
				return { webhookSecret: secret() };
			},
		}) as unknown as IWebhookFunctions;
	const start: Verdict = {
		action: 'ignore',
		level: 'debug',
		reason: 'judged',
		id: 'evt_1',
	};

	it('reads again once SECRET_KEPT_MS has passed since the read', async () => {
		const reads = { count: 0 };
		const ctx = context(reads, () => SECRET);
		await judgedWithSecret(ctx, 0, () => start);
		await judgedWithSecret(ctx, SECRET_KEPT_MS - 1, () => start);
		expect(reads.count).toBe(1);
		await judgedWithSecret(ctx, SECRET_KEPT_MS, () => start);
		expect(reads.count).toBe(2);
	});

	it('judges with the secret read, and once only when a refused delivery finds the same secret', async () => {
		const reads = { count: 0 };
		const judged: string[] = [];
		const ctx = context(reads, () => SECRET);
		const refuse = (secret: string): Verdict => {
			judged.push(secret);
			return {
				action: 'refuse',
				status: 401,
				code: 'INVALID_SIGNATURE',
				message: 'x',
				logReason: 'x',
			};
		};
		await judgedWithSecret(ctx, 0, refuse);
		await judgedWithSecret(ctx, 1, refuse);
		expect(reads.count).toBe(2);
		expect(judged).toEqual([SECRET, SECRET]);
	});
});
