/**
 * What the trigger does with a delivery once its signature is settled: read the event from
 * the body and remember recently seen event ids. Plain functions, no n8n types beyond data.
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * Event kinds of the API (spec part 6). `action` is what the node creator lists; without it
 * n8n derives "On e stamp started" from the name.
 */
export const WEBHOOK_EVENTS = [
	{
		name: 'E-Stamp Started',
		value: 'document.estamp.started',
		action: 'On e-stamp started',
		description: 'The provider accepted the e-stamp purchase',
	},
	{
		name: 'E-Stamp Completed',
		value: 'document.estamp.completed',
		action: 'On e-stamp completed',
		description: 'The stamped PDF was verified and attached',
	},
	{
		name: 'E-Stamp Failed',
		value: 'document.estamp.failed',
		action: 'On e-stamp failed',
		description: 'The e-stamp reached a terminal failure',
	},
	{
		name: 'Document Sent',
		value: 'document.sent',
		action: 'On document sent',
		description: 'The envelope was sent to its recipients',
	},
] as const;

export const WEBHOOK_EVENT_VALUES: string[] = WEBHOOK_EVENTS.map((e) => e.value);

/**
 * The choice that starts on kinds beyond the four (the specification says others exist,
 * e.g. for recipient signing, without naming them): without it such an event would be
 * acknowledged and lost.
 */
export const OTHER_EVENTS = {
	name: 'Any Other Event',
	value: 'otherEvents',
	action: 'On any other event',
	description:
		'Event kinds beyond the four above (such as recipient signing events), output as delivered',
} as const;

/** Whether the chosen events (values, or kinds typed in an expression) take `kind`. */
export function eventChosen(chosen: string[], kind: string): boolean {
	if (chosen.includes(kind)) return true;
	return chosen.includes(OTHER_EVENTS.value) && !WEBHOOK_EVENT_VALUES.includes(kind);
}

/** Kinds already reported per trigger (workflow and node), this process; bounded per trigger. */
const reportedKinds = new Map<string, Set<string>>();
const REPORTED_KINDS_LIMIT = 100;

/**
 * Whether this is the first delivery of an unselected kind for this trigger in this process
 * (it is then logged at warn with the option that would take it; later ones at debug).
 */
export function firstUnselected(triggerKey: string, kind: string): boolean {
	const kinds = reportedKinds.get(triggerKey) ?? new Set<string>();
	if (kinds.has(kind) || kinds.size >= REPORTED_KINDS_LIMIT) return false;
	kinds.add(kind);
	reportedKinds.set(triggerKey, kinds);
	return true;
}

/** An event as the service delivers it: `id`, `event`, `createdAt`, `data`. */
export interface WebhookEvent {
	id: string;
	event: string;
	createdAt: string;
	data: IDataObject;
	/** The whole body, fields beyond the four included. */
	body: IDataObject;
}

export type ParseResult = { ok: true; event: WebhookEvent } | { ok: false; message: string };

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks that a parsed body is an event; the message names the field and the rule. */
export function toEvent(body: unknown): ParseResult {
	if (!isObject(body))
		return { ok: false, message: 'Body is not an event: expected a JSON object' };
	for (const field of ['id', 'event', 'createdAt'] as const) {
		const value = body[field];
		if (typeof value !== 'string' || value.trim() === '') {
			return { ok: false, message: `Body is not an event: "${field}" must be a non-empty string` };
		}
	}
	if (Number.isNaN(Date.parse(body.createdAt as string))) {
		return { ok: false, message: 'Body is not an event: "createdAt" must be a timestamp' };
	}
	if (!isObject(body.data)) {
		return { ok: false, message: 'Body is not an event: "data" must be an object' };
	}
	return {
		ok: true,
		event: {
			id: body.id as string,
			event: body.event as string,
			createdAt: body.createdAt as string,
			data: body.data,
			body,
		},
	};
}

/** Parses the received bytes (a leading UTF-8 byte order mark allowed) as JSON, then as an event. */
export function parseEvent(rawBody: Buffer): ParseResult {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, ''));
	} catch {
		return { ok: false, message: 'Body is not valid JSON' };
	}
	return toEvent(body);
}

/**
 * The deepest nesting of objects and arrays in JSON text, read without parsing it (so a
 * hostile depth costs one pass over the bytes and no recursion). Brackets inside strings
 * do not count.
 */
export function jsonDepth(text: Buffer): number {
	let depth = 0;
	let max = 0;
	let inString = false;
	for (let n = 0; n < text.length; n++) {
		const byte = text[n];
		if (inString) {
			if (byte === 0x5c)
				n++; // backslash: skip the escaped character
			else if (byte === 0x22) inString = false;
		} else if (byte === 0x22) inString = true;
		else if (byte === 0x7b || byte === 0x5b) max = Math.max(max, ++depth);
		else if (byte === 0x7d || byte === 0x5d) depth--;
	}
	return max;
}

/** Limits on what a delivery may hold, checked before anything is parsed or stored. */
export interface DeliveryLimits {
	maxBytes: number;
	/** Deepest nesting allowed inside `data` (the event itself is one level). */
	maxDataDepth: number;
}

export const DEFAULT_MAX_BODY_KB = 256;
export const DEFAULT_MAX_DATA_DEPTH = 32;
/** How far ahead of this machine's clock an event may be dated. */
export const DEFAULT_MAX_CLOCK_SKEW_MINUTES = 5;
export const DEFAULT_LIMITS: DeliveryLimits = {
	maxBytes: DEFAULT_MAX_BODY_KB * 1024,
	maxDataDepth: DEFAULT_MAX_DATA_DEPTH,
};

export type BoundsResult =
	| { ok: true }
	| { ok: false; status: 413 | 400; code: string; message: string };

export function checkBounds(rawBody: Buffer, limits: DeliveryLimits): BoundsResult {
	if (rawBody.length > limits.maxBytes) {
		return {
			ok: false,
			status: 413,
			code: 'PAYLOAD_TOO_LARGE',
			message: `Body is ${rawBody.length} bytes, more than the trigger's limit of ${limits.maxBytes} bytes (option Max Body Size)`,
		};
	}
	// The event object is level 1 and `data` level 2, so `data`'s own nesting is depth - 1.
	const dataDepth = jsonDepth(rawBody) - 1;
	if (dataDepth > limits.maxDataDepth) {
		return {
			ok: false,
			status: 400,
			code: 'PAYLOAD_TOO_DEEP',
			message: `Body nests ${dataDepth} levels deep, more than the trigger's limit of ${limits.maxDataDepth} (option Max Nesting Depth)`,
		};
	}
	return { ok: true };
}

/** The body's bytes: as received, or (no raw body kept) the text n8n parsed it from. */
export function bodyBytes(rawBody: unknown, body: unknown): Buffer {
	if (Buffer.isBuffer(rawBody)) return rawBody;
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	return Buffer.from(JSON.stringify(body ?? null), 'utf8');
}

/** A number option as set, or its default when unset or not a number of 0 or more. */
export function numberOption(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}
