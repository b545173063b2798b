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

/** An event as the service delivers it: `id`, `event`, `createdAt`, `data`. */
export interface WebhookEvent {
	id: string;
	event: string;
	createdAt: string;
	data: IDataObject;
}

export type ParseResult = { ok: true; event: WebhookEvent } | { ok: false; message: string };

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks that a parsed body is an event; the message names the field and the rule. */
export function toEvent(body: unknown): ParseResult {
	if (!isObject(body)) return { ok: false, message: 'Body is not an event: expected a JSON object' };
	for (const field of ['id', 'event', 'createdAt'] as const) {
		const value = body[field];
		if (typeof value !== 'string' || value.trim() === '') {
			return { ok: false, message: `Body is not an event: "${field}" must be a non-empty string` };
		}
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
		},
	};
}

/** Parses the received bytes as JSON, then as an event. */
export function parseEvent(rawBody: Buffer): ParseResult {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return { ok: false, message: 'Body is not valid JSON' };
	}
	return toEvent(body);
}

/** How many event ids are remembered for deduplication (oldest forgotten first). */
export const SEEN_EVENT_IDS_LIMIT = 1000;

/**
 * Records `id` in the node's static data. Returns false when it was already there, i.e. the
 * delivery is a repeat. Check and record happen together, with nothing awaited in between.
 */
export function recordEventId(store: IDataObject, id: string, limit = SEEN_EVENT_IDS_LIMIT): boolean {
	const seen = Array.isArray(store.seenEventIds) ? (store.seenEventIds as string[]) : [];
	if (seen.includes(id)) return false;
	seen.push(id);
	if (seen.length > limit) seen.splice(0, seen.length - limit);
	store.seenEventIds = seen;
	return true;
}
