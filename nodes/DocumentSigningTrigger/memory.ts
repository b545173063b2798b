/**
 * The trigger's memory of event ids n8n has taken an execution for.
 *
 * Two places hold it:
 * - the node's static data, which n8n stores in its database (it survives restarts, and is
 *   loaded by every request, n8nContract.ts static-data-per-request). Its writer's log: fixed-
 *   width keys (a hash of the id) in the order the ids were taken, in strings of up to 2,000
 *   keys that each begin with the newest event time among them, with how many keys the writer
 *   has dropped from its front so far (`base`); and apart from the log, the keys of deliveries
 *   n8n is taking (`taking`). n8n saves static data whole and the last write wins
 *   (static-data-saved-before-answer), so every write carries every id this process knows;
 *   and n8n reads and writes all of it with every delivery, so it is kept small: 10 characters
 *   an id (100 KB at 10,000 ids).
 * - this process: the same ids in a Set (a claim looks one up in constant time) beside the same
 *   log (a write appends one key to its last string), and the ids whose delivery n8n is still
 *   taking (a copy arriving meanwhile waits for that outcome instead of starting a second run).
 * What a loaded static data value holds counts as taken, in every process: it is merged into
 * the Set before the claim looks. A writer's log only grows at its end and shrinks at its front,
 * so a key keeps its position (`base` + offset): the log of another writer (another process,
 * or this trigger before a restart) is read from the position after the last key merged
 * from it, and `taking` is read whole. The trigger's own work per write is the same at 0 and
 * at 10,000 ids, and no string grows past V8's large-object size (each would be a fresh
 * mapping per copy). An id is forgotten by age with its whole string (kept longer, never less).
 * An id counts as seen once n8n answered its delivery 2xx; one whose delivery n8n refused (500,
 * connection dropped) does not: its retry runs. Writes also carry the ids whose answer body n8n
 * has read (in 2.x their executions exist): n8n saves before it answers, so the save that lands
 * last after a burst holds the whole burst. A value of the format before (format 3) is read.
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
/**
 * 60 bits of the id's SHA-256 in base64url: the chance that a new id is taken for one of
 * 10,000 kept is 1 in 10^14. n8n saves the whole memory with every delivery, at a cost that
 * grows with its size, so each byte counts.
 */
const KEY_CHARS = 10;
const KEY_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${KEY_CHARS}}$`);
/** A string of keys starts with its newest event's time: whole seconds, base 36 (until 4453). */
const TIME_CHARS = 7;
const TIME_PATTERN = new RegExp(`^[0-9a-z]{${TIME_CHARS}}$`);
/** Keys per stored string: 20,007 characters, below V8's large-object threshold. */
const CHUNK_RECORDS = 2_000;
/** Ids written at most, log and deliveries being taken together. */
const RECORDS_LIMIT = Math.min(SEEN_EVENTS_LIMIT, Math.floor(SEEN_EVENTS_MAX_BYTES / KEY_CHARS));
const WRITER_PATTERN = /^[A-Za-z0-9_-]{8,32}$/;
/** Writers remembered per trigger, for reading only what each wrote since. */
const WRITERS_LIMIT = 32;
const FORMAT = 4;
/** The format before: 23-character records (a 16-character key, then its event's time). */
const FORMAT_3 = { format: 3, recordChars: 23, keyChars: 16 } as const;

/** The key an id is kept under: a fixed-size hash, whatever the id. */
export function keptId(id: string): string {
	return createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, KEY_CHARS);
}

/** An event's time as stored: whole seconds, within what TIME_CHARS can hold. */
function secondsOf(createdAtMs: number): number {
	const ms = Number.isFinite(createdAtMs) ? createdAtMs : 0;
	return Math.min(Math.max(Math.floor(ms / 1000), 0), 36 ** TIME_CHARS - 1);
}

/** The latest time (ms) an event of that second may have: its last millisecond. */
const lastMsOf = (seconds: number): number => seconds * 1000 + 999;

/**
 * A stored string of keys: '' (none), or the newest event time among them (TIME_CHARS) and
 * the keys, oldest taken first. An id is forgotten by time only with its whole string.
 */
function chunkOf(seconds: number, keys: string): string {
	return keys === '' ? '' : seconds.toString(36).padStart(TIME_CHARS, '0') + keys;
}

const chunkSeconds = (chunk: string): number => parseInt(chunk.slice(0, TIME_CHARS), 36);
const chunkCount = (chunk: string): number =>
	chunk === '' ? 0 : (chunk.length - TIME_CHARS) / KEY_CHARS;
const keyAt = (chunk: string, n: number): string =>
	chunk.slice(TIME_CHARS + n * KEY_CHARS, TIME_CHARS + (n + 1) * KEY_CHARS);

function isChunk(value: unknown): value is string {
	if (value === '') return true;
	return (
		typeof value === 'string' &&
		value.length > TIME_CHARS &&
		(value.length - TIME_CHARS) % KEY_CHARS === 0 &&
		TIME_PATTERN.test(value.slice(0, TIME_CHARS))
	);
}

/** The well-formed keys of a stored string from key `from` on. */
function* keysOf(chunk: string, from = 0): Generator<string> {
	for (let n = from; n < chunkCount(chunk); n++) {
		const key = keyAt(chunk, n);
		if (KEY_PATTERN.test(key)) yield key;
	}
}

/** The stored value, as read: `sound` when every log string is well formed. */
interface StoredIds {
	writer: string;
	base: number;
	log: string[];
	taking: string;
	sound: boolean;
}

/** The stored value of the memory when it has that format. */
function storedValue(store: IDataObject, format: number): IDataObject | undefined {
	const value = store[SEEN_IDS_KEY] as IDataObject | undefined;
	return typeof value === 'object' && value !== null && value.format === format ? value : undefined;
}

function storedIds(store: IDataObject): StoredIds | undefined {
	const value = storedValue(store, FORMAT);
	if (!value) return undefined;
	const { writer, base, log, taking } = value;
	if (typeof writer !== 'string' || !WRITER_PATTERN.test(writer)) return undefined;
	if (!Number.isSafeInteger(base) || (base as number) < 0 || !Array.isArray(log)) return undefined;
	return {
		writer,
		base: base as number,
		// A string that is not well formed is left out, and positions past it are not trusted.
		log: log.filter(isChunk),
		taking: isChunk(taking) ? taking : '',
		sound: log.every(isChunk),
	};
}

/** The ids of a value the earlier format wrote, as [key, seconds]: its keys' first characters are today's keys. */
function* format3Records(store: IDataObject): Generator<[key: string, seconds: number]> {
	const value = storedValue(store, FORMAT_3.format);
	if (!value) return;
	const texts = [...(Array.isArray(value.log) ? value.log : []), value.taking];
	const { recordChars, keyChars } = FORMAT_3;
	for (const text of texts) {
		if (typeof text !== 'string' || text.length % recordChars !== 0) continue;
		for (let at = 0; at < text.length; at += recordChars) {
			const key = text.slice(at, at + KEY_CHARS);
			const time = text.slice(at + keyChars, at + recordChars);
			if (KEY_PATTERN.test(key) && TIME_PATTERN.test(time)) yield [key, parseInt(time, 36)];
		}
	}
}

/** The remembered ids of a node's static data as [key, time in ms], log first, oldest first. */
export function rememberedIds(store: IDataObject): Array<[key: string, createdAtMs: number]> {
	const stored = storedIds(store);
	if (!stored) return [...format3Records(store)].map(([key, seconds]) => [key, seconds * 1000]);
	const out: Array<[string, number]> = [];
	for (const chunk of [...stored.log, stored.taking])
		for (const key of keysOf(chunk)) out.push([key, chunkSeconds(chunk) * 1000]);
	return out;
}

interface TriggerMemory {
	/** Who writes: changes with every process and every restart. */
	writer: string;
	/** Keys dropped from the front of the log so far: the position of its first key. */
	base: number;
	/** Kept ids: exactly the keys in `log`. */
	index: Set<string>;
	/** The stored strings of keys, oldest taken first, up to CHUNK_RECORDS each (never empty). */
	log: string[];
	/** Per other writer, the position after the last key merged from its log. */
	cursors: Map<string, number>;
	/** Kept ids whose delivery n8n is still taking: resolves true once answered 2xx. */
	pending: Map<string, Promise<boolean>>;
	/**
	 * Pending ids whose answer body n8n has read (in 2.x: their execution exists), with their
	 * event's time (seconds). Every write carries them, so that the save that lands last (n8n
	 * saves before it answers) holds the ids of a burst; they count as seen here only once
	 * answered 2xx.
	 */
	answering: Map<string, number>;
}

const memories = new Map<string, TriggerMemory>();

function memoryFor(key: string): TriggerMemory {
	let memory = memories.get(key);
	if (!memory) {
		memory = {
			writer: randomBytes(9).toString('base64url'),
			base: 0,
			index: new Set(),
			log: [''],
			cursors: new Map(),
			pending: new Map(),
			answering: new Map(),
		};
		memories.set(key, memory);
	}
	return memory;
}

function append(memory: TriggerMemory, key: string, seconds: number): void {
	if (memory.index.has(key)) return;
	memory.index.add(key);
	const last = memory.log.length - 1;
	const chunk = memory.log[last];
	if (chunk === '') memory.log[last] = chunkOf(seconds, key);
	else if (chunkCount(chunk) >= CHUNK_RECORDS) memory.log.push(chunkOf(seconds, key));
	else if (seconds > chunkSeconds(chunk))
		memory.log[last] = chunkOf(seconds, chunk.slice(TIME_CHARS) + key);
	else memory.log[last] = chunk + key;
}

/**
 * Forgets from the oldest taken: while more than the limit less `room` are kept, or while the
 * oldest string's newest event is dated before `forgetBeforeMs` (a string dated later stops
 * it: the rest waits its turn).
 */
function prune(memory: TriggerMemory, forgetBeforeMs: number, room = 0): void {
	const over = () => memory.index.size + room > RECORDS_LIMIT;
	for (;;) {
		const first = memory.log[0];
		const count = chunkCount(first);
		const expired = count > 0 && lastMsOf(chunkSeconds(first)) < forgetBeforeMs;
		let n = 0;
		for (; n < count && (expired || over()); n++) memory.index.delete(keyAt(first, n));
		memory.base += n;
		if (n < count || memory.log.length === 1) {
			if (n > 0)
				memory.log[0] = chunkOf(chunkSeconds(first), first.slice(TIME_CHARS + n * KEY_CHARS));
			return;
		}
		memory.log.shift();
	}
}

/** Takes in another writer's log: from the position after the last key merged from it. */
function mergeLog(memory: TriggerMemory, stored: StoredIds, forgetBeforeMs: number): void {
	const cursor = memory.cursors.get(stored.writer) ?? 0;
	let skip = stored.sound ? cursor - stored.base : 0;
	let end = stored.base;
	for (const chunk of stored.log) {
		const count = chunkCount(chunk);
		end += count;
		if (skip >= count) {
			skip -= count;
			continue;
		}
		const seconds = chunkSeconds(chunk);
		if (lastMsOf(seconds) >= forgetBeforeMs)
			for (const key of keysOf(chunk, Math.max(skip, 0))) append(memory, key, seconds);
		skip = 0;
	}
	memory.cursors.delete(stored.writer);
	if (!stored.sound) return;
	// An older value saved after a newer one (the last write wins) holds nothing new.
	memory.cursors.set(stored.writer, Math.max(end, cursor));
	if (memory.cursors.size > WRITERS_LIMIT)
		memory.cursors.delete(memory.cursors.keys().next().value as string);
}

/** Takes in a memory of the earliest shape ([id or sha256:hash, ms] pairs). */
function mergeLegacy(memory: TriggerMemory, entries: unknown[], forgetBeforeMs: number): void {
	for (const entry of entries) {
		if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isFinite(entry[1]))
			continue;
		const id = entry[0];
		const hashed = /^sha256:[A-Za-z0-9_-]{43}$/.test(id);
		const seconds = secondsOf(entry[1] as number);
		if (lastMsOf(seconds) >= forgetBeforeMs)
			append(memory, hashed ? id.slice(7, 7 + KEY_CHARS) : keptId(id), seconds);
	}
}

/**
 * Takes in everything the loaded static data says was taken. Returns the ids of the
 * deliveries being taken (`taking`) that are pending here, with their time: they count once
 * that delivery is settled (a copy waits for it meanwhile), whatever its outcome in this process.
 */
function sync(memory: TriggerMemory, store: IDataObject, forgetBeforeMs: number) {
	const held = new Map<string, number>();
	const takeIn = (key: string, seconds: number) => {
		if (memory.pending.has(key)) held.set(key, seconds);
		else if (lastMsOf(seconds) >= forgetBeforeMs) append(memory, key, seconds);
	};
	const stored = storedIds(store);
	if (stored) {
		// This process's own log is its Set already (less what it has forgotten since).
		if (stored.writer !== memory.writer) mergeLog(memory, stored, forgetBeforeMs);
		for (const key of keysOf(stored.taking)) takeIn(key, chunkSeconds(stored.taking));
	} else for (const [key, seconds] of format3Records(store)) takeIn(key, seconds);
	const legacy = store[LEGACY_KEY];
	if (Array.isArray(legacy)) mergeLegacy(memory, legacy, forgetBeforeMs);
	return held;
}

/** The deliveries being taken, not yet kept: those whose body n8n has read, and `claimed`. */
function takingIds(memory: TriggerMemory, claimed: string, seconds: number): Map<string, number> {
	const taking = new Map(memory.answering).set(claimed, seconds);
	for (const key of taking.keys()) if (memory.index.has(key)) taking.delete(key);
	return taking;
}

/** Writes the memory and the deliveries being taken into the static data, within the limits. */
function write(
	memory: TriggerMemory,
	store: IDataObject,
	claimed: string,
	seconds: number,
	forgetBeforeMs: number,
) {
	let taking = takingIds(memory, claimed, seconds);
	if (taking.size > RECORDS_LIMIT) taking = new Map([[claimed, seconds]]);
	prune(memory, forgetBeforeMs, taking.size);
	markChanged(store, SEEN_IDS_KEY, {
		format: FORMAT,
		writer: memory.writer,
		base: memory.base,
		log: [...memory.log],
		taking: chunkOf(Math.max(...taking.values()), [...taking.keys()].join('')),
	});
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

/** Marks `id` as being taken here; the returned function settles it (true: answered 2xx). */
function reserve(memory: TriggerMemory, id: string): (taken: boolean) => void {
	let resolve: (taken: boolean) => void = () => {};
	memory.pending.set(id, new Promise<boolean>((r) => (resolve = r)));
	return resolve;
}

/**
 * Waits while a delivery of `id` is being taken: 'duplicate', 'busy', or the id reserved for
 * this delivery. The reservation is made in the same step as the look that found the id free:
 * copies woken by one refused delivery each look in turn, and only the first finds it free.
 */
async function awaitFirst(memory: TriggerMemory, id: string, options: ClaimOptions) {
	const deadline = Date.now() + options.waitMs;
	const held = sync(memory, options.store, options.forgetBeforeMs);
	for (;;) {
		prune(memory, options.forgetBeforeMs);
		if (memory.index.has(id)) return 'duplicate';
		const pending = memory.pending.get(id);
		if (pending === undefined) {
			// The loaded static data says it was taken (another process, or a save that landed).
			const seconds = held.get(id);
			if (seconds === undefined) return reserve(memory, id);
			append(memory, id, seconds);
			return 'duplicate';
		}
		const left = deadline - Date.now();
		if (left <= 0) return 'busy';
		// Taken or refused, the loop looks again: another waiting copy may have claimed it since.
		await Promise.race([pending, sleep(Math.min(left, 1_000))]);
	}
}

/**
 * Claims an event id for this delivery. New: the static data holds it (stored by n8n only if
 * it answers the delivery), and the caller settles the claim with n8n's answer.
 */
export async function claimEvent(options: ClaimOptions): Promise<Claim> {
	const { store, forgetBeforeMs } = options;
	const id = keptId(options.id);
	const memory = memoryFor(options.key);
	const resolve = await awaitFirst(memory, id, options);
	if (typeof resolve === 'string') return { outcome: resolve };

	const seconds = secondsOf(options.createdAtMs);
	write(memory, store, id, seconds, forgetBeforeMs);
	let settled = false;
	return {
		outcome: 'new',
		answering: () => {
			if (settled) return;
			memory.answering.set(id, seconds);
			write(memory, store, id, seconds, forgetBeforeMs);
		},
		settle: (answered2xx: boolean) => {
			if (settled) return;
			settled = true;
			memory.pending.delete(id);
			memory.answering.delete(id);
			if (answered2xx) {
				prune(memory, forgetBeforeMs, 1);
				append(memory, id, seconds);
			}
			resolve(answered2xx);
		},
	};
}
