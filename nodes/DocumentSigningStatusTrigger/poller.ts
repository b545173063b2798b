import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ASSUMPTIONS_URL, DEFAULTS } from '../shared/api/assumptions';
import { STATUS_POLL } from './pollPolicy';
import type { Page, PageSize } from '../shared/http/pagination';
import { followShortPage, readPage } from '../shared/http/pagination';
import { apiPath } from '../shared/api/endpoints';
import type { Budget } from './budget';
import type { WalkHint, WalkResult } from './walk';

/**
 * Reading `GET /envelopes?status=...` for the status trigger.
 *
 * The list is assumed to show the newest change first (`updatedAt` descending, see
 * assumptions.ts). Each status keeps a cursor (the newest `updatedAt` already handled)
 * and the ids handled at or near it. A poll walks the list from the cursor up (walk.ts),
 * so any number of pages of changes between two polls is read, over several polls when
 * one budget does not reach the top. Once a page shows another order, this poll and every
 * later one of the status read every page instead (`readChanged` with `allPages`).
 */

/** The oldest change a poll reads: where the last walk left it (nextFrom), else the cursor less the overlap. */
export function readFrom(memory: { cursor?: number; from?: number }): number | undefined {
	if (memory.cursor === undefined) return undefined;
	if (memory.from === undefined) return memory.cursor - STATUS_POLL.overlapMs;
	return Math.min(memory.from, memory.cursor);
}

/** The service's time at least (its newest change seen, aged by the local time since) at local time `local`. */
export interface ServiceTime {
	at: number;
	local: number;
}

/**
 * Sets where the next poll reads from. A change may show in the list a little after its stamp
 * (up to the overlap), so only a change stamped less than the overlap before the walk read its
 * place can have been missed. Every read of this poll came after its start, when the service's
 * time was at least `clock.at`: the next poll reads again from that less the overlap, or from
 * the cursor when that is older. So a drain through an old backlog does not read its last
 * minute of changes again each poll.
 */
export function nextFrom(
	memory: { cursor?: number; from?: number; clock?: ServiceTime },
	newest: number | undefined,
	local: number,
): void {
	const before = memory.clock;
	const aged = before && local >= before.local ? before.at + (local - before.local) : -Infinity;
	const at = Math.max(aged, newest ?? -Infinity);
	if (!Number.isFinite(at)) return;
	memory.clock = { at, local };
	if (memory.cursor !== undefined)
		memory.from = Math.min(memory.cursor, at - STATUS_POLL.overlapMs);
}

/**
 * Statuses an envelope does not leave and does not change in: their `updatedAt` is when
 * the status was reached, so only ids at the cursor need remembering.
 */
export const FINAL_STATUSES = new Set(['completed', 'estamp_failed']);

export interface EnvelopeListItem extends IDataObject {
	id: string;
	status: string;
	updatedAt: string;
}

/** What the trigger keeps per status in the node's static data. */
/** What a walk over the list keeps between polls, in both modes. */
export interface WalkedMemory {
	/** The newest change handled (ms since epoch); absent before the first poll. */
	cursor?: number;
	/** The list was seen in another order than assumed: every poll reads every page. */
	readAll?: boolean;
	/** Where the last walk stopped, to find the cursor's page again at once. */
	hint?: WalkHint;
	/** The first walk over the list is not done: what it finds is recorded, nothing starts. */
	baseline?: boolean;
	/** The oldest change the next poll reads (nextFrom). */
	from?: number;
	clock?: ServiceTime;
}

export interface StatusMemory extends WalkedMemory {
	/** Handled envelope ids and their `updatedAt` (ms). */
	seen: Record<string, number>;
}

export interface ReadResult {
	items: EnvelopeListItem[];
	/** Every page read was newest change first. */
	ordered: boolean;
}

const time = (item: EnvelopeListItem): number => {
	const ms = Date.parse(String(item.updatedAt ?? ''));
	return Number.isNaN(ms) ? Infinity : ms;
};

/**
 * Envelopes of `status` changed at or after `since`, without repeats. With `since`
 * undefined: every envelope in the status when `allPages`, else those changed within the
 * overlap of the newest change (what a first poll needs to remember).
 */
export async function readChanged(
	this: IPollFunctions,
	status: string,
	since: number | undefined,
	allPages: boolean,
	size: PageSize = { limit: STATUS_POLL.pageSize },
	budget?: Budget,
): Promise<ReadResult> {
	for (let attempt = 0; ; attempt++) {
		const found = new Map<string, EnvelopeListItem>();
		let firstTotal: number | undefined;
		let ordered = true;
		let previous = Infinity;
		let shrank = false;
		let floor = since;

		// The largest page is not in the specification: a refused size is lowered (readPage) and
		// kept in `size`, which the caller remembers for later polls.
		const path = apiPath('envelopes');
		for (let page = DEFAULTS.page; ; page++) {
			if (budget && page > DEFAULTS.page && !budget.allows('list'))
				throw everyPageTooLong(this, status, page - 1);
			const read = async () => await readPage.call(this, path, { status }, page, size);
			const response = (await (budget
				? budget.timed('list', read)
				: read())) as Page<EnvelopeListItem>;
			const items = Array.isArray(response.items) ? response.items : [];
			const total = response.pageInfo?.total;
			if (firstTotal === undefined) firstTotal = total;
			// Fewer envelopes than when the read began: later pages moved up, one may be skipped.
			else if (total !== undefined && total < firstTotal) shrank = true;

			for (const item of items) {
				if (!item || typeof item.id !== 'string') continue;
				const t = time(item);
				if (t > previous) ordered = false;
				previous = t;
				if (floor === undefined && !allPages && Number.isFinite(t))
					floor = t - STATUS_POLL.overlapMs;
				if (floor === undefined || t >= floor) found.set(item.id, item);
			}

			if (!response.pageInfo?.hasNext || items.length === 0) break;
			followShortPage(this, response, size, path, page);
			if (ordered && !allPages && floor !== undefined && previous < floor) break;
		}

		if (!shrank || attempt >= STATUS_POLL.maxRestarts)
			return { items: [...found.values()], ordered };
	}
}

/** A list in another order is read whole each poll; this one does not fit the poll's budget. */
function everyPageTooLong(context: IPollFunctions, status: string, pages: number) {
	return new NodeOperationError(
		context.getNode(),
		`The envelope list of status "${status}" is not in newest-change-first order, so each poll reads all of it, and ${pages} pages did not fit in the poll's budget`,
		{
			description: `Only a list in that order can be read over several polls (assumption "Envelope list order", ${ASSUMPTIONS_URL}). Raise N8N_SCHEDULER_POLL_TIMEOUT, or choose fewer statuses.`,
		},
	);
}

/**
 * Keeps what a walk over the list learned: where it stopped, where the next poll reads from,
 * and, at the top, that the baseline is done. Returns false when the list showed another
 * order than assumed: from then on every poll reads every page.
 */
export function afterWalk(memory: WalkedMemory, walked: WalkResult, startedAt: number): boolean {
	if (walked.hint) memory.hint = walked.hint;
	nextFrom(memory, walked.newest, startedAt);
	if (walked.end === 'top') {
		delete memory.baseline;
		// Nothing listed yet: every envelope that gets there later is new.
		memory.cursor ??= 0;
	}
	if (walked.end !== 'unordered') return true;
	memory.readAll = true;
	delete memory.hint;
	delete memory.from;
	delete memory.clock;
	return false;
}

/** Records one handled envelope: its id near the cursor, and the cursor at its change. */
export function record(memory: StatusMemory, item: EnvelopeListItem, now: number): void {
	const t = time(item);
	memory.seen[item.id] = Number.isFinite(t) ? t : now;
	if (Number.isFinite(t)) memory.cursor = Math.max(memory.cursor ?? -Infinity, t);
}

/**
 * Applies one poll's read to the memory: returns the envelopes not handled before (oldest
 * change first) and records them. The first poll of a status (no cursor) records the
 * baseline and returns nothing new.
 */
export function takeNew(
	status: string,
	memory: StatusMemory,
	listed: EnvelopeListItem[],
	now: number,
): EnvelopeListItem[] {
	const firstPoll = memory.cursor === undefined;
	const fresh = firstPoll ? [] : listed.filter((item) => !(item.id in memory.seen));

	let cursor = memory.cursor ?? -Infinity;
	for (const item of listed) {
		const t = time(item);
		// An unreadable updatedAt counts as now; it does not move the cursor.
		memory.seen[item.id] = Number.isFinite(t) ? t : now;
		if (Number.isFinite(t)) cursor = Math.max(cursor, t);
	}
	// Nothing listed yet: every envelope that gets there later is new.
	memory.cursor = Number.isFinite(cursor) ? cursor : 0;
	prune(status, memory);

	return fresh.sort((a, b) => time(a) - time(b) || a.id.localeCompare(b.id));
}

/**
 * Bounds the memory. A final status needs only the ids the next poll reads again (older
 * ones are never read again); others keep the newest `seenLimit` ids, so an envelope changed
 * again while staying in the status (a signature on a pending envelope) is not new.
 */
export function prune(status: string, memory: StatusMemory): void {
	const from = readFrom(memory) ?? -Infinity;
	let entries = Object.entries(memory.seen);
	if (FINAL_STATUSES.has(status)) entries = entries.filter(([, t]) => t >= from);
	if (entries.length > STATUS_POLL.seenLimit) {
		entries.sort((a, b) => b[1] - a[1]);
		// Ids the next poll reads again always stay.
		entries = entries.filter(([, t], index) => index < STATUS_POLL.seenLimit || t >= from);
	}
	memory.seen = Object.fromEntries(entries);
}
