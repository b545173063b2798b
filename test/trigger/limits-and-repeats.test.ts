/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Repeats and limits over real HTTP (test/harness/webhook.ts answers and stores static data
 * in the order n8n 2.41 does): simultaneous copies start one execution, distinct events all
 * start and all stay remembered, oversized, over-deep and old bodies start nothing.
 */
import { createHmac } from 'crypto';
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { keptId, rememberedIds } from '../../nodes/DocumentSigningTrigger/memory';
import { useWebhookRunners, type WebhookRunner } from '../harness/webhook';
import { sampleEvents } from './events';

const SECRET = 'whsec_limits_test_7c4a8d09ca3762af61e59520943dc264';
const sign = (body: Buffer | string) => createHmac('sha256', SECRET).update(body).digest('hex');

async function post(url: string, body: Buffer | string, signature = sign(body)) {
	const response = await axios.post(url, body, {
		headers: { 'content-type': 'application/json', 'X-Service-Signature': signature },
		transformRequest: [(data: unknown) => data],
		validateStatus: () => true,
		maxBodyLength: Infinity,
	});
	return { status: response.status, body: response.data as IDataObject };
}

const startRunner = useWebhookRunners();
const runner = async (options: INodeParameters = {}) =>
	await startRunner({ parameters: { options }, credentials: { webhookSecret: SECRET } });

const stored = (r: WebhookRunner) =>
	rememberedIds((r.storedStaticData()['node:Document Signing Trigger'] as IDataObject) ?? {});

/** An event whose `data` nests `levels` objects deep. */
function deepEvent(levels: number): string {
	const [event] = sampleEvents(1);
	const inner = '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
	return JSON.stringify({ ...event.object, data: {} }).replace('"data":{}', `"data":${inner}`);
}

describe('Document Signing Trigger: repeats', () => {
	it.each([2, 5, 20])('%i identical copies at once start one execution', async (copies) => {
		const r = await runner();
		const [event] = sampleEvents(1);
		const answers = await Promise.all(
			Array.from({ length: copies }, async () => await post(r.url, event.raw)),
		);

		expect(answers.filter((a) => a.body.started === true)).toHaveLength(1);
		expect(answers.filter((a) => a.body.reason === 'duplicate delivery')).toHaveLength(copies - 1);
		await r.settle();
		expect(r.executions).toHaveLength(1);
		expect(stored(r).map(([id]) => id)).toEqual([keptId(event.object.id)]);
	});

	it('30 distinct events at once start 30 executions, and all 30 ids stay remembered', async () => {
		const r = await runner();
		const events = sampleEvents(30);
		const answers = await Promise.all(events.map(async (e) => await post(r.url, e.raw)));
		expect(answers.every((a) => a.status === 200 && a.body.started === true)).toBe(true);
		await r.waitForExecutions(30);

		expect(new Set(stored(r).map(([id]) => id))).toEqual(
			new Set(events.map((e) => keptId(e.object.id))),
		);
		// Each of them again, one by one: nothing starts.
		for (const e of events)
			expect((await post(r.url, e.raw)).body.reason).toBe('duplicate delivery');
		await r.settle();
		expect(r.executions).toHaveLength(30);
	});

	it('the memory survives the process forgetting it: the stored static data alone refuses a repeat', async () => {
		const r = await runner();
		const [event] = sampleEvents(1);
		await post(r.url, event.raw);
		await r.settle();
		// A new runner with the stored data and a fresh workflow id stands for n8n after a restart.
		const restarted = await startRunner({
			credentials: { webhookSecret: SECRET },
			staticData: r.storedStaticData(),
		});
		expect((await post(restarted.url, event.raw)).body.reason).toBe('duplicate delivery');
	});
});

describe('Document Signing Trigger: limits', () => {
	it('refuses a body over Max Body Size with 413 and starts nothing', async () => {
		const r = await runner({ maxBodyKb: 4 });
		const [event] = sampleEvents(1);
		const big = JSON.stringify({
			...event.object,
			data: { ...event.object.data, note: 'x'.repeat(5000) },
		});
		const res = await post(r.url, big);
		expect(res.status).toBe(413);
		expect(res.body).toEqual({
			code: 'PAYLOAD_TOO_LARGE',
			message: expect.stringContaining('limit of 4096 bytes (option Max Body Size)'),
		});
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});

	it('refuses data nested deeper than the default 32 levels with 400, and accepts 32', async () => {
		const r = await runner();
		const tooDeep = await post(r.url, deepEvent(33));
		expect(tooDeep.status).toBe(400);
		expect(tooDeep.body).toEqual({
			code: 'PAYLOAD_TOO_DEEP',
			message: expect.stringContaining("nests 33 levels deep, more than the trigger's limit of 32"),
		});
		const deepest = await post(r.url, deepEvent(32));
		expect(deepest.body.started).toBe(true);
		await r.waitForExecutions(1);
	});

	it('refuses 10 000 levels (which n8n could store but not read back) without parsing them', async () => {
		const r = await runner();
		const res = await post(r.url, deepEvent(10_000));
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('PAYLOAD_TOO_DEEP');
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});

	it('counts brackets inside strings as text, not nesting', async () => {
		const r = await runner({ maxDataDepth: 2 });
		const [event] = sampleEvents(1);
		const body = JSON.stringify({ ...event.object, data: { note: '[[[[{{{{ "\\" [[[[' } });
		expect((await post(r.url, body)).body.started).toBe(true);
		await r.waitForExecutions(1);
	});

	it('accepts a signed body that starts with a UTF-8 byte order mark', async () => {
		const r = await runner();
		const [event] = sampleEvents(1);
		const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), event.raw]);
		const res = await post(r.url, body, sign(body));
		expect(res.body).toEqual({ received: true, started: true, id: event.object.id });
		const [execution] = await r.waitForExecutions(1);
		expect(execution.items[0].json.id).toBe(event.object.id);
	});

	it('refuses an event whose createdAt is not a timestamp', async () => {
		const r = await runner();
		const [event] = sampleEvents(1);
		const body = JSON.stringify({ ...event.object, createdAt: 'yesterday' });
		expect(await post(r.url, body)).toEqual({
			status: 400,
			body: {
				code: 'INVALID_PAYLOAD',
				message: 'Body is not an event: "createdAt" must be a timestamp',
			},
		});
	});

	it('with Max Event Age 0, an old event starts (the check is off)', async () => {
		const r = await runner({ maxEventAgeMinutes: 0 });
		const [event] = sampleEvents(1);
		const body = JSON.stringify({ ...event.object, createdAt: '2020-01-01T00:00:00.000Z' });
		expect((await post(r.url, body)).body.started).toBe(true);
		await r.waitForExecutions(1);
	});
});
