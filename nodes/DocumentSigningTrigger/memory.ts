/**
 * The trigger's memory of event ids n8n has taken an execution for.
 *
 * Two places hold it:
 * - the node's static data, which n8n stores in its database (it survives restarts and is
 *   read by every request): written with each started delivery, and stored by n8n only when
 *   n8n took that delivery's execution;
 * - this process: the ids taken (n8n stores static data as a whole, the last write wins, so
 *   every write carries the ids taken before it) and the ids whose delivery n8n is still
 *   taking (a copy arriving meanwhile waits for that outcome instead of starting a second run).
 * An id whose delivery n8n refused (500, connection dropped) is not remembered: its retry runs.
 * Several n8n processes that take webhooks share only the database: see docs/operations.md.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/** At most this many ids are kept, oldest forgotten first. */
export const SEEN_EVENTS_LIMIT = 10_000;
/** And at most about this many bytes of them in the static data n8n rewrites with each delivery. */
export const SEEN_EVENTS_MAX_BYTES = 512 * 1024;
/** Ids longer than this (or not plain text) are kept as a fixed-size hash. */
const MAX_KEPT_ID_CHARS = 64;
const HASH_PREFIX = 'sha256:';
/** Bytes of an entry beyond its key in the stored JSON: `["",1764000000000],`. */
const ENTRY_OVERHEAD_BYTES = 19;

/** A kept id (the id, or its hash) and when its event was created (milliseconds). */
type Seen = [key: string, createdAtMs: number];

/** How an id is kept: short plain ids as they are, anything else as a hash of 51 characters. */
export function keptId(id: string): string {
	const plain = id.length <= MAX_KEPT_ID_CHARS && /^[\x20-\x7e]+$/.test(id) && !/["\\]/.test(id);
	if (plain && !id.startsWith(HASH_PREFIX)) return id;
	return HASH_PREFIX + createHash('sha256').update(id, 'utf8').digest('base64url');
}

/** A stored key: a kept hash is taken as it is, anything else (an id kept by an earlier version) as keptId makes it. */
function storedKey(key: string): string {
	return /^sha256:[A-Za-z0-9_-]{43}$/.test(key) ? key : keptId(key);
}

interface TriggerMemory {
	/** Kept ids n8n took, oldest first (a Map keeps insertion order). */
	taken: Map<string, number>;
	/** Kept ids whose delivery n8n is still taking: resolves true once taken, false if refused. */
	pending: Map<string, Promise<boolean>>;
}

const memories = new Map<string, TriggerMemory>();

function memoryFor(key: string): TriggerMemory {
	let memory = memories.get(key);
	if (!memory) {
		memory = { taken: new Map(), pending: new Map() };
		memories.set(key, memory);
	}
	return memory;
}

function storedEntries(store: IDataObject): Seen[] {
	const value = store.seenEvents;
	if (!Array.isArray(value)) return [];
	return value
		.filter(
			(entry): entry is Seen =>
				Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
		)
		.map(([key, at]) => [storedKey(key), at]);
}

/** Keeps the newest entries within the window, the count and the byte budget. */
function trim(entries: Seen[], forgetBeforeMs: number): Seen[] {
	const out: Seen[] = [];
	let bytes = 0;
	for (let n = entries.length - 1; n >= 0 && out.length < SEEN_EVENTS_LIMIT; n--) {
		const [key, at] = entries[n];
		if (at < forgetBeforeMs) continue;
		bytes += key.length + ENTRY_OVERHEAD_BYTES;
		if (bytes > SEEN_EVENTS_MAX_BYTES) break;
		out.push(entries[n]);
	}
	return out.reverse();
}

/** The stored ids and this process's taken ids in one list, each once, in the order first seen. */
function merged(
	store: IDataObject,
	memory: TriggerMemory,
	forgetBeforeMs: number,
	extra?: Seen,
): Seen[] {
	const seen = new Set<string>();
	const out: Seen[] = [];
	for (const entry of [
		...storedEntries(store),
		...memory.taken.entries(),
		...(extra ? [extra] : []),
	]) {
		if (seen.has(entry[0])) continue;
		seen.add(entry[0]);
		out.push(entry);
	}
	return trim(out, forgetBeforeMs);
}

function pruneTaken(memory: TriggerMemory, forgetBeforeMs: number): void {
	const kept = trim([...memory.taken.entries()], forgetBeforeMs);
	if (kept.length === memory.taken.size) return;
	memory.taken = new Map(kept);
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
	/** How long a copy waits for the outcome of its id's first delivery. */
	waitMs: number;
}

export type Claim =
	| { outcome: 'duplicate' }
	/** The first delivery of this id is still being taken after waitMs. */
	| { outcome: 'busy' }
	| {
			outcome: 'new';
			/**
			 * n8n has the execution (it reads the answer body only then): the id counts as seen
			 * here, and the memory is written into the static data again, marked changed after
			 * n8n cleared that mark when it started the run.
			 */
			taken: () => void;
			/** n8n answered: 2xx (true) or not (false, the id is forgotten again). Call once. */
			settle: (answered2xx: boolean) => void;
	  };

/**
 * Claims an event id for this delivery. New: the static data already holds it (stored by n8n
 * only if it takes the execution), and the caller settles the claim with n8n's answer.
 */
export async function claimEvent(options: ClaimOptions): Promise<Claim> {
	const { key, store, createdAtMs, forgetBeforeMs } = options;
	const id = keptId(options.id);
	const deadline = Date.now() + options.waitMs;
	for (;;) {
		const memory = memoryFor(key);
		pruneTaken(memory, forgetBeforeMs);
		if (memory.taken.has(id) || storedEntries(store).some(([kept]) => kept === id))
			return { outcome: 'duplicate' };
		const pending = memory.pending.get(id);
		if (pending === undefined) break;
		const left = deadline - Date.now();
		if (left <= 0) return { outcome: 'busy' };
		// Taken or refused, the loop looks again: another waiting copy may have claimed it since.
		await Promise.race([pending, sleep(Math.min(left, 1_000))]);
	}

	const memory = memoryFor(key);
	let resolve: (taken: boolean) => void = () => {};
	memory.pending.set(id, new Promise<boolean>((r) => (resolve = r)));
	const write = () => {
		store.seenEvents = merged(store, memoryFor(key), forgetBeforeMs, [id, createdAtMs]);
	};
	write();
	let settled = false;
	return {
		outcome: 'new',
		taken: () => {
			if (settled) return;
			memoryFor(key).taken.set(id, createdAtMs);
			write();
		},
		settle: (answered2xx: boolean) => {
			if (settled) return;
			settled = true;
			const current = memoryFor(key);
			current.pending.delete(id);
			if (answered2xx) current.taken.set(id, createdAtMs);
			else current.taken.delete(id);
			pruneTaken(current, forgetBeforeMs);
			if (current.taken.size === 0 && current.pending.size === 0) memories.delete(key);
			resolve(answered2xx);
		},
	};
}
