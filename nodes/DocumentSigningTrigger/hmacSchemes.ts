/**
 * The two HMAC schemes of the service (assumptions.ts WEBHOOK_SIGNATURE: SHA-256, hex, in
 * `X-Service-Signature` by default): `body`, an HMAC of the raw request body; `timestamped`,
 * an HMAC of `<t>.<raw body>` with the header `t=<unix seconds>,v1=<signature>` and `t` inside
 * the replay window.
 *
 * The body must be the exact bytes received: JSON that was parsed and serialised again differs
 * in spacing, key order or escaping, and its HMAC no longer matches.
 */
import { createHmac } from 'crypto';

import {
	constantTimeEqual,
	DEFAULT_SIGNATURE_ALGORITHM,
	DEFAULT_SIGNATURE_ENCODING,
	type SignatureAlgorithm,
	type SignatureEncoding,
	type SignatureFailure,
	type SignatureSchemeRule,
	type VerifyInput,
	type VerifyResult,
} from './scheme';
import { outsideWindow } from './signedAt';

/**
 * Names a signature may be prefixed with: an algorithm (`sha256=<digest>`), which must be
 * the configured one, or a scheme version (`v1=<digest>`), which stands for it.
 */
const PREFIX_NAMES = new Set(['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'v1']);
const VERSION_PREFIX = 'v1';

const HEX = /^[0-9a-f]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

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
 * Checks the signature header against the HMAC of the raw body (after `<t>.` when timestamped).
 * Every candidate is compared with every secret (no early exit), so the time taken does not
 * reveal which one matched.
 */
function verifyHmac(
	input: VerifyInput,
	secrets: readonly string[],
	timestamped: boolean,
): VerifyResult {
	const algorithm = input.algorithm ?? DEFAULT_SIGNATURE_ALGORITHM;
	const encoding = input.encoding ?? DEFAULT_SIGNATURE_ENCODING;
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

const whereHmac = (headerName: string, algorithm: string, encoding: string) =>
	`header ${headerName}, ${algorithm}, ${encoding}`;

export const BODY_SCHEME: SignatureSchemeRule = {
	verify: (input, secrets) => verifyHmac(input, secrets, false),
	// Any signature header can be an HMAC of the body: nothing in it points here.
	seenIn: () => false,
	where: whereHmac,
};

export const TIMESTAMPED_SCHEME: SignatureSchemeRule = {
	verify: (input, secrets) => verifyHmac(input, secrets, true),
	seenIn: (headers, headerName) => headerTimestamp(headers[headerName]) !== undefined,
	where: whereHmac,
};
