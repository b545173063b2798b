/**
 * The trigger's memory of event ids n8n has taken an execution for.
 *
 * Two places hold it:
 * - the node's static data, which n8n stores in its database (it survives restarts, and is
 *   loaded by every request, n8nContract.ts static-data-per-request): fixed-width records (a
 *   hash of the id and its event's time) in the order the ids were taken, in strings of up to
 *   2,000 records, and the revision of its writer. n8n saves static data whole and the last write wins
 *   (static-data-saved-before-answer), so every write carries every id this process knows;
 * - this process: the same ids in a Map (a claim looks one up in constant time) beside the same
 *   strings (a write appends one record to the last), and the ids whose delivery n8n is still taking (a copy
 *   arriving meanwhile waits for that outcome instead of starting a second run).
 * A write costs the same at 0 and at 10,000 ids: only the last string is appended to, and no
 * string grows past V8's large-object size (each would be a fresh mapping per copy). The stored
 * records are read again only when another writer (another process, or this trigger
 * before a restart) wrote it last, and then only from the last record already merged from it.
 * An id counts as seen once n8n answered its delivery 2xx; one whose delivery n8n refused (500,
 * connection dropped) does not: its retry runs. Writes also carry the ids whose answer body n8n
 * has read (in 2.x their executions exist): n8n saves before it answers, so the save that lands
 * last after a burst holds the whole burst.
 */
import { createHash, randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { markChanged } from './n8nContract';

/** At most this many ids are kept, oldest taken forgotten first. */
export const SEEN_EVENTS_LIMIT = 10_000;
/** And at most about this many bytes of them in the static data n8n saves with each delivery. */
export const SEEN_EVENTS_MAX_BYTES = 512 * 1024;
/** The static data key of the memory; `seenEvents` held it before (a list of [id, ms]). */
export const SEEN_IDS_KEY = 'seenEventIds';
const LEGACY_KEY = 'seenEvents';
/** 96 bits of the id's SHA-256 in base64url: no two of 10,000 ids share one in practice. */
const KEY_CHARS = 16;
/** The event's time in whole seconds, base 36, fixed width (until the year 4453). */
const TIME_CHARS = 7;
const RECORD_CHARS = KEY_CHARS + TIME_CHARS;
/** Records per stored string: 46,000 characters, below V8's large-object threshold. */
const CHUNK_RECORDS = 2_000;
const RECORDS_LIMIT = Math.min(SEEN_EVENTS_LIMIT, Math.floor(SEEN_EVENTS_MAX_BYTES / RECORD_CHARS));
const RECORD_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${KEY_CHARS}}[0-9a-z]{${TIME_CHARS}}$`);
/** Writers remembered per trigger, for reading only what each wrote since. */
const WRITERS_LIMIT = 32;

/** The key an id is kept under: a fixed-size hash, whatever the id. */
export function keptId(id: string): string {
	return createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, KEY_CHARS);
}

function record(key: string, createdAtMs: number): string {
	const seconds = Math.min(Math.max(Math.floor(createdAtMs / 1000), 0), 36 ** TIME_CHARS - 1);
	return key + seconds.toString(36).padStart(TIME_CHARS, '0');
}

function recordTimeMs(records: string, at: number): number {
	return parseInt(records.slice(at + KEY_CHARS, at + RECORD_CHARS), 36) * 1000 + 999;
}

/** The stored value: the records and which writer wrote them. */
interface StoredIds extends IDataObject {
	format: 2;
	rev: string;
	records: string[];
}

function storedIds(store: IDataObject): StoredIds | undefined {
	const value = store[SEEN_IDS_KEY] as IDataObject | undefined;
	if (typeof value !== 'object' || value === null || value.format !== 2) return undefined;
	const { rev, records } = value;
	// Checked by length only: each record merged from it is checked on its own.
	if (typeof rev !== 'string' || !Array.isArray(records)) return undefined;
	if (!records.every((chunk) => typeof chunk === 'string' && chunk.length % RECORD_CHARS === 0))
		return undefined;
	return value as StoredIds;
}

/** The remembered ids of a node's static data as [key, time in ms], oldest first. */
export function rememberedIds(store: IDataObject): Array<[key: string, createdAtMs: number]> {
	const records = (storedIds(store)?.records ?? []).join('');
	const out: Array<[string, number]> = [];
	for (let at = 0; at < records.length; at += RECORD_CHARS)
		out.push([records.slice(at, at + KEY_CHARS), recordTimeMs(records, at) - 999]);
	return out;
}

interface TriggerMemory {
	/** Who writes: changes with every process and every restart. */
	writer: string;
	revision: number;
	/** Kept ids and their records' times, in the order of `chunks`. */
	index: Map<string, number>;
	/** The records, oldest first, in strings of up to CHUNK_RECORDS (never empty). */
	chunks: string[];
	/** Per other writer, the last record merged from what it wrote. */
	merged: Map<string, string>;
	/** Kept ids whose delivery n8n is still taking: resolves true once answered 2xx. */
	pending: Map<string, Promise<boolean>>;
	/**
	 * Records of pending ids whose answer body n8n has read (in 2.x: their execution exists).
	 * Every write carries them, so that the save that lands last (n8n saves before it answers)
	 * holds the ids of a burst; they count as seen only once answered 2xx.
	 */
	answering: Map<string, string>;
}

const memories = new Map<string, TriggerMemory>();

function memoryFor(key: string): TriggerMemory {
	let memory = memories.get(key);
	if (!memory) {
		memory = {
			writer: randomBytes(6).toString('base64url'),
			revision: 0,
			index: new Map(),
			chunks: [''],
			merged: new Map(),
			pending: new Map(),
			answering: new Map(),
		};
		memories.set(key, memory);
	}
	return memory;
}

function append(memory: TriggerMemory, line: string): void {
	const key = line.slice(0, KEY_CHARS);
	if (memory.index.has(key)) return;
	memory.index.set(key, recordTimeMs(line, 0));
	const last = memory.chunks.length - 1;
	if (memory.chunks[last].length < CHUNK_RECORDS * RECORD_CHARS) memory.chunks[last] += line;
	else memory.chunks.push(line);
}

/** Forgets from the oldest taken: past the count, or dated before `forgetBeforeMs`. */
function prune(memory: TriggerMemory, forgetBeforeMs: number, room = 0): void {
	// The oldest are read from the front of the string: a Map walked from its front after many
	// deletions steps over their holes.
	for (;;) {
		const first = memory.chunks[0];
		let at = 0;
		while (
			at < first.length &&
			(memory.index.size + room > RECORDS_LIMIT || recordTimeMs(first, at) < forgetBeforeMs)
		) {
			memory.index.delete(first.slice(at, at + KEY_CHARS));
			at += RECORD_CHARS;
		}
		if (at < first.length || memory.chunks.length === 1) {
			if (at > 0) memory.chunks[0] = first.slice(at);
			return;
		}
		memory.chunks.shift();
	}
}

/** Where the records after `last` start: [chunk, offset], or [0, 0] when `last` is not found. */
function mergeFrom(chunks: string[], last: string | undefined): [number, number] {
	if (last === undefined) return [0, 0];
	for (let n = chunks.length - 1; n >= 0; n--) {
		const at = chunks[n].lastIndexOf(last);
		if (at >= 0 && at % RECORD_CHARS === 0) return [n, at + RECORD_CHARS];
	}
	return [0, 0];
}

/** Takes in what another writer stored: only what follows the last record merged from it. */
function mergeStored(memory: TriggerMemory, stored: StoredIds): void {
	const writer = stored.rev.split('.')[0];
	if (writer === memory.writer) return;
	const chunks = stored.records;
	const [chunk, from] = mergeFrom(chunks, memory.merged.get(writer));
	for (let n = chunk; n < chunks.length; n++) {
		for (let at = n === chunk ? from : 0; at < chunks[n].length; at += RECORD_CHARS) {
			const line = chunks[n].slice(at, at + RECORD_CHARS);
			if (RECORD_PATTERN.test(line)) append(memory, line);
		}
	}
	memory.merged.delete(writer);
	const tail = chunks.filter((c) => c.length > 0).pop();
	if (tail !== undefined) memory.merged.set(writer, tail.slice(-RECORD_CHARS));
	if (memory.merged.size > WRITERS_LIMIT)
		memory.merged.delete(memory.merged.keys().next().value as string);
}

/** Takes in a memory of the earlier shape ([id or sha256:hash, ms] pairs). */
function mergeLegacy(memory: TriggerMemory, entries: unknown[]): void {
	for (const entry of entries) {
		if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number')
			continue;
		const id = entry[0];
		const hashed = /^sha256:[A-Za-z0-9_-]{43}$/.test(id);
		append(memory, record(hashed ? id.slice(7, 7 + KEY_CHARS) : keptId(id), entry[1]));
	}
}

function sync(memory: TriggerMemory, store: IDataObject): void {
	const stored = storedIds(store);
	if (stored) mergeStored(memory, stored);
	const legacy = store[LEGACY_KEY];
	if (Array.isArray(legacy)) mergeLegacy(memory, legacy);
}

/** Writes the memory, the ids being answered and `extra` (the id being claimed) into the static data. */
function write(memory: TriggerMemory, store: IDataObject, extra: string): void {
	const value: StoredIds = {
		format: 2,
		rev: `${memory.writer}.${++memory.revision}`,
		records: [...memory.chunks],
	};
	// Ids being answered, and the id being claimed, go last, in the written copy only.
	const more = new Set(memory.answering.values()).add(extra);
	for (const line of more) {
		if (memory.index.has(line.slice(0, KEY_CHARS))) continue;
		const last = value.records.length - 1;
		if (value.records[last].length < CHUNK_RECORDS * RECORD_CHARS) value.records[last] += line;
		else value.records.push(line);
	}
	markChanged(store, SEEN_IDS_KEY, value);
	if (LEGACY_KEY in store) delete store[LEGACY_KEY];
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
			/** n8n reads the answer: the memory is written again, so that n8n saves it. */
			answering: () => void;
			/** n8n answered: 2xx (true, the id is remembered) or not (false). Call once. */
			settle: (answered2xx: boolean) => void;
	  };

/**
 * Claims an event id for this delivery. New: the static data holds it (stored by n8n only if
 * it answers the delivery), and the caller settles the claim with n8n's answer.
 */
export async function claimEvent(options: ClaimOptions): Promise<Claim> {
	const { key, store, forgetBeforeMs } = options;
	const id = keptId(options.id);
	const deadline = Date.now() + options.waitMs;
	const memory = memoryFor(key);
	sync(memory, store);
	for (;;) {
		prune(memory, forgetBeforeMs);
		if (memory.index.has(id)) return { outcome: 'duplicate' };
		const pending = memory.pending.get(id);
		if (pending === undefined) break;
		const left = deadline - Date.now();
		if (left <= 0) return { outcome: 'busy' };
		// Taken or refused, the loop looks again: another waiting copy may have claimed it since.
		await Promise.race([pending, sleep(Math.min(left, 1_000))]);
	}

	let resolve: (taken: boolean) => void = () => {};
	memory.pending.set(id, new Promise<boolean>((r) => (resolve = r)));
	const line = record(id, options.createdAtMs);
	const writeNow = () => {
		prune(memory, forgetBeforeMs, 1);
		write(memory, store, line);
	};
	writeNow();
	let settled = false;
	return {
		outcome: 'new',
		answering: () => {
			if (settled) return;
			memory.answering.set(id, line);
			writeNow();
		},
		settle: (answered2xx: boolean) => {
			if (settled) return;
			settled = true;
			memory.pending.delete(id);
			memory.answering.delete(id);
			if (answered2xx) {
				prune(memory, forgetBeforeMs, 1);
				append(memory, line);
			}
			resolve(answered2xx);
		},
	};
}
