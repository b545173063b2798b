/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The trigger node served over real HTTP: n8n-core's WebhookContext runs `webhook()`,
 * n8n-core's WorkflowExecute runs the execution it starts (test/harness/webhook.ts).
 */
import { createHmac } from 'crypto';
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { keptId, rememberedIds, SEEN_IDS_KEY } from '../../nodes/DocumentSigningTrigger/memory';
import { useWebhookRunners } from '../harness/webhook';
import { sampleEvents } from './events';

const SECRET = 'whsec_trigger_test_5d41402abc4b2a76b9719d911017c592';

function sign(
	body: Buffer | string,
	secret = SECRET,
	alg = 'sha256',
	enc: 'hex' | 'base64' = 'hex',
): string {
	return createHmac(alg, secret).update(body).digest(enc);
}

async function post(url: string, body: Buffer | string, headers: Record<string, string> = {}) {
	const response = await axios.post(url, body, {
		headers: { 'content-type': 'application/json', ...headers },
		transformRequest: [(data: unknown) => data],
		validateStatus: () => true,
	});
	return { status: response.status, body: response.data as IDataObject };
}

const runner = useWebhookRunners();

const withSecret = (parameters: INodeParameters = {}) => ({
	parameters,
	credentials: { webhookSecret: SECRET },
});

describe('Document Signing Trigger over HTTP', () => {
	const [started, completed, failed, sent] = sampleEvents(4);

	it('starts an execution with the event of a signed delivery, marked verified', async () => {
		const r = await runner(withSecret());
		const res = await post(r.url, completed.raw, { 'X-Service-Signature': sign(completed.raw) });

		expect(res.status).toBe(200);
		expect(res.body).toEqual({ received: true, started: true, id: completed.object.id });
		const [execution] = await r.waitForExecutions(1);
		expect(execution.run.status).toBe('success');
		expect(execution.items).toHaveLength(1);
		// The envelope's id also at the top, `data` whole beside it.
		expect(execution.items[0].json).toEqual({
			...completed.object,
			envelopeId: completed.object.data.envelopeId,
			verified: true,
		});
		expect(JSON.stringify(execution.run)).not.toContain(SECRET);
	});

	it('refuses forged and unsigned deliveries with 401 and starts nothing', async () => {
		const r = await runner(withSecret());
		const forgedSig = sign(sent.raw, 'whsec_guess');
		const forged = await post(r.url, sent.raw, { 'X-Service-Signature': forgedSig });
		const unsigned = await post(r.url, sent.raw);
		const tampered = await post(
			r.url,
			Buffer.from(sent.raw.toString().replace('pending', 'completed')),
			{
				'X-Service-Signature': sign(sent.raw),
			},
		);

		for (const res of [forged, unsigned, tampered]) {
			expect(res.status).toBe(401);
			expect(res.body).toEqual({
				code: 'INVALID_SIGNATURE',
				message: 'Signature missing or invalid',
			});
		}
		expect(JSON.stringify(forged.body)).not.toContain(forgedSig);
		await r.settle();
		expect(r.executions).toHaveLength(0);
		expect(r.deliveries.map((d) => d.executionId)).toEqual([undefined, undefined, undefined]);
	});

	it('verifies the bytes received, not a re-serialised body', async () => {
		const r = await runner(withSecret());
		// Same event, written with other spacing and \u escapes: a re-serialised body would not match.
		const text = JSON.stringify(started.object, null, 3).replace(
			/[\u007f-\uffff]/g,
			(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
		);
		expect(text).not.toBe(JSON.stringify(started.object));
		const res = await post(r.url, text, { 'X-Service-Signature': sign(text) });

		expect(res.status).toBe(200);
		const [execution] = await r.waitForExecutions(1);
		expect(execution.items[0].json).toEqual({
			...started.object,
			envelopeId: started.object.data.envelopeId,
			verified: true,
		});
	});

	it('acknowledges an event that is not selected with 200 and starts nothing', async () => {
		const r = await runner(withSecret({ events: ['document.sent'] }));
		const res = await post(r.url, failed.raw, { 'X-Service-Signature': sign(failed.raw) });

		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			received: true,
			started: false,
			reason: 'event not selected',
			id: failed.object.id,
		});
		const ok = await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });
		expect(ok.status).toBe(200);
		const executions = await r.waitForExecutions(1);
		await r.settle();
		expect(executions.map((e) => e.items[0].json.event)).toEqual(['document.sent']);
	});

	it('starts one execution for an event id delivered twice, remembered in static data', async () => {
		const r = await runner(withSecret());
		const first = await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });
		const again = await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });

		expect(first.body).toEqual({ received: true, started: true, id: sent.object.id });
		expect(again.status).toBe(200);
		expect(again.body).toEqual({
			received: true,
			started: false,
			reason: 'duplicate delivery',
			id: sent.object.id,
		});
		await r.settle();
		expect(r.executions).toHaveLength(1);
		const node = r.storedStaticData()['node:Document Signing Trigger'] as IDataObject;
		expect(Object.keys(node)).toEqual([SEEN_IDS_KEY]);
		// The id as a fixed-size hash, with its event's time to the second.
		expect(rememberedIds(node)).toEqual([
			[keptId(sent.object.id), Math.floor(Date.parse(sent.object.createdAt) / 1000) * 1000],
		]);
	});

	it('starts every delivery when deduplication is off', async () => {
		const r = await runner(withSecret({ deduplicate: false }));
		await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });
		await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });
		await r.waitForExecutions(2);
		await r.settle();
		expect(r.executions).toHaveLength(2);
	});

	it('remembers at most 10 000 event ids, forgetting the oldest first', async () => {
		const now = Date.now();
		const old = Array.from({ length: 10_000 }, (_, i) => [`evt_old_${i}`, now - 60_000 + i]);
		const r = await runner({
			...withSecret(),
			staticData: { 'node:Document Signing Trigger': { seenEvents: old } },
		});
		const repeat = Buffer.from(JSON.stringify({ ...sent.object, id: 'evt_old_500' }));
		expect((await post(r.url, repeat, { 'X-Service-Signature': sign(repeat) })).body.reason).toBe(
			'duplicate delivery',
		);
		await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });

		// Saved in the earlier shape ([id, ms] pairs), read and written in the compact one.
		const node = r.storedStaticData()['node:Document Signing Trigger'] as IDataObject;
		expect(node.seenEvents).toBeUndefined();
		const seen = rememberedIds(node);
		expect(seen).toHaveLength(10_000);
		expect(seen[0][0]).toBe(keptId('evt_old_1'));
		expect(seen[9_999][0]).toBe(keptId(sent.object.id));
		// The forgotten id starts an execution again.
		const forgotten = Buffer.from(JSON.stringify({ ...sent.object, id: 'evt_old_0' }));
		expect((await post(r.url, forgotten, { 'X-Service-Signature': sign(forgotten) })).body).toEqual(
			{ received: true, started: true, id: 'evt_old_0' },
		);
		await r.waitForExecutions(2);
	});

	it('forgets ids of events older than the replay window and refuses such events', async () => {
		const now = Date.now();
		const r = await runner({
			...withSecret({ options: { maxEventAgeMinutes: 60 } }),
			staticData: {
				'node:Document Signing Trigger': {
					seenEvents: [
						['evt_ancient', now - 2 * 3_600_000],
						['evt_recent', now - 60_000],
					],
				},
			},
		});
		const ancient = Buffer.from(
			JSON.stringify({
				...sent.object,
				id: 'evt_replayed',
				createdAt: new Date(now - 61 * 60_000).toISOString(),
			}),
		);
		const res = await post(r.url, ancient, { 'X-Service-Signature': sign(ancient) });
		expect(res).toEqual({
			status: 200,
			body: {
				received: true,
				started: false,
				reason: 'event older than Max Event Age',
				id: 'evt_replayed',
			},
		});

		await post(r.url, sent.raw, { 'X-Service-Signature': sign(sent.raw) });
		await r.waitForExecutions(1);
		const seen = rememberedIds(
			r.storedStaticData()['node:Document Signing Trigger'] as IDataObject,
		);
		expect(seen.map(([key]) => key)).toEqual([keptId('evt_recent'), keptId(sent.object.id)]);
	});

	it('refuses every delivery with 401 when the credential has no secret, and names what to do', async () => {
		const r = await runner({ credentials: { webhookSecret: '' } });
		const res = await post(r.url, completed.raw);
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('WEBHOOK_SECRET_MISSING');
		expect(res.body.message).toContain('set the webhook secret of the dashboard in the credential');
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});

	it('with Accept Unsigned Deliveries on and no secret, starts and says the delivery was not verified', async () => {
		const r = await runner({
			parameters: { acceptUnsigned: true },
			credentials: { webhookSecret: '' },
		});
		const res = await post(r.url, completed.raw);

		expect(res.status).toBe(200);
		const [execution] = await r.waitForExecutions(1);
		expect(execution.items[0].json).toEqual({
			...completed.object,
			envelopeId: completed.object.data.envelopeId,
			verified: false,
			verificationNote: expect.stringContaining('No webhook secret'),
		});
	});

	it('answers 400 to a body that is not JSON or not an event, and starts nothing', async () => {
		const r = await runner(withSecret());
		const notJson = '{"id": "evt_1", "event": ';
		const textBody = await post(r.url, notJson, {
			'content-type': 'text/plain',
			'X-Service-Signature': sign(notJson),
		});
		const notEvent = JSON.stringify({
			id: 'evt_2',
			event: 'document.sent',
			createdAt: '2026-01-01T00:00:00Z',
		});
		const missingData = await post(r.url, notEvent, { 'X-Service-Signature': sign(notEvent) });
		const array = '[1,2]';
		const arrayBody = await post(r.url, array, { 'X-Service-Signature': sign(array) });
		// n8n's own body parser refuses malformed JSON sent as application/json before the node runs.
		const jsonBody = await post(r.url, notJson, { 'X-Service-Signature': sign(notJson) });

		expect(textBody).toEqual({
			status: 400,
			body: { code: 'INVALID_PAYLOAD', message: 'Body is not valid JSON' },
		});
		expect(missingData).toEqual({
			status: 400,
			body: { code: 'INVALID_PAYLOAD', message: 'Body is not an event: "data" must be an object' },
		});
		expect(arrayBody.status).toBe(400);
		expect(jsonBody.status).toBe(422);
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});

	it('verifies and starts a delivery whatever its content type, in version 1 and 1.1 (n8n reads the body of 1.1 only for the types it parses)', async () => {
		for (const typeVersion of [1, 1.1]) {
			const r = await runner({ ...withSecret(), typeVersion });
			const events = sampleEvents(3);
			const answers = [];
			for (const [event, type] of [
				[events[0], 'application/octet-stream'],
				[events[1], 'application/vnd.service.event'],
				[events[2], 'application/json'],
			] as const)
				answers.push(
					await post(r.url, event.raw, {
						'content-type': type,
						'X-Service-Signature': sign(event.raw),
					}),
				);
			expect(answers.map((a) => [a.status, a.body.started])).toEqual([
				[200, true],
				[200, true],
				[200, true],
			]);
			const runs = await r.waitForExecutions(3);
			expect(runs.map((e) => e.items[0].json.id).sort()).toEqual(
				events.map((e) => e.object.id).sort(),
			);
		}
	});

	it('checks the signature before reading the body', async () => {
		const r = await runner(withSecret());
		const res = await post(r.url, 'not json', {
			'content-type': 'text/plain',
			'X-Service-Signature': sign('other'),
		});
		expect(res.status).toBe(401);
	});

	it('uses the selected algorithm, encoding and header', async () => {
		const r = await runner(
			withSecret({
				options: { algorithm: 'sha512', encoding: 'base64', signatureHeader: 'X-Signature' },
			}),
		);
		const good = await post(r.url, failed.raw, {
			'X-Signature': `sha512=${sign(failed.raw, SECRET, 'sha512', 'base64')}`,
		});
		const defaultForm = await post(r.url, failed.raw, { 'X-Signature': sign(failed.raw) });
		const defaultHeader = await post(r.url, failed.raw, {
			'X-Service-Signature': sign(failed.raw, SECRET, 'sha512', 'base64'),
		});

		expect(good.status).toBe(200);
		expect(defaultForm.status).toBe(401);
		expect(defaultHeader.status).toBe(401);
		await r.waitForExecutions(1);
	});

	it('adds the request headers when asked, and never the secret', async () => {
		const r = await runner(withSecret({ options: { includeHeaders: true } }));
		const signature = sign(sent.raw);
		await post(r.url, sent.raw, { 'X-Service-Signature': signature, 'X-Delivery-Attempt': '2' });
		const [execution] = await r.waitForExecutions(1);
		const headers = execution.items[0].json.headers as IDataObject;

		expect(headers['x-service-signature']).toBe(signature);
		expect(headers['x-delivery-attempt']).toBe('2');
		expect(headers['content-type']).toBe('application/json');
		expect(JSON.stringify(execution.items)).not.toContain(SECRET);
	});
});
