/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The trigger's clock-skew check, its further signature schemes and the log line of every
 * refused delivery, over real HTTP through n8n-core's WebhookContext (test/harness/webhook.ts).
 */
import { createHmac } from 'crypto';
import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { n8nLogger } from '../harness/logger';
import { useWebhookRunners } from '../harness/webhook';
import { sampleEvents } from './events';

const SECRET = 'whsec_security_test_1b2c3d4e5f60718293a4b5c6d7e8f901';
const hmac = (payload: string | Buffer, encoding: 'hex' | 'base64' | 'base64url' = 'hex') =>
	createHmac('sha256', SECRET).update(payload).digest(encoding);

async function post(url: string, body: string | Buffer, signature: string) {
	const response = await axios.post(url, body, {
		headers: { 'content-type': 'application/json', 'X-Service-Signature': signature },
		transformRequest: [(data: unknown) => data],
		validateStatus: () => true,
	});
	return { status: response.status, body: response.data as IDataObject };
}

const startRunner = useWebhookRunners();
const runner = async (options: INodeParameters = {}) =>
	await startRunner({ parameters: { options }, credentials: { webhookSecret: SECRET } });

/** An event created `offsetMs` from now (negative: in the past). */
function eventAt(offsetMs: number): { id: string; raw: string } {
	const [event] = sampleEvents(1);
	const object = { ...event.object, createdAt: new Date(Date.now() + offsetMs).toISOString() };
	return { id: object.id as string, raw: JSON.stringify(object) };
}

const MINUTE = 60_000;

describe('Document Signing Trigger: Max Clock Skew', () => {
	it('acknowledges an event dated in the year 9999 without starting anything', async () => {
		const r = await runner();
		const [event] = sampleEvents(1);
		const raw = JSON.stringify({ ...event.object, createdAt: '9999-12-31T23:59:59.000Z' });
		const answer = await post(r.url, raw, hmac(raw));
		expect(answer).toEqual({
			status: 200,
			body: {
				received: true,
				started: false,
				reason: 'event dated further ahead than Max Clock Skew',
				id: event.object.id,
			},
		});
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});

	it('starts an event 3 minutes ahead with the default of 5 minutes, refuses it with 1 minute', async () => {
		const lenient = await runner();
		const ahead = eventAt(3 * MINUTE);
		expect((await post(lenient.url, ahead.raw, hmac(ahead.raw))).body.started).toBe(true);
		await lenient.waitForExecutions(1);

		const strict = await runner({ maxClockSkewMinutes: 1 });
		const again = eventAt(3 * MINUTE);
		expect((await post(strict.url, again.raw, hmac(again.raw))).body.reason).toBe(
			'event dated further ahead than Max Clock Skew',
		);
		await strict.settle();
		expect(strict.executions).toHaveLength(0);
	});

	it('with Max Clock Skew 0 the check is off', async () => {
		const r = await runner({ maxClockSkewMinutes: 0 });
		const far = eventAt(365 * 24 * 60 * MINUTE);
		expect((await post(r.url, far.raw, hmac(far.raw))).body.started).toBe(true);
		await r.waitForExecutions(1);
	});
});

describe('Document Signing Trigger: signature schemes', () => {
	it('accepts a v1= prefix in the default scheme, and still sha256= and a bare digest', async () => {
		const r = await runner();
		for (const prefix of ['v1=', 'sha256=', '']) {
			const e = eventAt(0);
			expect((await post(r.url, e.raw, `${prefix}${hmac(e.raw)}`)).body.started).toBe(true);
		}
		await r.waitForExecutions(3);
	});

	it('Base64url: accepts the unpadded and padded forms, refuses hex and a wrong digest', async () => {
		const r = await runner({ encoding: 'base64url' });
		const a = eventAt(0);
		expect((await post(r.url, a.raw, hmac(a.raw, 'base64url'))).body.started).toBe(true);
		const b = eventAt(0);
		expect((await post(r.url, b.raw, `v1=${hmac(b.raw, 'base64url')}=`)).body.started).toBe(true);
		const c = eventAt(0);
		expect((await post(r.url, c.raw, hmac(c.raw, 'hex'))).status).toBe(401);
		expect((await post(r.url, c.raw, hmac(`${c.raw} `, 'base64url'))).status).toBe(401);
		await r.settle();
		expect(r.executions).toHaveLength(2);
	});

	it('Timestamped: t=<unix>,v1=<hmac of "<t>.<body>"> starts; the body alone, another t, a missing t or t outside the window are refused', async () => {
		const r = await runner({ signatureScheme: 'timestamped' });
		const now = Math.floor(Date.now() / 1000);
		const signed = (t: number, raw: string) => `t=${t},v1=${hmac(`${t}.${raw}`)}`;

		const good = eventAt(0);
		expect((await post(r.url, good.raw, signed(now, good.raw))).body.started).toBe(true);
		// Several v1 values (a secret being rotated): one match is enough.
		const rotated = eventAt(0);
		const header = `t=${now},v1=${'0'.repeat(64)},v1=${hmac(`${now}.${rotated.raw}`)}`;
		expect((await post(r.url, rotated.raw, header)).body.started).toBe(true);

		const e = eventAt(0);
		const refused = [
			hmac(e.raw), // the default scheme's signature
			`t=${now},v1=${hmac(e.raw)}`, // the body signed without the timestamp
			`t=${now + 1},v1=${hmac(`${now}.${e.raw}`)}`, // the timestamp changed after signing
			`v1=${hmac(`${now}.${e.raw}`)}`, // no timestamp
			signed(now - 2 * 24 * 3600, e.raw), // older than Max Event Age (a day by default)
			signed(now + 3600, e.raw), // an hour ahead, more than Max Clock Skew
		];
		for (const signature of refused) {
			expect(await post(r.url, e.raw, signature)).toEqual({
				status: 401,
				body: { code: 'INVALID_SIGNATURE', message: 'Signature missing or invalid' },
			});
		}
		await r.settle();
		expect(r.executions).toHaveLength(2);
	});
});

describe("Document Signing Trigger: why a delivery started nothing, in n8n's log", () => {
	it('logs forged and future-dated deliveries at warn and repeats at debug, with the event id and never the secret or signature', async () => {
		const logger = n8nLogger();
		const warn = jest.spyOn(logger, 'warn');
		const debug = jest.spyOn(logger, 'debug');
		try {
			const r = await runner();
			const forged = eventAt(0);
			const forgedSignature = createHmac('sha256', 'not-the-secret')
				.update(forged.raw)
				.digest('hex');
			expect((await post(r.url, forged.raw, forgedSignature)).status).toBe(401);
			const future = eventAt(60 * MINUTE);
			await post(r.url, future.raw, hmac(future.raw));
			const twice = eventAt(0);
			await post(r.url, twice.raw, hmac(twice.raw));
			await post(r.url, twice.raw, hmac(twice.raw));
			await r.waitForExecutions(1);

			const ours = (spy: jest.SpyInstance) =>
				spy.mock.calls.filter(([message]) =>
					String(message).startsWith('Document Signing Trigger'),
				);
			const warnings = ours(warn);
			expect(warnings.map(([message]) => message)).toEqual([
				expect.stringMatching(
					/^Document Signing Trigger did not start workflow \S*: 401 INVALID_SIGNATURE: the signature does not match the body/,
				),
				expect.stringMatching(
					/: event dated further ahead than Max Clock Skew \(event id "evt_[^"]+"\)$/,
				),
			]);
			expect(warnings[1][0]).toContain(JSON.stringify(future.id));
			expect(warnings[1][1]).toMatchObject({
				eventId: JSON.stringify(future.id),
				node: 'Document Signing Trigger',
			});
			expect(ours(debug).map(([message]) => message)).toContainEqual(
				expect.stringMatching(new RegExp(`: duplicate delivery \\(event id "${twice.id}"\\)$`)),
			);
			const logged = JSON.stringify([...warn.mock.calls, ...debug.mock.calls]);
			expect(logged).not.toContain(SECRET);
			expect(logged).not.toContain(forgedSignature);
			expect(logged).not.toContain(hmac(twice.raw));
		} finally {
			warn.mockRestore();
			debug.mockRestore();
		}
	});
});
