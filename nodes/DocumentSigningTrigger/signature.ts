/**
 * Webhook signature verification: the scheme the trigger is set to (scheme.ts names them)
 * checks the delivery against the webhook secret. Pure functions over bytes and strings.
 */
import { BODY_SCHEME, TIMESTAMPED_SCHEME } from './hmacSchemes';
import {
	type Headers,
	type SignatureFailure,
	type SignatureScheme,
	type SignatureSchemeRule,
	type VerifyInput,
	type VerifyResult,
} from './scheme';
import { STANDARD_HEADERS, STANDARD_WEBHOOKS_SCHEME } from './standardWebhooks';

/** Each scheme by the name users pick. */
const SCHEMES: Record<SignatureScheme, SignatureSchemeRule> = {
	body: BODY_SCHEME,
	timestamped: TIMESTAMPED_SCHEME,
	standardWebhooks: STANDARD_WEBHOOKS_SCHEME,
};

/** Which scheme a refusal suggests first when the headers fit more than one. */
const SUGGESTED_FIRST: readonly SignatureScheme[] = ['standardWebhooks', 'timestamped', 'body'];

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
	headers: Headers,
	headerName: string,
): SignatureScheme | undefined {
	return SUGGESTED_FIRST.find(
		(other) => other !== scheme && SCHEMES[other].seenIn(headers, headerName),
	);
}

/** Where a refusal under `scheme` says it looked. */
export function schemeLooksAt(
	scheme: SignatureScheme,
	headerName: string,
	algorithm: string,
	encoding: string,
): string {
	return SCHEMES[scheme].where(headerName, algorithm, encoding);
}

/** Checks a delivery with its scheme (the body HMAC when none is set) against every non-empty secret. */
export function verifySignature(input: VerifyInput): VerifyResult {
	const secrets = (typeof input.secret === 'string' ? [input.secret] : [...input.secret]).filter(
		(s) => s !== '',
	);
	if (secrets.length === 0) return { ok: false, reason: 'no_secret' };
	if (!Buffer.isBuffer(input.rawBody)) return { ok: false, reason: 'missing_raw_body' };
	return SCHEMES[input.scheme ?? 'body'].verify(input, secrets);
}
