import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ASSUMPTIONS_URL, DEFAULTS } from '../api/assumptions';
import { apiErrorFields } from './errors';
import type { ApiContext } from '../run/context';
import { apiRequest } from './transport';

/** The most a Limit or Max Items takes: beyond it a list belongs in several runs. */
export const LIST_ITEMS_CEILING = 100_000;

/** How many items Return All reads at most unless the user's Max Items says otherwise. */
export const DEFAULT_MAX_ITEMS = 10_000;

/** One page of a list endpoint (spec 2.13). */
export interface Page<T> {
	items: T[];
	pageInfo?: {
		page?: number;
		limit?: number;
		total?: number;
		totalPages?: number;
		hasNext?: boolean;
	};
}

/** The page size a list is read with; lowered when the service refuses it. */
export interface PageSize {
	limit: number;
}

/**
 * A `limit` the service refused (400 VALIDATION_ERROR naming `limit`): the largest size its
 * message names below the refused one, else half of it; undefined when the refusal is
 * about something else or the size cannot go lower.
 */
export function lowerLimit(error: unknown, refused: number): number | undefined {
	const { code, fieldErrors, httpCode } = apiErrorFields(error);
	if (code !== 'VALIDATION_ERROR' && httpCode !== '400') return undefined;
	const lines = (fieldErrors ?? []).filter((line) => /^limit\b/i.test(line));
	if (lines.length === 0) return undefined;
	const named = (lines.join(' ').match(/\d+/g) ?? [])
		.map(Number)
		.filter((n) => n >= 1 && n < refused);
	const next = named.length > 0 ? Math.max(...named) : Math.floor(refused / 2);
	return next >= 1 && next < refused ? next : undefined;
}

/**
 * One page of a list. Neither the default nor the largest `limit` is in the specification:
 * a refused size is lowered (and kept in `size` for the next pages) until the service
 * takes it. Only the first page can be asked again: later pages are numbered by the size
 * already in use.
 */
export async function readPage<T>(
	this: ApiContext,
	path: string,
	qs: IDataObject,
	page: number,
	size: PageSize,
	itemIndex?: number,
): Promise<Page<T>> {
	for (;;) {
		try {
			return (await apiRequest.call(this, 'GET', path, {
				qs: { ...qs, page, limit: size.limit },
				itemIndex,
			})) as Page<T>;
		} catch (error) {
			const lower = page === DEFAULTS.page ? lowerLimit(error, size.limit) : undefined;
			if (lower === undefined) {
				throw error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
			size.limit = lower;
		}
	}
}

/**
 * What a page shorter than asked while `hasNext` is true means: a service that pages by a
 * smaller size than asked. When `pageInfo.limit` says which, later pages are read with it
 * (the service numbers pages by its own size, so none is skipped); otherwise the read
 * stops with an error instead of a silently short result.
 */
export function followShortPage(
	context: ApiContext,
	response: Page<unknown>,
	size: PageSize,
	path: string,
	page: number,
	itemIndex?: number,
): void {
	const items = Array.isArray(response.items) ? response.items.length : 0;
	if (!response.pageInfo?.hasNext || items === 0 || items >= size.limit) return;
	const served = Number(response.pageInfo.limit);
	if (Number.isInteger(served) && served >= 1 && served < size.limit) {
		size.limit = served;
		return;
	}
	throw new NodeOperationError(
		context.getNode(),
		`Page ${page} of GET ${path} held ${items} items of the ${size.limit} asked while the service says more follow, and it does not say its page size`,
		{
			itemIndex,
			description: `The largest page size is not in the specification (assumption "List paging", ${ASSUMPTIONS_URL}). Reading on could skip items, so the list is not returned; set Limit at or below the number of items this page held.`,
		},
	);
}

/**
 * Reads a paginated list over `page` and `limit` until `pageInfo.hasNext` is false.
 * `returnAll` asks for the largest page assumed; otherwise pages of min(limit, max) are
 * read and the result stops at `limit` items.
 */
export async function apiRequestAllItems<T = IDataObject>(
	this: ApiContext,
	path: string,
	qs: IDataObject,
	opts: { returnAll: boolean; limit?: number; maxItems?: number; itemIndex?: number },
): Promise<T[]> {
	const wanted = opts.returnAll ? Infinity : Math.max(1, Math.floor(opts.limit ?? DEFAULTS.limit));
	const cap = opts.maxItems ?? DEFAULT_MAX_ITEMS;
	const size: PageSize = { limit: Math.min(wanted, DEFAULTS.maxLimit) };
	const results: T[] = [];
	const seen = new Map<string, number>();

	for (let page = DEFAULTS.page; ; page++) {
		const response = (await readPage.call(this, path, qs, page, size, opts.itemIndex)) as Page<T>;
		const items = Array.isArray(response.items) ? response.items : [];
		checkNotRepeated(this, seen, items, page, path, opts.itemIndex);
		results.push(...items);

		if (results.length >= wanted) return results.slice(0, wanted);
		if (results.length > cap) {
			throw new NodeOperationError(
				this.getNode(),
				`Return All stopped after ${results.length} items of GET ${path}: the list passed Max Items (${cap})`,
				{
					itemIndex: opts.itemIndex,
					description: `Raise Max Items (up to ${LIST_ITEMS_CEILING}) or narrow the list with Filters; nothing is returned rather than a list cut short.`,
				},
			);
		}
		// An empty page ends the loop even if the service claims more, so it cannot spin.
		if (!response.pageInfo?.hasNext || items.length === 0) return results;
		followShortPage(this, response, size, path, page, opts.itemIndex);
	}
}

/**
 * A page holding the same items as an earlier one means the service ignores `page`:
 * reading on would never end, so the read stops naming both pages.
 */
function checkNotRepeated(
	context: ApiContext,
	seen: Map<string, number>,
	items: unknown[],
	page: number,
	path: string,
	itemIndex?: number,
): void {
	if (items.length === 0) return;
	const key = items
		.map((item) => {
			const id = (item as IDataObject | null)?.id;
			return typeof id === 'string' || typeof id === 'number' ? `id:${id}` : JSON.stringify(item);
		})
		.join('\n');
	const earlier = seen.get(key);
	if (earlier !== undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Page ${page} of GET ${path} repeats the items of page ${earlier}: the service does not move on to the next page`,
			{
				itemIndex,
				description:
					'Reading on would never end, so the list is not returned. Check the API Base URL and the list path in the credential.',
			},
		);
	}
	seen.set(key, page);
}

/**
 * The standard "Return All" and "Limit" parameters for a list operation.
 * `displayOptions` (usually `{ show: { resource, operation } }`) is applied to both.
 */
export function returnAllOrLimit(
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: LIST_ITEMS_CEILING, numberPrecision: 0 },
			description: 'Max number of results to return',
			displayOptions: {
				...displayOptions,
				show: { ...(displayOptions?.show ?? {}), returnAll: [false] },
			},
		},
		{
			displayName: 'Max Items',
			name: 'maxItems',
			type: 'number',
			default: DEFAULT_MAX_ITEMS,
			typeOptions: { minValue: 1, maxValue: LIST_ITEMS_CEILING, numberPrecision: 0 },
			description:
				'Return All stops with an error once the list passes this many items, so a list that never ends cannot fill the memory of n8n',
			displayOptions: {
				...displayOptions,
				show: { ...(displayOptions?.show ?? {}), returnAll: [true] },
			},
		},
	];
}
