/**
 * The Standard Webhooks signature scheme (standardwebhooks.com): the headers `webhook-id`,
 * `webhook-timestamp` (unix seconds) and `webhook-signature` (space-separated `v1,<base64>`
 * entries, any one matching), an HMAC-SHA256 of `<id>.<timestamp>.<raw body>` keyed with the
 * base64-decoded part of a `whsec_`-prefixed secret. `webhook-id` is the event's id for
 * repeated deliveries.
 */
import { createHmac } from 'crypto';

import { constantTimeEqual, type SignatureSchemeRule } from './scheme';
import { outsideWindow, type SignedAtWindow } from './signedAt';

export const STANDARD_HEADERS = {
	id: 'webhook-id',
	timestamp: 'webhook-timestamp',
	signature: 'webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export type StandardFailure =
	| 'missing_raw_body'
	| 'missing_webhook_id'
	| 'missing_webhook_timestamp'
	| 'missing_signature'
	| 'malformed_signature'
	| 'mismatch'
	| 'stale_timestamp'
	| 'future_timestamp';

export type StandardResult = { ok: true; id: string } | { ok: false; reason: StandardFailure };

export interface StandardInput extends SignedAtWindow {
	rawBody: Buffer | undefined;
	/** Every request header, names in lower case (as Node gives them). */
	headers: Record<string, string | string[] | undefined>;
	/** Keys already decoded (standardSecretKey). */
	keys: readonly Buffer[];
}

/** The HMAC key of a secret: the base64 after `whsec_` (the prefix is optional); undefined when not base64. */
export function standardSecretKey(secret: string): Buffer | undefined {
	const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
	if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return undefined;
	const key = Buffer.from(encoded, 'base64');
	return key.length > 0 ? key : undefined;
}

/** `v1,<base64>` of the content signed for this id, timestamp and body. */
export function standardSignature(
	key: Buffer,
	id: string,
	timestamp: string,
	rawBody: Buffer,
): string {
	const digest = createHmac('sha256', key)
		.update(`${id}.${timestamp}.`, 'utf8')
		.update(rawBody)
		.digest('base64');
	return `v1,${digest}`;
}

function single(value: string | string[] | undefined): string {
	return (Array.isArray(value) ? value.join(' ') : (value ?? '')).trim();
}

/** Checks the three headers; on success gives the `webhook-id`. */
export function verifyStandardWebhook(input: StandardInput): StandardResult {
	if (!Buffer.isBuffer(input.rawBody)) return { ok: false, reason: 'missing_raw_body' };
	const id = single(input.headers[STANDARD_HEADERS.id]);
	const timestamp = single(input.headers[STANDARD_HEADERS.timestamp]);
	const header = single(input.headers[STANDARD_HEADERS.signature]);
	if (id === '') return { ok: false, reason: 'missing_webhook_id' };
	if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'missing_webhook_timestamp' };
	if (header === '') return { ok: false, reason: 'missing_signature' };

	const outside = outsideWindow(timestamp, input);
	if (outside) return { ok: false, reason: outside };

	// Entries of other versions (v1a, v2: other algorithms) are skipped, not refused.
	const candidates = header
		.split(/\s+/)
		.filter((entry) => entry.startsWith('v1,'))
		.map((entry) => entry.slice(3));
	if (!candidates.some((c) => BASE64.test(c))) return { ok: false, reason: 'malformed_signature' };

	const expected = input.keys.map((key) =>
		standardSignature(key, id, timestamp, input.rawBody as Buffer).slice(3),
	);
	let matched = false;
	for (const candidate of candidates) {
		for (const digest of expected) matched = constantTimeEqual(candidate, digest) || matched;
	}
	return matched ? { ok: true, id } : { ok: false, reason: 'mismatch' };
}

export const STANDARD_WEBHOOKS_SCHEME: SignatureSchemeRule = {
	verify: (input, secrets) => {
		const keys = secrets.map(standardSecretKey);
		if (keys.some((key) => key === undefined)) return { ok: false, reason: 'secret_not_base64' };
		const result = verifyStandardWebhook({
			...input,
			headers: input.headers ?? {},
			keys: keys as Buffer[],
		});
		return result.ok ? { ok: true, eventId: result.id } : result;
	},
	seenIn: (headers) => headers[STANDARD_HEADERS.signature] !== undefined,
	where: () => 'webhook-* headers',
};
