/**
 * What the trigger does with one delivery, decided without n8n: refuse it (with the status,
 * code and the reason for n8n's log), acknowledge it without starting (an unselected or old
 * event), or start a run with its event. A plain function of the delivery, the settings, the
 * secret and the time; the node file reads the parameters and turns the verdict into n8n's
 * answer, and the memory of event ids (memory.ts) decides repeats after it.
 */
import type { IDataObject } from 'n8n-workflow';

import { REPLAY_WINDOW_MINUTES, WEBHOOK_SIGNATURE } from '../shared/api/assumptions';
import {
	checkBounds,
	DEFAULT_LIMITS,
	DEFAULT_MAX_CLOCK_SKEW_MINUTES,
	eventChosen,
	numberOption,
	parseEvent,
	type WebhookEvent,
} from './delivery';
import {
	DEFAULT_SIGNATURE_ALGORITHM,
	DEFAULT_SIGNATURE_ENCODING,
	DEFAULT_SIGNATURE_SCHEME,
	isSignatureAlgorithm,
	isSignatureEncoding,
	isSignatureScheme,
	SIGNATURE_SCHEME_NAMES,
} from './scheme';
import {
	schemeHeadersSuggest,
	schemeLooksAt,
	SIGNATURE_FAILURE_TEXT,
	verifySignature,
} from './signature';

export const UNSIGNED_REFUSED =
	'This trigger has no webhook secret to verify deliveries with: set the webhook secret of the dashboard in the credential (or turn on Accept Unsigned Deliveries in the trigger)';

export interface Delivery {
	/** The body exactly as received, when n8n kept it. */
	rawBody: Buffer | undefined;
	/** The bytes to parse: the raw body, or the parsed body written out again. */
	bytes: Buffer;
	headers: Record<string, string | string[] | undefined>;
}

export interface DeliverySettings {
	options: IDataObject;
	events: string[];
	acceptUnsigned: boolean;
}

export type Verdict =
	| { action: 'refuse'; status: number; code: string; message: string; logReason: string }
	| { action: 'ignore'; level: 'warn' | 'debug'; reason: string; id: string }
	/** Not a kind the trigger was set to start on; the node says which option would take it. */
	| { action: 'unselected'; id: string; kind: string }
	| {
			action: 'start';
			event: WebhookEvent;
			/** The id the memory keys on: the signed id (Standard Webhooks) or the event's. */
			eventId: string;
			createdAtMs: number;
			/** Events created before this are past Max Event Age (and forgotten by the memory). */
			forgetBeforeMs: number;
			verified: boolean;
	  };

const refusal = (status: number, code: string, message: string, logReason = message): Verdict => ({
	action: 'refuse',
	status,
	code,
	message,
	logReason,
});

/** The verdict on one delivery at `nowMs`; `secret` is empty when the credential has none. */
export function judgeDelivery(
	delivery: Delivery,
	settings: DeliverySettings,
	secret: string,
	nowMs: number,
): Verdict {
	const { options } = settings;
	if (secret === '' && !settings.acceptUnsigned)
		return refusal(401, 'WEBHOOK_SECRET_MISSING', UNSIGNED_REFUSED);
	const bounds = checkBounds(delivery.bytes, {
		maxBytes: Math.round(numberOption(options.maxBodyKb, DEFAULT_LIMITS.maxBytes / 1024) * 1024),
		maxDataDepth: numberOption(options.maxDataDepth, DEFAULT_LIMITS.maxDataDepth),
	});
	if (!bounds.ok) return refusal(bounds.status, bounds.code, bounds.message);

	const maxAgeMinutes = numberOption(options.maxEventAgeMinutes, REPLAY_WINDOW_MINUTES);
	const maxSkewMinutes = numberOption(options.maxClockSkewMinutes, DEFAULT_MAX_CLOCK_SKEW_MINUTES);
	const signed =
		secret === ''
			? { signedId: undefined }
			: checkSignature(delivery, options, secret, nowMs, { maxAgeMinutes, maxSkewMinutes });
	if ('action' in signed) return signed;

	const parsed = parseEvent(delivery.bytes);
	if (!parsed.ok) return refusal(400, 'INVALID_PAYLOAD', parsed.message);
	const { event } = parsed;
	if (!eventChosen(settings.events, event.event))
		return { action: 'unselected', id: event.id, kind: event.event };

	const createdAtMs = Date.parse(event.createdAt);
	const forgetBeforeMs = maxAgeMinutes > 0 ? nowMs - maxAgeMinutes * 60_000 : -Infinity;
	if (createdAtMs < forgetBeforeMs)
		return {
			action: 'ignore',
			level: 'debug',
			reason: 'event older than Max Event Age',
			id: event.id,
		};
	if (maxSkewMinutes > 0 && createdAtMs > nowMs + maxSkewMinutes * 60_000)
		return {
			action: 'ignore',
			level: 'warn',
			reason: 'event dated further ahead than Max Clock Skew',
			id: event.id,
		};
	return {
		action: 'start',
		event,
		eventId: signed.signedId ?? event.id,
		createdAtMs,
		forgetBeforeMs,
		verified: secret !== '',
	};
}

/** The signature's verdict: a refusal, or the id it signs (Standard Webhooks), if any. */
function checkSignature(
	delivery: Delivery,
	options: IDataObject,
	secret: string,
	nowMs: number,
	window: { maxAgeMinutes: number; maxSkewMinutes: number },
): Verdict | { signedId: string | undefined } {
	const algorithm = options.algorithm ?? DEFAULT_SIGNATURE_ALGORITHM;
	const encoding = options.encoding ?? DEFAULT_SIGNATURE_ENCODING;
	const scheme = options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME;
	if (
		!isSignatureAlgorithm(algorithm) ||
		!isSignatureEncoding(encoding) ||
		!isSignatureScheme(scheme)
	)
		return refusal(
			500,
			'CONFIGURATION_ERROR',
			'Unsupported signature algorithm, encoding or scheme',
		);
	const headerName = (
		(typeof options.signatureHeader === 'string' && options.signatureHeader) ||
		WEBHOOK_SIGNATURE.header
	).toLowerCase();
	const result = verifySignature({
		// Only the bytes received can be verified; a parsed body is never serialised again.
		rawBody: delivery.rawBody,
		header: delivery.headers[headerName],
		headers: delivery.headers,
		secret,
		algorithm,
		encoding,
		scheme,
		nowMs,
		maxAgeMs: window.maxAgeMinutes * 60_000,
		maxSkewMs: window.maxSkewMinutes * 60_000,
	});
	if (result.ok) return { signedId: result.eventId };
	if (result.reason === 'secret_not_base64')
		return refusal(500, 'CONFIGURATION_ERROR', SIGNATURE_FAILURE_TEXT[result.reason]);
	const where = schemeLooksAt(scheme, headerName, algorithm, encoding);
	const suggested = schemeHeadersSuggest(scheme, delivery.headers, headerName);
	const hint = suggested
		? `; the headers look signed with the ${SIGNATURE_SCHEME_NAMES[suggested]} scheme (option Signature Scheme)`
		: '';
	const why = `${SIGNATURE_FAILURE_TEXT[result.reason]} (${SIGNATURE_SCHEME_NAMES[scheme]} scheme, ${where})${hint}`;
	return refusal(401, 'INVALID_SIGNATURE', 'Signature missing or invalid', why);
}
