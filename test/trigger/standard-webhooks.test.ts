/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The Standard Webhooks scheme against the specification's published example (the reference
 * libraries' signing test: secret, msg id, timestamp 1614265330, payload and signature), and
 * the kinds of its verification tests: valid, several signatures with one valid, tampered body,
 * wrong secret, old and future timestamps, missing headers.
 */
import { createHmac } from 'crypto';

import { verifySignature } from '../../nodes/DocumentSigningTrigger/signature';

// From the Standard Webhooks reference libraries' tests (e.g. libraries/go/webhook_test.go, TestWebhookSign).
const SPEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPEC_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const SPEC_TIMESTAMP = 1614265330;
const SPEC_PAYLOAD = Buffer.from('{"test": 2432232314}');
const SPEC_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
// A signature of another content, from the same tests.
const OTHER_SIGNATURE = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';

const FIVE_MINUTES = 5 * 60_000;

/** Signs as a sender would, written from the specification (not with the node's code). */
function senderSignature(secret: string, id: string, timestamp: number, payload: Buffer): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(payload).digest('base64')}`;
}

function verify(
	headers: Record<string, string | undefined>,
	{ payload = SPEC_PAYLOAD, secret = SPEC_SECRET, nowMs = SPEC_TIMESTAMP * 1000 } = {},
) {
	return verifySignature({
		rawBody: payload,
		header: undefined,
		headers,
		secret,
		scheme: 'standardWebhooks',
		nowMs,
		maxAgeMs: FIVE_MINUTES,
		maxSkewMs: FIVE_MINUTES,
	});
}

const specHeaders = (
	signature = SPEC_SIGNATURE,
	timestamp = SPEC_TIMESTAMP,
): Record<string, string | undefined> => ({
	'webhook-id': SPEC_ID,
	'webhook-timestamp': String(timestamp),
	'webhook-signature': signature,
});

describe('Standard Webhooks signature scheme', () => {
	it("accepts the specification's published example and gives its webhook-id as the event id", () => {
		expect(senderSignature(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_PAYLOAD)).toBe(
			SPEC_SIGNATURE,
		);
		expect(verify(specHeaders())).toEqual({ ok: true, eventId: SPEC_ID });
	});

	it('accepts a secret without the whsec_ prefix', () => {
		expect(verify(specHeaders(), { secret: SPEC_SECRET.slice('whsec_'.length) })).toEqual({
			ok: true,
			eventId: SPEC_ID,
		});
	});

	it('accepts several space-separated signatures when one of them matches, other versions skipped', () => {
		const several = [
			OTHER_SIGNATURE,
			'v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
			SPEC_SIGNATURE,
			OTHER_SIGNATURE,
		].join(' ');
		expect(verify(specHeaders(several))).toEqual({ ok: true, eventId: SPEC_ID });
		expect(verify(specHeaders([OTHER_SIGNATURE, OTHER_SIGNATURE].join(' ')))).toEqual({
			ok: false,
			reason: 'mismatch',
		});
	});

	it('refuses a tampered body, another secret, and a signature of another id', () => {
		expect(verify(specHeaders(), { payload: Buffer.from('{"test": 2432232315}') })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
		expect(
			verify(specHeaders(), {
				secret: 'whsec_' + Buffer.from('another secret of the sender').toString('base64'),
			}),
		).toEqual({
			ok: false,
			reason: 'mismatch',
		});
		expect(verify({ ...specHeaders(), 'webhook-id': 'msg_other' })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
	});

	it('refuses timestamps older than the replay window or further ahead than the clock skew', () => {
		const now = SPEC_TIMESTAMP * 1000;
		const old = SPEC_TIMESTAMP - 5 * 60 - 1;
		const future = SPEC_TIMESTAMP + 5 * 60 + 1;
		const sign = (t: number) => senderSignature(SPEC_SECRET, SPEC_ID, t, SPEC_PAYLOAD);
		expect(verify(specHeaders(sign(old), old), { nowMs: now })).toEqual({
			ok: false,
			reason: 'stale_timestamp',
		});
		expect(verify(specHeaders(sign(future), future), { nowMs: now })).toEqual({
			ok: false,
			reason: 'future_timestamp',
		});
		const edge = SPEC_TIMESTAMP - 5 * 60 + 1;
		expect(verify(specHeaders(sign(edge), edge), { nowMs: now }).ok).toBe(true);
		// The example itself is from 2021: today it is far outside the window.
		expect(verify(specHeaders(), { nowMs: Date.now() })).toEqual({
			ok: false,
			reason: 'stale_timestamp',
		});
	});

	it('refuses each missing header by name', () => {
		expect(verify({ ...specHeaders(), 'webhook-id': undefined })).toEqual({
			ok: false,
			reason: 'missing_webhook_id',
		});
		expect(verify({ ...specHeaders(), 'webhook-timestamp': undefined })).toEqual({
			ok: false,
			reason: 'missing_webhook_timestamp',
		});
		expect(verify({ ...specHeaders(), 'webhook-timestamp': 'yesterday' })).toEqual({
			ok: false,
			reason: 'missing_webhook_timestamp',
		});
		expect(verify({ ...specHeaders(), 'webhook-signature': undefined })).toEqual({
			ok: false,
			reason: 'missing_signature',
		});
		expect(verify(specHeaders('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='))).toEqual({
			ok: false,
			reason: 'malformed_signature',
		});
	});

	it('says when the secret is not base64, without naming it', () => {
		const result = verify(specHeaders(), { secret: 'whsec_not base64!' });
		expect(result).toEqual({ ok: false, reason: 'secret_not_base64' });
	});
});
