import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { RecipientMemory } from './recipients';

import { DEFAULTS } from '../shared/assumptions';
import { STATUS_POLL } from './pollPolicy';
import type { Page, PageSize } from '../shared/pagination';
import { followShortPage, readPage } from '../shared/pagination';
import { apiPath } from '../shared/endpoints';

/**
 * Reading `GET /envelopes?status=...` for the status trigger.
 *
 * The list is assumed to show the newest change first (`updatedAt` descending, see
 * assumptions.ts). Each status keeps a cursor (the newest `updatedAt` already handled)
 * and the ids handled at or near it. A poll reads pages until it passes the cursor, so
 * any number of pages of changes between two polls is read. Once a page shows another
 * order, this poll and every later one of the status read every page instead.
 */

/** The oldest change a poll reads: the cursor minus the overlap. */
export const readFrom = (memory: StatusMemory): number | undefined =>
	memory.cursor === undefined ? undefined : memory.cursor - STATUS_POLL.overlapMs;

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
export interface StatusMemory {
	/** The newest `updatedAt` handled (ms since epoch); absent before the first poll. */
	cursor?: number;
	/** Handled envelope ids and their `updatedAt` (ms). */
	seen: Record<string, number>;
	/** The list was seen in another order than assumed: every poll reads every page. */
	readAll?: boolean;
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
			const response = (await readPage.call(
				this,
				path,
				{ status },
				page,
				size,
			)) as Page<EnvelopeListItem>;
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
function prune(status: string, memory: StatusMemory): void {
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

/** What the node keeps in the workflow's static data. */
export interface NodeMemory extends IDataObject {
	statuses?: Record<string, StatusMemory>;
	/** Recipient Acted: what the last poll saw. */
	recipients?: RecipientMemory;
	/** The page size the service took (a refused size is not asked again). */
	pageSize?: number;
}

/** Polls running in this process, by workflow and node. */
export const inFlight = new Set<string>();

/** The page size to ask: the one the service took last time, else the largest assumed. */
export function pageSize(this: IPollFunctions): PageSize {
	// A test run reads no memory: reading it would create the node's entry.
	if (this.getMode() === 'manual') return { limit: STATUS_POLL.pageSize };
	const kept = Number((this.getWorkflowStaticData('node') as NodeMemory).pageSize);
	const limit =
		Number.isInteger(kept) && kept >= 1
			? Math.min(kept, STATUS_POLL.pageSize)
			: STATUS_POLL.pageSize;
	return { limit };
}

/** A refused size is remembered, so later polls do not ask it (and get refused) again. */
export function rememberPageSize(memory: NodeMemory, size: PageSize): void {
	if (size.limit < STATUS_POLL.pageSize) memory.pageSize = size.limit;
	else delete memory.pageSize;
}
