/**
 * The trigger's memory of event ids n8n has taken an execution for.
 *
 * Two places hold it:
 * - the node's static data, which n8n stores in its database (it survives restarts, and is
 *   loaded by every request, n8nContract.ts static-data-per-request). Its writer's log: fixed-
 *   width records (a hash of the id and its event's time) in the order the ids were taken, in
 *   strings of up to 2,000 records, with how many records the writer has dropped from its front
 *   so far (`base`); and apart from the log, the records of deliveries n8n is taking (`taking`).
 *   n8n saves static data whole and the last write wins (static-data-saved-before-answer), so
 *   every write carries every id this process knows;
 * - this process: the same ids in a Set (a claim looks one up in constant time) beside the same
 *   log (a write appends one record to its last string), and the ids whose delivery n8n is still
 *   taking (a copy arriving meanwhile waits for that outcome instead of starting a second run).
 * What a loaded static data value holds counts as taken, in every process: it is merged into
 * the Set before the claim looks. A writer's log only grows at its end and shrinks at its front,
 * so a record keeps its position (`base` + offset): the log of another writer (another process,
 * or this trigger before a restart) is read from the position after the last record merged
 * from it, and `taking` is read whole. A write costs the same at 0 and at 10,000 ids, and no
 * string grows past V8's large-object size (each would be a fresh mapping per copy).
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
const CHUNK_CHARS = CHUNK_RECORDS * RECORD_CHARS;
/** Ids written at most, log and deliveries being taken together. */
const RECORDS_LIMIT = Math.min(SEEN_EVENTS_LIMIT, Math.floor(SEEN_EVENTS_MAX_BYTES / RECORD_CHARS));
const RECORD_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${KEY_CHARS}}[0-9a-z]{${TIME_CHARS}}$`);
const WRITER_PATTERN = /^[A-Za-z0-9_-]{8,32}$/;
/** Writers remembered per trigger, for reading only what each wrote since. */
const WRITERS_LIMIT = 32;
const FORMAT = 3;

/** The key an id is kept under: a fixed-size hash, whatever the id. */
export function keptId(id: string): string {
	return createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, KEY_CHARS);
}

function record(key: string, createdAtMs: number): string {
	const ms = Number.isFinite(createdAtMs) ? createdAtMs : 0;
	const seconds = Math.min(Math.max(Math.floor(ms / 1000), 0), 36 ** TIME_CHARS - 1);
	return key + seconds.toString(36).padStart(TIME_CHARS, '0');
}

/** The latest time (ms) a record's event may have: its second's last millisecond. */
function recordTimeMs(records: string, at: number): number {
	return parseInt(records.slice(at + KEY_CHARS, at + RECORD_CHARS), 36) * 1000 + 999;
}

/** The stored value, as read: `sound` when every log string is whole records. */
interface StoredIds {
	writer: string;
	base: number;
	log: string[];
	taking: string;
	sound: boolean;
}

function storedIds(store: IDataObject): StoredIds | undefined {
	const value = store[SEEN_IDS_KEY] as IDataObject | undefined;
	if (typeof value !== 'object' || value === null || value.format !== FORMAT) return undefined;
	const { writer, base, log, taking } = value;
	if (typeof writer !== 'string' || !WRITER_PATTERN.test(writer)) return undefined;
	if (!Number.isSafeInteger(base) || (base as number) < 0 || !Array.isArray(log)) return undefined;
	const whole = (chunk: unknown): chunk is string =>
		typeof chunk === 'string' && chunk.length % RECORD_CHARS === 0;
	return {
		writer,
		base: base as number,
		// A string that is not whole records is left out, and positions past it are not trusted.
		log: log.filter(whole),
		taking: whole(taking) ? taking : '',
		sound: log.every(whole),
	};
}

/** The well-formed records of `text` from record `from` on. */
function* recordsOf(text: string, from = 0): Generator<string> {
	for (let at = from * RECORD_CHARS; at < text.length; at += RECORD_CHARS) {
		const line = text.slice(at, at + RECORD_CHARS);
		if (RECORD_PATTERN.test(line)) yield line;
	}
}

/** The remembered ids of a node's static data as [key, time in ms], log first, oldest first. */
export function rememberedIds(store: IDataObject): Array<[key: string, createdAtMs: number]> {
	const stored = storedIds(store);
	if (!stored) return [];
	const out: Array<[string, number]> = [];
	for (const text of [...stored.log, stored.taking])
		for (const line of recordsOf(text))
			out.push([line.slice(0, KEY_CHARS), recordTimeMs(line, 0) - 999]);
	return out;
}

interface TriggerMemory {
	/** Who writes: changes with every process and every restart. */
	writer: string;
	/** Records dropped from the front of the log so far: the position of its first record. */
	base: number;
	/** Kept ids: exactly the keys of the records in `log`. */
	index: Set<string>;
	/** The records, oldest taken first, in strings of up to CHUNK_RECORDS (never empty). */
	log: string[];
	/** Per other writer, the position after the last record merged from its log. */
	cursors: Map<string, number>;
	/** Kept ids whose delivery n8n is still taking: resolves true once answered 2xx. */
	pending: Map<string, Promise<boolean>>;
	/**
	 * Records of pending ids whose answer body n8n has read (in 2.x: their execution exists).
	 * Every write carries them, so that the save that lands last (n8n saves before it answers)
	 * holds the ids of a burst; they count as seen here only once answered 2xx.
	 */
	answering: Map<string, string>;
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

function append(memory: TriggerMemory, line: string): void {
	const key = line.slice(0, KEY_CHARS);
	if (memory.index.has(key)) return;
	memory.index.add(key);
	const last = memory.log.length - 1;
	if (memory.log[last].length < CHUNK_CHARS) memory.log[last] += line;
	else memory.log.push(line);
}

/**
 * Forgets from the oldest taken: while more than the limit less `room` are kept, or while the
 * oldest is dated before `forgetBeforeMs` (one dated later stops it: the rest waits its turn).
 */
function prune(memory: TriggerMemory, forgetBeforeMs: number, room = 0): void {
	const over = () => memory.index.size + room > RECORDS_LIMIT;
	for (;;) {
		const first = memory.log[0];
		let at = 0;
		while (at < first.length && (over() || recordTimeMs(first, at) < forgetBeforeMs)) {
			memory.index.delete(first.slice(at, at + KEY_CHARS));
			at += RECORD_CHARS;
		}
		memory.base += at / RECORD_CHARS;
		if (at < first.length || memory.log.length === 1) {
			if (at > 0) memory.log[0] = first.slice(at);
			return;
		}
		memory.log.shift();
	}
}

/** Takes in another writer's log: from the position after the last record merged from it. */
function mergeLog(memory: TriggerMemory, stored: StoredIds, forgetBeforeMs: number): void {
	const cursor = memory.cursors.get(stored.writer) ?? 0;
	let skip = stored.sound ? cursor - stored.base : 0;
	let end = stored.base;
	for (const text of stored.log) {
		const count = text.length / RECORD_CHARS;
		end += count;
		if (skip >= count) {
			skip -= count;
			continue;
		}
		for (const line of recordsOf(text, Math.max(skip, 0)))
			if (recordTimeMs(line, 0) >= forgetBeforeMs) append(memory, line);
		skip = 0;
	}
	memory.cursors.delete(stored.writer);
	if (!stored.sound) return;
	// An older value saved after a newer one (the last write wins) holds nothing new.
	memory.cursors.set(stored.writer, Math.max(end, cursor));
	if (memory.cursors.size > WRITERS_LIMIT)
		memory.cursors.delete(memory.cursors.keys().next().value as string);
}

/** Takes in a memory of the earlier shape ([id or sha256:hash, ms] pairs). */
function mergeLegacy(memory: TriggerMemory, entries: unknown[], forgetBeforeMs: number): void {
	for (const entry of entries) {
		if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isFinite(entry[1]))
			continue;
		const id = entry[0];
		const hashed = /^sha256:[A-Za-z0-9_-]{43}$/.test(id);
		const line = record(hashed ? id.slice(7, 7 + KEY_CHARS) : keptId(id), entry[1] as number);
		if (recordTimeMs(line, 0) >= forgetBeforeMs) append(memory, line);
	}
}

/**
 * Takes in everything the loaded static data says was taken. Returns the records of the
 * deliveries being taken (`taking`) whose ids are pending here: they count once that delivery
 * is settled (a copy waits for it meanwhile), whatever its outcome in this process.
 */
function sync(memory: TriggerMemory, store: IDataObject, forgetBeforeMs: number) {
	const held = new Map<string, string>();
	const stored = storedIds(store);
	if (stored) {
		// This process's own log is its Set already (less what it has forgotten since).
		if (stored.writer !== memory.writer) mergeLog(memory, stored, forgetBeforeMs);
		for (const line of recordsOf(stored.taking)) {
			const key = line.slice(0, KEY_CHARS);
			if (memory.pending.has(key)) held.set(key, line);
			else if (recordTimeMs(line, 0) >= forgetBeforeMs) append(memory, line);
		}
	}
	const legacy = store[LEGACY_KEY];
	if (Array.isArray(legacy)) mergeLegacy(memory, legacy, forgetBeforeMs);
	return held;
}

/** The records of the deliveries being taken: those whose body n8n has read, and `claimed`. */
function takingRecords(memory: TriggerMemory, claimed: string): string[] {
	const lines = new Set([...memory.answering.values(), claimed]);
	return [...lines].filter((line) => !memory.index.has(line.slice(0, KEY_CHARS)));
}

/** Writes the memory and the deliveries being taken into the static data, within the limits. */
function write(memory: TriggerMemory, store: IDataObject, claimed: string, forgetBeforeMs: number) {
	let taking = takingRecords(memory, claimed);
	if (taking.length > RECORDS_LIMIT) taking = [claimed];
	prune(memory, forgetBeforeMs, taking.length);
	markChanged(store, SEEN_IDS_KEY, {
		format: FORMAT,
		writer: memory.writer,
		base: memory.base,
		log: [...memory.log],
		taking: taking.join(''),
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
			const line = held.get(id);
			if (line === undefined) return reserve(memory, id);
			append(memory, line);
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

	const line = record(id, options.createdAtMs);
	write(memory, store, line, forgetBeforeMs);
	let settled = false;
	return {
		outcome: 'new',
		answering: () => {
			if (settled) return;
			memory.answering.set(id, line);
			write(memory, store, line, forgetBeforeMs);
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
