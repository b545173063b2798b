/**
 * The trigger's memory of event ids it has started a workflow for.
 *
 * Two places hold it:
 * - the node's static data, which n8n stores in its database between requests (it survives
 *   restarts and is read by every request);
 * - a map in this process, because two requests at once each read the static data before
 *   either has stored its change, and n8n stores static data as a whole (the last write
 *   wins). Checking and recording in the map happen with nothing awaited in between, so
 *   simultaneous copies of one event start one execution, and every write carries the ids
 *   of the requests before it.
 * Several n8n processes that take webhooks share only the database: see docs/operations.md
 * ("Repeated deliveries: what is guaranteed where").
 */
import type { IDataObject } from 'n8n-workflow';

/** At most this many ids are kept, oldest forgotten first. */
export const SEEN_EVENTS_LIMIT = 10_000;

/** An id and when its event was created (milliseconds), so ids older than the replay window can go. */
type Seen = [id: string, createdAtMs: number];

const inProcess = new Map<string, Seen[]>();

function storedEntries(store: IDataObject): Seen[] {
	const value = store.seenEvents;
	if (!Array.isArray(value)) return [];
	return value.filter(
		(entry): entry is Seen =>
			Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
	);
}

/** Both memories in one list, in the order ids were first seen, trimmed. */
function merge(stored: Seen[], local: Seen[], forgetBeforeMs: number): Seen[] {
	const ids = new Set<string>();
	const out: Seen[] = [];
	for (const entry of [...stored, ...local]) {
		if (ids.has(entry[0]) || entry[1] < forgetBeforeMs) continue;
		ids.add(entry[0]);
		out.push(entry);
	}
	return out.length > SEEN_EVENTS_LIMIT ? out.slice(out.length - SEEN_EVENTS_LIMIT) : out;
}

export interface ClaimOptions {
	/** Which trigger: the workflow, the node and the mode (test and production runs apart). */
	key: string;
	/** The node's static data. */
	store: IDataObject;
	id: string;
	createdAtMs: number;
	/** Ids of events created before this time are no longer needed (the replay window refuses them). */
	forgetBeforeMs: number;
}

/**
 * Records the event id and returns true when it is new; returns false for an id seen before.
 * Synchronous on purpose: see the file's comment.
 */
export function claimEvent({ key, store, id, createdAtMs, forgetBeforeMs }: ClaimOptions): boolean {
	const seen = merge(storedEntries(store), inProcess.get(key) ?? [], forgetBeforeMs);
	if (seen.some((entry) => entry[0] === id)) {
		inProcess.set(key, seen);
		return false;
	}
	seen.push([id, createdAtMs]);
	const kept = seen.length > SEEN_EVENTS_LIMIT ? seen.slice(1) : seen;
	inProcess.set(key, kept);
	store.seenEvents = kept;
	return true;
}
