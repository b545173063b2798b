import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { DEFAULTS } from './assumptions';
import type { ApiContext } from './transport';
import { apiRequest } from './transport';

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

/**
 * Reads a paginated list over `page` and `limit` until `pageInfo.hasNext` is false.
 * `returnAll` asks for the API's largest page; otherwise pages of min(limit, max) are
 * read and the result stops at `limit` items.
 */
export async function apiRequestAllItems<T = IDataObject>(
	this: ApiContext,
	endpoint: string,
	qs: IDataObject,
	opts: { returnAll: boolean; limit?: number; itemIndex?: number },
): Promise<T[]> {
	const wanted = opts.returnAll ? Infinity : Math.max(1, Math.floor(opts.limit ?? DEFAULTS.limit));
	const pageSize = Math.min(wanted, DEFAULTS.maxLimit);
	const results: T[] = [];

	for (let page = DEFAULTS.page; ; page++) {
		const response = (await apiRequest.call(this, 'GET', endpoint, {
			qs: { ...qs, page, limit: pageSize },
			itemIndex: opts.itemIndex,
		})) as Page<T>;
		const items = Array.isArray(response.items) ? response.items : [];
		results.push(...items);

		if (results.length >= wanted) return results.slice(0, wanted);
		// An empty page ends the loop even if the service claims more, so it cannot spin.
		if (!response.pageInfo?.hasNext || items.length === 0) return results;
	}
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
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: {
				...displayOptions,
				show: { ...(displayOptions?.show ?? {}), returnAll: [false] },
			},
		},
	];
}
