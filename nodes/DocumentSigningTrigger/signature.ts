/**
 * Webhook signature verification: an HMAC of the raw request body with the webhook secret
 * (assumptions.ts WEBHOOK_SIGNATURE: SHA-256, hex, in `X-Service-Signature` by default).
 *
 * Pure functions over bytes and strings, so they can be tested on their own. The body must
 * be the exact bytes received: JSON that was parsed and serialised again differs in spacing,
 * key order or escaping, and its HMAC no longer matches.
 */
import { createHmac, timingSafeEqual } from 'crypto';

import { WEBHOOK_SIGNATURE } from '../shared/assumptions';

export const SIGNATURE_ALGORITHMS = ['sha256', 'sha512', 'sha1'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
export type SignatureEncoding = (typeof SIGNATURE_ENCODINGS)[number];

export const DEFAULT_SIGNATURE_ALGORITHM: SignatureAlgorithm = WEBHOOK_SIGNATURE.algorithm;
export const DEFAULT_SIGNATURE_ENCODING: SignatureEncoding = WEBHOOK_SIGNATURE.encoding;

/** Why a delivery was refused. None of these carries the secret or the signature. */
export type SignatureFailure =
	| 'missing_raw_body'
	| 'missing_signature'
	| 'malformed_signature'
	| 'algorithm_mismatch'
	| 'mismatch'
	| 'no_secret';

export type VerifyResult = { ok: true } | { ok: false; reason: SignatureFailure };

export interface VerifyInput {
	/** The request body exactly as received. */
	rawBody: Buffer | undefined;
	/** Value(s) of the signature header. */
	header: string | string[] | undefined;
	/** The webhook secret; several while a secret is being rotated. */
	secret: string | readonly string[];
	algorithm?: SignatureAlgorithm;
	encoding?: SignatureEncoding;
}

/** Names a signature may be prefixed with (`sha256=<digest>`); any other prefix is not one. */
const PREFIX_NAMES = new Set(['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']);

const HEX = /^[0-9a-f]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function isSignatureAlgorithm(value: unknown): value is SignatureAlgorithm {
	return typeof value === 'string' && (SIGNATURE_ALGORITHMS as readonly string[]).includes(value);
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
): string {
	return createHmac(algorithm, secret).update(rawBody).digest(encoding);
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

/** Hex is case-insensitive; base64 is compared as sent. Undefined when not of that encoding. */
function normalise(value: string, encoding: SignatureEncoding): string | undefined {
	if (encoding === 'hex') {
		const lower = value.toLowerCase();
		return HEX.test(lower) && lower.length % 2 === 0 ? lower : undefined;
	}
	return BASE64.test(value) && value.length % 4 === 0 ? value : undefined;
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

	const candidates = parseSignatureHeader(input.header);
	if (candidates.length === 0) return { ok: false, reason: 'missing_signature' };

	const expected = secrets.map((secret) => computeSignature(input.rawBody as Buffer, secret, algorithm, encoding));

	let matched = false;
	let sawWellFormed = false;
	let sawOtherAlgorithm = false;
	for (const candidate of candidates) {
		if (candidate.prefix !== undefined && candidate.prefix !== algorithm) {
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
