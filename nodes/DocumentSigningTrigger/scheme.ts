/**
 * The vocabulary of webhook signatures: the algorithms, encodings and schemes a user can pick,
 * why a delivery is refused, and what one scheme is (SignatureSchemeRule). Each scheme lives in
 * its own file (hmacSchemes.ts, standardWebhooks.ts); signature.ts picks one per delivery.
 */
import { timingSafeEqual } from 'crypto';

import { WEBHOOK_SIGNATURE } from '../shared/api/assumptions';
import type { SignedAtWindow } from './signedAt';

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
	| 'missing_webhook_id'
	| 'missing_webhook_timestamp'
	| 'secret_not_base64';

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
	headers?: Headers;
}

export type Headers = Record<string, string | string[] | undefined>;

/**
 * One way a delivery can be signed. A new scheme is a file exporting one of these, its name in
 * SIGNATURE_SCHEMES and SIGNATURE_SCHEME_NAMES, and its line in signature.ts SCHEMES.
 */
export interface SignatureSchemeRule {
	/** Checks the delivery against every secret (non-empty; several while one is rotated). */
	verify(input: VerifyInput, secrets: readonly string[]): VerifyResult;
	/** Whether the headers look signed this way: a refusal under another scheme suggests it. */
	seenIn(headers: Headers, headerName: string): boolean;
	/** Where a refusal says it looked (headers, algorithm, encoding), for the log. */
	where(headerName: string, algorithm: string, encoding: string): string;
}

export function isSignatureAlgorithm(value: unknown): value is SignatureAlgorithm {
	return typeof value === 'string' && (SIGNATURE_ALGORITHMS as readonly string[]).includes(value);
}

export function isSignatureScheme(value: unknown): value is SignatureScheme {
	return typeof value === 'string' && (SIGNATURE_SCHEMES as readonly string[]).includes(value);
}

export function isSignatureEncoding(value: unknown): value is SignatureEncoding {
	return typeof value === 'string' && (SIGNATURE_ENCODINGS as readonly string[]).includes(value);
}

/**
 * Constant-time comparison of two ASCII strings. The expected length is public (it follows
 * from the algorithm and encoding), but a candidate of another length is still compared
 * against a buffer of the expected length, so every candidate costs the same.
 */
export function constantTimeEqual(candidate: string, expected: string): boolean {
	const expectedBuf = Buffer.from(expected, 'ascii');
	const candidateBuf = Buffer.from(candidate, 'ascii');
	const sameLength = candidateBuf.length === expectedBuf.length;
	const compared = sameLength ? candidateBuf : Buffer.alloc(expectedBuf.length);
	return timingSafeEqual(compared, expectedBuf) && sameLength;
}
