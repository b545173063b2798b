/**
 * Webhook signature verification: an HMAC of the raw request body with the webhook secret
 * (assumptions.ts WEBHOOK_SIGNATURE: SHA-256, hex, in `X-Service-Signature` by default),
 * or of `<t>.<raw body>` in the timestamped scheme (`t=<unix seconds>,v1=<signature>`).
 *
 * Pure functions over bytes and strings, so they can be tested on their own. The body must
 * be the exact bytes received: JSON that was parsed and serialised again differs in spacing,
 * key order or escaping, and its HMAC no longer matches.
 */
import { createHmac, timingSafeEqual } from 'crypto';

import { WEBHOOK_SIGNATURE } from '../shared/api/assumptions';
import { outsideWindow, type SignedAtWindow } from './signedAt';
import {
	STANDARD_HEADERS,
	standardSecretKey,
	type StandardFailure,
	verifyStandardWebhook,
} from './standardWebhooks';

export const SIGNATURE_ALGORITHMS = ['sha256', 'sha512', 'sha1'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

export const SIGNATURE_ENCODINGS = ['hex', 'base64', 'base64url'] as const;
export type SignatureEncoding = (typeof SIGNATURE_ENCODINGS)[number];

export const DEFAULT_SIGNATURE_ALGORITHM: SignatureAlgorithm = WEBHOOK_SIGNATURE.algorithm;
export const DEFAULT_SIGNATURE_ENCODING: SignatureEncoding = WEBHOOK_SIGNATURE.encoding;

/**
 * What is signed: `body`, the raw body (the default); `timestamped`, `<t>.<raw body>` with
 * the header `t=<unix seconds>,v1=<signature>` and `t` inside the replay window;
 * `standardWebhooks`, Standard Webhooks (standardWebhooks.ts: its own headers, SHA-256, base64).
 */
export const SIGNATURE_SCHEMES = ['body', 'timestamped', 'standardWebhooks'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'body';
/** The schemes as the Signature Scheme option names them, for log lines. */
export const SIGNATURE_SCHEME_NAMES: Record<SignatureScheme, string> = {
	body: 'HMAC of the Body',
	timestamped: 'Timestamped',
	standardWebhooks: 'Standard Webhooks',
};

/** Why a delivery was refused. None of these carries the secret or the signature. */
export type SignatureFailure =
	| 'missing_raw_body'
	| 'missing_signature'
	| 'malformed_signature'
	| 'algorithm_mismatch'
	| 'mismatch'
	| 'no_secret'
	| 'missing_timestamp'
	| 'stale_timestamp'
	| 'future_timestamp'
	| StandardFailure
	| 'secret_not_base64';

/** A sentence per failure, for the log. None names the secret or the signature. */
export const SIGNATURE_FAILURE_TEXT: Record<SignatureFailure, string> = {
	missing_raw_body: 'the raw request body was not available to verify',
	missing_signature: 'the signature header is missing or empty',
	malformed_signature: 'the signature header holds no signature of the configured encoding',
	algorithm_mismatch: 'the signature names another algorithm than the configured one',
	mismatch: 'the signature does not match the body (another secret, or the body was changed)',
	no_secret: 'the credential has no webhook secret',
	missing_timestamp: 'the timestamped scheme needs t=<unix seconds> in the signature header',
	stale_timestamp: 'the signed timestamp is older than Max Event Age',
	future_timestamp: 'the signed timestamp is further ahead than Max Clock Skew',
	missing_webhook_id: `Standard Webhooks needs the ${STANDARD_HEADERS.id} header`,
	missing_webhook_timestamp: `Standard Webhooks needs unix seconds in the ${STANDARD_HEADERS.timestamp} header`,
	secret_not_base64: 'Standard Webhooks needs a base64 webhook secret (whsec_ followed by base64)',
};

/**
 * The scheme a delivery's headers look signed with, when it is not the configured one, so a
 * refusal can say which scheme to choose. Undefined when nothing points elsewhere.
 */
export function schemeHeadersSuggest(
	scheme: SignatureScheme,
	headers: Record<string, string | string[] | undefined>,
	headerName: string,
): SignatureScheme | undefined {
	if (scheme !== 'standardWebhooks' && headers[STANDARD_HEADERS.signature] !== undefined)
		return 'standardWebhooks';
	if (scheme === 'body' && headerTimestamp(headers[headerName]) !== undefined) return 'timestamped';
	return undefined;
}

/** `eventId`: the id the scheme signs (Standard Webhooks' `webhook-id`), if any. */
export type VerifyResult = { ok: true; eventId?: string } | { ok: false; reason: SignatureFailure };

export interface VerifyInput extends SignedAtWindow {
	/** The request body exactly as received. */
	rawBody: Buffer | undefined;
	/** Value(s) of the signature header. */
	header: string | string[] | undefined;
	/** The webhook secret; several while a secret is being rotated. */
	secret: string | readonly string[];
	algorithm?: SignatureAlgorithm;
	encoding?: SignatureEncoding;
	scheme?: SignatureScheme;
	/** Every request header (lower-case names): the Standard Webhooks scheme reads its own three. */
	headers?: Record<string, string | string[] | undefined>;
}

/**
 * Names a signature may be prefixed with: an algorithm (`sha256=<digest>`), which must be
 * the configured one, or a scheme version (`v1=<digest>`), which stands for it.
 */
const PREFIX_NAMES = new Set(['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'v1']);
const VERSION_PREFIX = 'v1';

const HEX = /^[0-9a-f]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function isSignatureAlgorithm(value: unknown): value is SignatureAlgorithm {
	return typeof value === 'string' && (SIGNATURE_ALGORITHMS as readonly string[]).includes(value);
}

export function isSignatureScheme(value: unknown): value is SignatureScheme {
	return typeof value === 'string' && (SIGNATURE_SCHEMES as readonly string[]).includes(value);
}

export function isSignatureEncoding(value: unknown): value is SignatureEncoding {
	return typeof value === 'string' && (SIGNATURE_ENCODINGS as readonly string[]).includes(value);
}

/** The signature the service sends for `rawBody`. */
export function computeSignature(
	rawBody: Buffer,
	secret: string,
	algorithm: SignatureAlgorithm = DEFAULT_SIGNATURE_ALGORITHM,
	encoding: SignatureEncoding = DEFAULT_SIGNATURE_ENCODING,
	timestamp?: string,
): string {
	const hmac = createHmac(algorithm, secret);
	if (timestamp !== undefined) hmac.update(`${timestamp}.`, 'utf8');
	return hmac.update(rawBody).digest(encoding);
}

interface Candidate {
	prefix?: string;
	value: string;
}

/**
 * Splits a header into candidate signatures: comma-separated values (the service may sign
 * with an old and a new secret during rotation), each optionally `<algorithm>=`-prefixed.
 */
export function parseSignatureHeader(header: string | string[] | undefined): Candidate[] {
	const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
	const candidates: Candidate[] = [];
	for (const part of joined.split(',')) {
		const trimmed = part.trim();
		if (trimmed === '') continue;
		const eq = trimmed.indexOf('=');
		const name = eq > 0 ? trimmed.slice(0, eq).toLowerCase() : '';
		if (PREFIX_NAMES.has(name)) {
			candidates.push({ prefix: name, value: trimmed.slice(eq + 1).trim() });
		} else {
			candidates.push({ value: trimmed });
		}
	}
	return candidates;
}

/**
 * Hex is case-insensitive; base64 is compared as sent; base64url without its optional
 * padding. Undefined when not of that encoding.
 */
function normalise(value: string, encoding: SignatureEncoding): string | undefined {
	if (encoding === 'hex') {
		const lower = value.toLowerCase();
		return HEX.test(lower) && lower.length % 2 === 0 ? lower : undefined;
	}
	if (encoding === 'base64url') {
		const bare = value.replace(/={1,2}$/, '');
		return BASE64URL.test(bare) ? bare : undefined;
	}
	return BASE64.test(value) && value.length % 4 === 0 ? value : undefined;
}

/** The `t=` value of a timestamped header: whole unix seconds, or undefined. */
export function headerTimestamp(header: string | string[] | undefined): string | undefined {
	const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
	for (const part of joined.split(',')) {
		const match = /^\s*t\s*=\s*(\d{1,12})\s*$/.exec(part);
		if (match) return match[1];
	}
	return undefined;
}

type WindowResult = { ok: true; timestamp: string } | { ok: false; reason: SignatureFailure };

function timestampInWindow(input: VerifyInput): WindowResult {
	const timestamp = headerTimestamp(input.header);
	if (timestamp === undefined) return { ok: false, reason: 'missing_timestamp' };
	const outside = outsideWindow(timestamp, input);
	return outside ? { ok: false, reason: outside } : { ok: true, timestamp };
}

/**
 * Constant-time comparison of two ASCII strings. The expected length is public (it follows
 * from the algorithm and encoding), but a candidate of another length is still compared
 * against a buffer of the expected length, so every candidate costs the same.
 */
function constantTimeEqual(candidate: string, expected: string): boolean {
	const expectedBuf = Buffer.from(expected, 'ascii');
	const candidateBuf = Buffer.from(candidate, 'ascii');
	const sameLength = candidateBuf.length === expectedBuf.length;
	const compared = sameLength ? candidateBuf : Buffer.alloc(expectedBuf.length);
	return timingSafeEqual(compared, expectedBuf) && sameLength;
}

/**
 * Checks the signature header against the HMAC of the raw body. Every candidate is compared
 * with every secret (no early exit), so the time taken does not reveal which one matched.
 */
export function verifySignature(input: VerifyInput): VerifyResult {
	const algorithm = input.algorithm ?? DEFAULT_SIGNATURE_ALGORITHM;
	const encoding = input.encoding ?? DEFAULT_SIGNATURE_ENCODING;
	const secrets = (typeof input.secret === 'string' ? [input.secret] : [...input.secret]).filter(
		(s) => s !== '',
	);
	if (secrets.length === 0) return { ok: false, reason: 'no_secret' };
	if (!Buffer.isBuffer(input.rawBody)) return { ok: false, reason: 'missing_raw_body' };
	if (input.scheme === 'standardWebhooks') {
		const keys = secrets.map(standardSecretKey);
		if (keys.some((key) => key === undefined)) return { ok: false, reason: 'secret_not_base64' };
		const result = verifyStandardWebhook({
			...input,
			headers: input.headers ?? {},
			keys: keys as Buffer[],
		});
		return result.ok ? { ok: true, eventId: result.id } : result;
	}

	const timestamped = input.scheme === 'timestamped';
	// The timestamp part is not a signature; in the timestamped scheme it is what is signed.
	const candidates = parseSignatureHeader(input.header).filter((c) => !/^t\s*=/.test(c.value));
	if (candidates.length === 0) return { ok: false, reason: 'missing_signature' };
	let timestamp: string | undefined;
	if (timestamped) {
		const window = timestampInWindow(input);
		if (!window.ok) return window;
		timestamp = window.timestamp;
	}

	// Node writes base64url without padding, as normalise() reads it.
	const expected = secrets.map((secret) =>
		computeSignature(input.rawBody as Buffer, secret, algorithm, encoding, timestamp),
	);

	let matched = false;
	let sawWellFormed = false;
	let sawOtherAlgorithm = false;
	for (const candidate of candidates) {
		if (
			candidate.prefix !== undefined &&
			candidate.prefix !== algorithm &&
			candidate.prefix !== VERSION_PREFIX
		) {
			sawOtherAlgorithm = true;
			continue;
		}
		const value = normalise(candidate.value, encoding);
		if (value === undefined) continue;
		sawWellFormed = true;
		for (const digest of expected) {
			// Compare first, then combine: the loop goes on after a match.
			matched = constantTimeEqual(value, digest) || matched;
		}
	}

	if (matched) return { ok: true };
	if (sawWellFormed) return { ok: false, reason: 'mismatch' };
	return { ok: false, reason: sawOtherAlgorithm ? 'algorithm_mismatch' : 'malformed_signature' };
}
