/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * The trigger's verdict on a delivery as a table: the delivery, the settings and the secret in,
 * refuse (status, code), acknowledge without starting, or start (with the id the memory keys
 * on) out. No n8n: nodes/DocumentSigningTrigger/verdict.ts is a plain function.
 */
import { createHmac } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import {
	type Delivery,
	type DeliverySettings,
	judgeDelivery,
} from '../../nodes/DocumentSigningTrigger/verdict';

const SECRET = 'whsec_verdict_0123456789abcdef';
const STANDARD_SECRET = `whsec_${Buffer.from('standard-webhooks-key-32-bytes!!').toString('base64')}`;
const NOW = Date.parse('2026-11-28T10:00:00Z');
const MINUTE = 60_000;

const event = (over: IDataObject = {}) => ({
	id: 'evt_1',
	event: 'document.sent',
	createdAt: new Date(NOW - MINUTE).toISOString(),
	data: { envelopeId: 'env_1' },
	...over,
});

function delivery(body: unknown, headers: Record<string, string> = {}): Delivery {
	const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
	return { rawBody: raw, bytes: raw, headers };
}
const signed = (body: unknown, secret = SECRET) => {
	const d = delivery(body);
	d.headers['x-service-signature'] = createHmac('sha256', secret).update(d.bytes).digest('hex');
	return d;
};
/** Signed in the timestamped scheme: `t=<seconds>,v1=<HMAC of "<t>.<body>">`. */
function timestamped(body: unknown): Delivery {
	const d = delivery(body);
	const t = String(Math.floor(NOW / 1000));
	const signature = createHmac('sha256', SECRET).update(`${t}.`).update(d.bytes).digest('hex');
	d.headers['x-service-signature'] = `t=${t},v1=${signature}`;
	return d;
}
function standard(body: unknown, id: string): Delivery {
	const d = delivery(body);
	const timestamp = String(Math.floor(NOW / 1000));
	const key = Buffer.from(STANDARD_SECRET.slice('whsec_'.length), 'base64');
	const signature = createHmac('sha256', key)
		.update(`${id}.${timestamp}.`)
		.update(d.bytes)
		.digest('base64');
	Object.assign(d.headers, {
		'webhook-id': id,
		'webhook-timestamp': timestamp,
		'webhook-signature': `v1,${signature}`,
	});
	return d;
}
const ALL = ['document.sent', 'document.estamp.completed'];
const settings = (over: Partial<DeliverySettings> = {}): DeliverySettings => ({
	options: {},
	events: ALL,
	acceptUnsigned: false,
	...over,
});

type Row = [string, Delivery, DeliverySettings, string, IDataObject];
const ROWS: Row[] = [
	[
		'no secret, unsigned refused',
		delivery(event()),
		settings(),
		'',
		{ action: 'refuse', status: 401, code: 'WEBHOOK_SECRET_MISSING' },
	],
	[
		'no secret, Accept Unsigned on: starts, not verified',
		delivery(event()),
		settings({ acceptUnsigned: true }),
		'',
		{ action: 'start', eventId: 'evt_1', verified: false },
	],
	[
		'signed: starts, verified',
		signed(event()),
		settings(),
		SECRET,
		{ action: 'start', eventId: 'evt_1', verified: true },
	],
	[
		'signed with another secret: 401',
		signed(event(), 'whsec_other'),
		settings(),
		SECRET,
		{ action: 'refuse', status: 401, code: 'INVALID_SIGNATURE' },
	],
	[
		'no signature header: 401',
		delivery(event()),
		settings(),
		SECRET,
		{ action: 'refuse', status: 401, code: 'INVALID_SIGNATURE' },
	],
	[
		'over Max Body Size: 413',
		signed({ ...event(), data: { pad: 'x'.repeat(3000) } }),
		settings({ options: { maxBodyKb: 1 } }),
		SECRET,
		{ action: 'refuse', status: 413, code: 'PAYLOAD_TOO_LARGE' },
	],
	[
		'deeper than Max Nesting Depth: 400',
		signed(event({ data: { a: { b: { c: {} } } } })),
		settings({ options: { maxDataDepth: 2 } }),
		SECRET,
		{ action: 'refuse', status: 400, code: 'PAYLOAD_TOO_DEEP' },
	],
	[
		'not JSON: 400',
		signed('{"id": '),
		settings(),
		SECRET,
		{ action: 'refuse', status: 400, code: 'INVALID_PAYLOAD' },
	],
	[
		'an unselected kind: acknowledged, not started',
		signed(event({ event: 'document.estamp.failed' })),
		settings(),
		SECRET,
		{ action: 'unselected', kind: 'document.estamp.failed', id: 'evt_1' },
	],
	[
		'a kind beyond the four with Any Other Event: starts',
		signed(event({ event: 'recipient.signed' })),
		settings({ events: ['otherEvents'] }),
		SECRET,
		{ action: 'start', eventId: 'evt_1' },
	],
	[
		'older than Max Event Age: acknowledged at debug',
		signed(event({ createdAt: new Date(NOW - 25 * 60 * MINUTE).toISOString() })),
		settings(),
		SECRET,
		{ action: 'ignore', level: 'debug', reason: 'event older than Max Event Age' },
	],
	[
		'Max Event Age 0: an old event starts',
		signed(event({ createdAt: new Date(NOW - 25 * 60 * MINUTE).toISOString() })),
		settings({ options: { maxEventAgeMinutes: 0 } }),
		SECRET,
		{ action: 'start', eventId: 'evt_1' },
	],
	[
		'dated past Max Clock Skew: acknowledged at warn',
		signed(event({ createdAt: new Date(NOW + 10 * MINUTE).toISOString() })),
		settings(),
		SECRET,
		{ action: 'ignore', level: 'warn', reason: 'event dated further ahead than Max Clock Skew' },
	],
	[
		'an unknown algorithm: 500',
		signed(event()),
		settings({ options: { algorithm: 'md5' } }),
		SECRET,
		{ action: 'refuse', status: 500, code: 'CONFIGURATION_ERROR' },
	],
	[
		'Standard Webhooks: starts with the signed webhook-id',
		standard(event(), 'msg_signed'),
		settings({ options: { signatureScheme: 'standardWebhooks' } }),
		STANDARD_SECRET,
		{ action: 'start', eventId: 'msg_signed', verified: true },
	],
	[
		'Standard Webhooks headers under the body scheme: 401 naming the scheme they look signed with',
		standard(event(), 'msg_1'),
		settings(),
		STANDARD_SECRET,
		{
			action: 'refuse',
			status: 401,
			logReason: expect.stringContaining('look signed with the Standard Webhooks scheme'),
		},
	],
	[
		'Timestamped: starts',
		timestamped(event()),
		settings({ options: { signatureScheme: 'timestamped' } }),
		SECRET,
		{ action: 'start', verified: true },
	],
	[
		'a timestamped header under the body scheme: 401 naming the Timestamped scheme and the header looked at',
		timestamped(event()),
		settings(),
		SECRET,
		{
			action: 'refuse',
			status: 401,
			logReason: expect.stringMatching(
				/HMAC of the Body scheme, header x-service-signature, sha256, hex\); the headers look signed with the Timestamped scheme/,
			),
		},
	],
	[
		'a body signature under the Standard Webhooks scheme: 401 looking at the webhook-* headers, nothing suggested',
		signed(event()),
		settings({ options: { signatureScheme: 'standardWebhooks' } }),
		STANDARD_SECRET,
		{
			action: 'refuse',
			status: 401,
			logReason: expect.not.stringContaining('look signed with'),
		},
	],
];

describe('the verdict on a delivery', () => {
	it.each(ROWS)('%s', (_name, d, s, secret, expected) => {
		expect(judgeDelivery(d, s, secret, NOW)).toMatchObject(expected);
	});

	it('reads no clock of its own: the same delivery judged a day later is past Max Event Age', () => {
		const d = signed(event());
		expect(judgeDelivery(d, settings(), SECRET, NOW).action).toBe('start');
		expect(judgeDelivery(d, settings(), SECRET, NOW + 24 * 60 * MINUTE)).toMatchObject({
			action: 'ignore',
		});
	});
});
