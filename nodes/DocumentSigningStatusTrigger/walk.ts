import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Page, PageSize } from '../shared/http/pagination';
import { followShortPage, readPage } from '../shared/http/pagination';
import type { Budget } from './budget';

/**
 * Walks an envelope list that shows the newest change first (assumptions.ts) from its oldest
 * change not yet handled up to its top, so a poll handles changes oldest first and may stop
 * anywhere: what it handled is a prefix, and the next poll goes on above it.
 *
 * 1. The start: the page where the list passes `floor` (the cursor less the overlap), found
 *    from where the last walk stopped (its offset moved by the growth of `total`), else by
 *    halving the pages; the whole list's last page when there is no floor.
 * 2. Upward: each next read ends a little below the newest item read so far (a page of a
 *    size chosen so that it does: `windowAbove`), so it holds at least one item already read.
 *    Changes arriving meanwhile push the list down; an item read before shows where the
 *    window meets what was read, and a window that meets nothing is read again lower. No
 *    item can slip between two reads unseen.
 */

export interface ListedItem extends IDataObject {
	id: string;
	updatedAt?: string;
}

/** When an item last changed (ms since epoch); an unreadable `updatedAt` counts as newest. */
export const changedAt = (item: IDataObject): number => {
	const ms = Date.parse(String(item.updatedAt ?? ''));
	return Number.isNaN(ms) ? Infinity : ms;
};

/** Where a walk stopped: the offset of the newest item it handled, in a list of `total` items. */
export interface WalkHint {
	offset: number;
	total: number;
}

export interface ListWalk<T extends ListedItem> {
	path: string;
	qs: IDataObject;
	/** The page size the service takes (lowered when refused; the caller remembers it). */
	size: PageSize;
	/** The oldest change to handle; undefined: the whole list (a first poll's baseline). */
	floor: number | undefined;
	hint?: WalkHint;
	budget: Budget;
	/** Handles items, oldest change first; returns how many (fewer: the poll stops there). */
	handle(items: T[]): Promise<number>;
	/** Whether the handler can still take items (no page is read for nothing). */
	more?: () => boolean;
}

/** How a walk ended: at the top of the list, out of budget, on a list in another order, or unable to meet its last read. */
export type WalkEnd = 'top' | 'budget' | 'unordered' | 'lost';

export interface WalkResult {
	end: WalkEnd;
	hint?: WalkHint;
	/** The newest change on the list's first page when the walk began. */
	newest?: number;
}

interface Window<T> {
	items: T[];
	/** The offset of items[0] in the list. */
	top: number;
	limit: number;
	total?: number;
	hasNext: boolean;
}

/** Reads again lower this many times when a window meets nothing read before. */
const RETRIES = 3;

export async function walkList<T extends ListedItem>(
	this: IPollFunctions,
	walk: ListWalk<T>,
): Promise<WalkResult> {
	const first = await readWindow(this, walk, 1, walk.size.limit);
	if (typeof first === 'string') return { end: first };
	const top = first.items.length > 0 ? changedAt(first.items[0]) : NaN;
	const newest = Number.isFinite(top) ? top : undefined;
	return { ...(await walkFrom(this, walk, first)), newest };
}

async function walkFrom<T extends ListedItem>(
	context: IPollFunctions,
	walk: ListWalk<T>,
	first: Window<T>,
): Promise<WalkResult> {
	if (!isOrdered(first.items)) return { end: 'unordered' };
	if (first.items.length === 0 || reaches(first, walk.floor))
		return await walkUp(context, walk, first);
	// A short way to the floor is read from the top (cheaper: whole pages, no search).
	const down = await readDown(context, walk, first);
	if (typeof down === 'string') return { end: down };
	if (down.reached) return await handleRead(walk, down.items, first.total);
	const start = await locate(context, walk, first, down.pages + 1);
	if ('end' in start) return start;
	return await walkUp(context, walk, start);
}

/** From the start window up to the top, window by window, while the budget allows. */
async function walkUp<T extends ListedItem>(
	context: IPollFunctions,
	walk: ListWalk<T>,
	start: Window<T>,
): Promise<WalkResult> {
	const read = new Map<string, number>();
	let window = start;
	let fresh = start.items.filter((i) => walk.floor === undefined || changedAt(i) >= walk.floor);
	// No room below the last read at first: the list rarely moves during a poll.
	let slack = 0;
	for (;;) {
		for (const item of window.items) read.set(item.id, changedAt(item));
		const ascending = [...fresh].reverse();
		const handled = ascending.length === 0 ? 0 : await walk.handle(ascending);
		const at = (offset: number) => hintAt(offset, window.total);
		if (handled < ascending.length)
			return { end: 'budget', hint: at(window.top + fresh.length - handled) };
		if (window.top === 0) return { end: 'top', hint: at(0) };
		if (!walk.budget.allows('list') || walk.more?.() === false)
			return { end: 'budget', hint: at(window.top) };
		const next = await readAbove(context, walk, window, read, slack);
		if (typeof next === 'string') return { end: next, hint: at(window.top) };
		slack = next.slack;
		fresh = next.window.items.slice(0, next.meets);
		window = next.window;
	}
}

/**
 * Pages 2, 3, ... until the floor, when the way there looks short: at most as many pages as a
 * quarter of the time left pays for. Changes arriving meanwhile push items down (read twice,
 * kept once); fewer items than at the start could hide one, so that read is not used.
 */
async function readDown<T extends ListedItem>(
	context: IPollFunctions,
	walk: ListWalk<T>,
	first: Window<T>,
): Promise<{ items: T[]; reached: boolean; pages: number } | WalkEnd> {
	const most = topDownPages(walk, first);
	const items = [...first.items];
	let page = 1;
	while (page < most && walk.budget.allows('list')) {
		const next = await readWindow(context, walk, page + 1, first.limit);
		if (typeof next === 'string') return next;
		if (!isOrdered(next.items)) return 'unordered';
		if (next.total !== undefined && first.total !== undefined && next.total < first.total) break;
		page++;
		items.push(...next.items);
		if (next.items.length === 0 || reaches(next, walk.floor))
			return { items, reached: true, pages: page };
	}
	return { items, reached: false, pages: page };
}

/** How many pages to read from the top: 1 when the floor looks farther than the budget pays for. */
function topDownPages(walk: ListWalk<ListedItem>, first: Window<ListedItem>): number {
	const affordable = 1 + walk.budget.affordable('list');
	const pages = (offset: number) => Math.floor(offset / first.limit) + 1;
	let needed: number | undefined;
	if (walk.floor !== undefined && walk.hint && first.total !== undefined)
		needed = pages(walk.hint.offset + Math.max(0, first.total - walk.hint.total));
	else if (first.total !== undefined) needed = pages(Math.max(0, first.total - 1));
	return needed !== undefined && needed <= affordable ? affordable : 1;
}

/** Items read from the top down to the floor, handled oldest first. */
async function handleRead<T extends ListedItem>(
	walk: ListWalk<T>,
	items: T[],
	total: number | undefined,
): Promise<WalkResult> {
	const ids = new Set<string>();
	const newestFirst = items.filter((item) => !ids.has(item.id) && ids.add(item.id));
	const fresh = newestFirst.filter((i) => walk.floor === undefined || changedAt(i) >= walk.floor);
	const ascending = [...fresh].reverse();
	const handled = ascending.length === 0 ? 0 : await walk.handle(ascending);
	if (handled < ascending.length)
		return { end: 'budget', hint: hintAt(fresh.length - handled, total) };
	return { end: 'top', hint: hintAt(0, total) };
}

/** The window above `below`, meeting what was read: the index of its first item read before. */
async function readAbove<T extends ListedItem>(
	context: IPollFunctions,
	walk: ListWalk<T>,
	below: Window<T>,
	read: Map<string, number>,
	slack: number,
): Promise<{ window: Window<T>; meets: number; slack: number } | WalkEnd> {
	const anchor = below.items[0];
	for (let attempt = 0; attempt <= RETRIES; attempt++) {
		const place = windowAbove(below.top, slack, walk.size.limit);
		if (!place) return 'lost';
		if (attempt > 0 && !walk.budget.allows('list')) return 'budget';
		const window = await readWindow(context, walk, place.page, place.limit);
		if (typeof window === 'string') return window;
		if (!isOrdered(window.items)) return 'unordered';
		const meets = window.items.findIndex((item) => read.get(item.id) === changedAt(item));
		if (meets >= 0) {
			// How far the list moved since the last read: later reads leave that much room.
			const at = window.items.findIndex((item) => item.id === anchor.id);
			const moved = at >= 0 ? Math.abs(at - (below.top - window.top)) : 0;
			return { window, meets, slack: 2 * moved };
		}
		// Nothing read before in it: the list moved down by more than the room left; lower.
		const grew = (window.total ?? 0) - (below.total ?? 0);
		slack = Math.max(slack * 2, grew, 1);
	}
	return 'lost';
}

const hintAt = (offset: number, total: number | undefined): WalkHint | undefined =>
	total === undefined ? undefined : { offset, total };

/**
 * The page and size whose window holds the items above offset `top` and reaches `slack`
 * items below it: as many new items as one read can give, sizes from half the page size up.
 */
export function windowAbove(
	top: number,
	slack: number,
	pageSize: number,
): { page: number; limit: number } | undefined {
	if (top + slack < pageSize) return { page: 1, limit: pageSize };
	let best: { page: number; limit: number; gain: number } | undefined;
	for (let limit = pageSize; limit >= Math.ceil(pageSize / 2); limit--) {
		const page = Math.floor((top + slack) / limit) + 1;
		const gain = top - (page - 1) * limit;
		if (gain >= 1 && (!best || gain > best.gain)) best = { page, limit, gain };
	}
	return best && { page: best.page, limit: best.limit };
}

/**
 * The first window of a walk: where the list passes the floor (or its last page), from page
 * `lo` on. A search the budget ends keeps what it learned: the next poll starts its search
 * there (the hint), so a long search goes on over several polls instead of starting again.
 */
async function locate<T extends ListedItem>(
	context: IPollFunctions,
	walk: ListWalk<T>,
	first: Window<T>,
	lo: number,
): Promise<Window<T> | WalkResult> {
	const limit = first.limit;
	// Without a total (or one the first page already contradicts) the pages are probed doubling.
	const known = first.total !== undefined && first.total > limit;
	const bounds = { lo, hi: known ? Math.ceil(first.total! / limit) : Infinity };
	let guess = firstGuess(walk.floor, walk.hint, first, bounds);
	let neighbour = true;
	let below: Window<T> | undefined;
	const searched = () => hintAt((bounds.lo - 1) * limit, first.total);
	while (bounds.lo <= bounds.hi) {
		if (!walk.budget.allows('list')) return { end: 'budget', hint: searched() };
		const page = probePage(guess, bounds);
		const window = await readWindow(context, walk, page, limit);
		if (typeof window === 'string') return { end: window, hint: searched() };
		if (window.items.length === 0) {
			bounds.hi = page - 1;
			guess = undefined;
			continue;
		}
		if (!isOrdered(window.items)) return { end: 'unordered' };
		const wholeBelow = walk.floor !== undefined && changedAt(window.items[0]) < walk.floor;
		if (!wholeBelow && reaches(window, walk.floor)) return window;
		if (wholeBelow) below = window;
		if (wholeBelow) bounds.hi = page - 1;
		else bounds.lo = page + 1;
		// From a guess, its neighbour once: the start is usually next to it; then halving.
		guess = guess !== undefined && neighbour ? (wholeBelow ? page - 1 : page + 1) : undefined;
		neighbour = false;
	}
	return below ?? { end: 'lost' };
}

/**
 * Where the start probably is: the page the last walk's offset moved to (by the list's growth);
 * without one, the page the floor falls on if changes came at the first page's pace; the last
 * page for a whole-list walk.
 */
function firstGuess(
	floor: number | undefined,
	hint: WalkHint | undefined,
	first: Window<ListedItem>,
	bounds: { lo: number; hi: number },
): number | undefined {
	const pageOf = (offset: number) =>
		Math.max(bounds.lo, Math.min(bounds.hi, Math.floor(offset / first.limit) + 1));
	if (floor === undefined) return Number.isFinite(bounds.hi) ? bounds.hi : undefined;
	if (hint && first.total !== undefined)
		return pageOf(hint.offset + Math.max(0, first.total - hint.total));
	const newest = changedAt(first.items[0]);
	const oldest = changedAt(first.items[first.items.length - 1]);
	const pace = (newest - oldest) / Math.max(1, first.items.length - 1);
	if (!(pace > 0) || !Number.isFinite(pace)) return undefined;
	return pageOf(Math.round((newest - floor) / pace));
}

function probePage(guess: number | undefined, { lo, hi }: { lo: number; hi: number }): number {
	if (guess !== undefined && guess >= lo && guess <= hi) return guess;
	return Number.isFinite(hi) ? Math.floor((lo + hi) / 2) : lo * 2;
}

/** The window reaches the floor (holds an older change) or is the list's last page. */
function reaches(window: Window<ListedItem>, floor: number | undefined): boolean {
	if (!window.hasNext) return true;
	const last = window.items[window.items.length - 1];
	return floor !== undefined && last !== undefined && changedAt(last) < floor;
}

const isOrdered = (items: ListedItem[]): boolean =>
	items.every((item, k) => k === 0 || changedAt(item) <= changedAt(items[k - 1]));

/** One read of `limit` items at `page`; 'lost' when the service pages by another size. */
async function readWindow<T extends ListedItem>(
	context: IPollFunctions,
	walk: ListWalk<T>,
	page: number,
	limit: number,
): Promise<Window<T> | WalkEnd> {
	// The first page at the size in use may be refused and lowered (readPage): the caller keeps it.
	const size = page === 1 && limit === walk.size.limit ? walk.size : { limit };
	let response: Page<T>;
	try {
		response = (await walk.budget.timed('list', async () =>
			readPage.call(context, walk.path, walk.qs, page, size),
		)) as Page<T>;
	} catch (error) {
		// A read slower than any before it, cut by the budget's end: the walk ends there and
		// the poll emits what it handled (a loaded n8n can take longer than the service).
		if (walk.budget.cut(error)) return 'budget';
		throw asNodeError(context, error);
	}
	const items = (Array.isArray(response.items) ? response.items : []).filter(
		(item): item is T => item !== null && typeof item === 'object' && typeof item.id === 'string',
	);
	const asked = { limit: size.limit };
	followShortPage(context, response, asked, walk.path, page);
	if (asked.limit !== size.limit) {
		// The service pages by a smaller size than asked: offsets differ, the next poll uses it.
		walk.size.limit = Math.min(walk.size.limit, asked.limit);
		return 'lost';
	}
	const total = Number(response.pageInfo?.total);
	return {
		items,
		top: (page - 1) * size.limit,
		limit: size.limit,
		total: Number.isInteger(total) && total >= 0 ? total : undefined,
		hasNext: response.pageInfo?.hasNext === true && items.length > 0,
	};
}

/** An error as n8n shows a node's: the transport's are already (NodeApiError); others are wrapped. */
export function asNodeError(context: IPollFunctions, error: unknown): Error {
	return error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(context.getNode(), error as Error);
}
