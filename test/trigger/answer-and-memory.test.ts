/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Who answers a delivery, and when an event id counts as seen, over real HTTP through
 * n8n-core's WebhookContext and WorkflowExecute (test/harness/webhook.ts answers in n8n 2.41's
 * order; its `insertExecution` stands for the execution insert, to fail it as n8n's database
 * can). Also: the memory's size with very long ids, the log line of an unselected kind, and
 * Standard Webhooks deliveries.
 */
import { createHmac } from 'crypto';
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { keptId, rememberedIds } from '../../nodes/DocumentSigningTrigger/memory';
import { n8nLogger } from '../harness/logger';
import { useWebhookRunners, type WebhookRunnerOptions } from '../harness/webhook';
import { sampleEvents } from './events';

const SECRET = 'whsec_answer_test_0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const sign = (body: string | Buffer) => createHmac('sha256', SECRET).update(body).digest('hex');

async function post(
	url: string,
	body: string | Buffer,
	headers: Record<string, string> = { 'X-Service-Signature': sign(body) },
) {
	const response = await axios.post(url, body, {
		headers: { 'content-type': 'application/json', ...headers },
		transformRequest: [(data: unknown) => data],
		validateStatus: () => true,
		maxBodyLength: Infinity,
	});
	return { status: response.status, body: response.data as IDataObject };
}

const startRunner = useWebhookRunners();
const runner = async (parameters: INodeParameters = {}, more: Partial<WebhookRunnerOptions> = {}) =>
	await startRunner({ parameters, credentials: { webhookSecret: SECRET }, ...more });
const storedIds = (data: IDataObject) =>
	rememberedIds((data['node:Document Signing Trigger'] as IDataObject) ?? {}).map(([key]) => key);

/** An insert that waits for `release()`, then succeeds or fails. */
function gatedInsert() {
	let open: (ok: boolean) => void = () => {};
	let held: () => void = () => {};
	let calls = 0;
	const gate = new Promise<boolean>((resolve) => (open = resolve));
	/** Resolves once the first insert is held at the gate. */
	const entered = new Promise<void>((resolve) => (held = resolve));
	return {
		insertExecution: async () => {
			if (++calls > 1) return;
			held();
			if (!(await gate)) throw new Error('SQLITE_BUSY: database is locked');
		},
		release: (ok: boolean) => open(ok),
		entered,
	};
}

describe('Document Signing Trigger: n8n answers the deliveries that start a run', () => {
	it("answers a started event with the node's body once the execution exists, the id stored with it", async () => {
		const r = await runner();
		const [event] = sampleEvents(1);
		const res = await post(r.url, event.raw);
		expect(res).toEqual({
			status: 200,
			body: { received: true, started: true, id: event.object.id },
		});
		expect(r.deliveries[0].executionId).toBe('1');
		expect(storedIds(r.storedStaticData())).toEqual([keptId(event.object.id)]);
	});

	it('a delivery whose execution n8n cannot create gets 500, is not remembered, and its retry runs', async () => {
		let failures = 1;
		const r = await runner(
			{},
			{
				insertExecution: async () => {
					if (failures-- > 0) throw new Error('SQLITE_CONSTRAINT: insert refused');
				},
			},
		);
		const [event] = sampleEvents(1);
		const refused = await post(r.url, event.raw);
		expect(refused.status).toBe(500);
		expect(storedIds(r.storedStaticData())).toEqual([]);
		const retried = await post(r.url, event.raw);
		expect(retried).toEqual({
			status: 200,
			body: { received: true, started: true, id: event.object.id },
		});
		const again = await post(r.url, event.raw);
		expect(again.body.reason).toBe('duplicate delivery');
		await r.settle();
		expect(r.executions).toHaveLength(1);
		expect(storedIds(r.storedStaticData())).toEqual([keptId(event.object.id)]);
	});

	it.each([
		['taken', true, 'duplicate delivery'],
		['refused', false, undefined],
	])(
		'a copy arriving while the first delivery is being taken waits for it (first %s)',
		async (_, ok, copyReason) => {
			const gate = gatedInsert();
			const r = await runner({}, { insertExecution: gate.insertExecution });
			const [event] = sampleEvents(1);
			const first = post(r.url, event.raw);
			// The copy arrives while the first is held in n8n's insert.
			await gate.entered;
			const copy = post(r.url, event.raw);
			while (r.deliveries.length < 2) await sleep(5);
			// Real time on purpose: a copy answered without waiting for the first would be
			// answered within this time, and a held copy gives no event to wait for.
			await sleep(100);
			expect(r.deliveries.map((d) => d.status)).toEqual([0, 0]);
			gate.release(ok);
			const [firstAnswer, copyAnswer] = await Promise.all([first, copy]);
			await r.settle();

			expect(firstAnswer.status).toBe(ok ? 200 : 500);
			expect(copyAnswer.status).toBe(200);
			expect(copyAnswer.body.reason).toBe(copyReason);
			expect(copyAnswer.body.started).toBe(!ok);
			expect(r.executions).toHaveLength(1);
			expect(storedIds(r.storedStaticData())).toEqual([keptId(event.object.id)]);
		},
	);

	it('keeps very long ids as fixed-size hashes: three 240 KB ids add less than 200 bytes each', async () => {
		const r = await runner();
		const [event] = sampleEvents(1);
		const bodies = ['a', 'b', 'c'].map((c) =>
			JSON.stringify({ ...event.object, id: c.repeat(240 * 1024) }),
		);
		for (const body of bodies) expect((await post(r.url, body)).body.started).toBe(true);
		const stored = JSON.stringify(r.storedStaticData());
		expect(stored.length).toBeLessThan(3 * 200);
		expect((await post(r.url, bodies[1])).body.reason).toBe('duplicate delivery');
		await r.settle();
		expect(r.executions).toHaveLength(3);
	});
});

describe('Document Signing Trigger: what the log says about deliveries that start nothing', () => {
	it('logs the first delivery of each unselected kind at warn, naming Any Other Event, later ones at debug', async () => {
		const logger = n8nLogger();
		const warn = jest.spyOn(logger, 'warn');
		const debug = jest.spyOn(logger, 'debug');
		try {
			const r = await runner({ events: ['document.sent'] });
			const [event] = sampleEvents(1);
			const kinds = ['recipient.signed', 'recipient.signed', 'document.estamp.failed'];
			for (const [n, kind] of kinds.entries()) {
				const body = JSON.stringify({ ...event.object, id: `evt_unselected_${n}`, event: kind });
				expect((await post(r.url, body)).body).toEqual({
					received: true,
					started: false,
					reason: 'event not selected',
					id: `evt_unselected_${n}`,
				});
			}
			const ours = (spy: jest.SpyInstance) =>
				spy.mock.calls
					.map(([m]) => String(m))
					.filter((m) => m.startsWith('Document Signing Trigger'));
			expect(ours(warn)).toEqual([
				expect.stringContaining(
					'event not selected (kind "recipient.signed"; choose it, or "Any Other Event", under Events to start on it)',
				),
				expect.stringContaining('event not selected (kind "document.estamp.failed";'),
			]);
			expect(ours(debug)).toContainEqual(
				expect.stringMatching(/: event not selected \(event id "evt_unselected_1"\)$/),
			);
		} finally {
			warn.mockRestore();
			debug.mockRestore();
		}
	});

	it('refuses a timestamped signature sent to the body scheme, and the log names the Timestamped scheme', async () => {
		const logger = n8nLogger();
		const warn = jest.spyOn(logger, 'warn');
		try {
			const r = await runner();
			const [event] = sampleEvents(1);
			const t = Math.floor(Date.now() / 1000);
			const header = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.`).update(event.raw).digest('hex')}`;
			const res = await post(r.url, event.raw, { 'X-Service-Signature': header });
			expect(res).toEqual({
				status: 401,
				body: { code: 'INVALID_SIGNATURE', message: 'Signature missing or invalid' },
			});
			const logged = warn.mock.calls
				.map(([m]) => String(m))
				.filter((m) => m.startsWith('Document Signing Trigger'));
			expect(logged).toEqual([
				expect.stringContaining(
					'the headers look signed with the Timestamped scheme (option Signature Scheme)',
				),
			]);
		} finally {
			warn.mockRestore();
		}
	});
});

describe('Document Signing Trigger: Standard Webhooks deliveries', () => {
	const key = Buffer.from('a sender key of thirty-two bytes');
	const secret = `whsec_${key.toString('base64')}`;
	/** Headers a Standard Webhooks sender writes, from the specification. */
	const headersFor = (id: string, body: string, t = Math.floor(Date.now() / 1000)) => ({
		'webhook-id': id,
		'webhook-timestamp': String(t),
		'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${t}.${body}`).digest('base64')}`,
	});

	it('starts on a valid delivery and takes webhook-id as the event id for repeats', async () => {
		const r = await startRunner({
			parameters: { options: { signatureScheme: 'standardWebhooks' } },
			credentials: { webhookSecret: secret },
		});
		const [event, other] = sampleEvents(2);
		const first = await post(r.url, event.raw, headersFor('msg_one', event.raw.toString()));
		expect(first).toEqual({ status: 200, body: { received: true, started: true, id: 'msg_one' } });
		// Another body under the same webhook-id is the same message, retried.
		const again = await post(r.url, other.raw, headersFor('msg_one', other.raw.toString()));
		expect(again.body.reason).toBe('duplicate delivery');
		const forged = await post(r.url, other.raw, {
			...headersFor('msg_two', other.raw.toString()),
			'webhook-id': 'msg_three',
		});
		expect(forged.status).toBe(401);
		await r.settle();
		expect(r.executions).toHaveLength(1);
		expect(r.executions[0].items[0].json.id).toBe(event.object.id);
	});
});
