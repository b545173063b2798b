import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiPath, type Endpoint } from '../../shared/api/endpoints';
import { explainGuessedPath, guessedPath } from '../../shared/http/paths';
import { apiRequest } from '../../shared/http/transport';

const PAGE_SIZE = 50;

/** Ids longer than this are shortened in the list (the full id is the value). */
const SHORT_ID_LENGTH = 12;

/**
 * The list entry's name: title (or name) and a short id. No status: n8n keeps the name
 * with the saved workflow, where a status would soon be out of date.
 */
function entryName(label: unknown, id: string): string {
	const shortId = id.length > SHORT_ID_LENGTH ? `${id.slice(0, SHORT_ID_LENGTH)}…` : id;
	return `${(label as string) || '(untitled)'} (${shortId})`;
}

/** One page of a list endpoint searched by `filter` (the API's `search`), as picker entries. */
async function searchPage(
	this: ILoadOptionsFunctions,
	path: string,
	labelKey: string,
	query: IDataObject,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const qs: IDataObject = { ...query, page, limit: PAGE_SIZE };
	if (filter) qs.search = filter;

	const response = (await apiRequest.call(this, 'GET', path, { qs })) as IDataObject;
	const items = (response.items as IDataObject[] | undefined) ?? [];
	const pageInfo = (response.pageInfo as IDataObject | undefined) ?? {};

	return {
		results: items.map((item) => ({
			name: entryName(item[labelKey], String(item.id ?? '')),
			value: item.id as string,
		})),
		paginationToken: pageInfo.hasNext ? String(page + 1) : undefined,
	};
}

type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** The picker of a list endpoint, searched by the API's `search` and narrowed by `query`. */
function pickerOf(endpoint: Endpoint, labelKey: string, query: IDataObject = {}): ListSearch {
	return async function (this, filter, paginationToken) {
		return await searchPage.call(this, apiPath(endpoint), labelKey, query, filter, paginationToken);
	};
}

/** Envelopes of the key's workspace for the envelope picker, searched by title. */
export const searchEnvelopes = pickerOf('envelopes', 'title');

/** Draft envelopes only: the picker of operations that need a draft (Send, Add Recipients). */
export const searchDraftEnvelopes = pickerOf('envelopes', 'title', { status: 'draft' });

/** Active templates of the key's workspace for the template picker, searched by name. */
export const searchTemplates = pickerOf('templates', 'name', { status: 'active' });

/** Archived templates only: the picker of Restore. */
export const searchArchivedTemplates = pickerOf('templates', 'name', { status: 'archived' });

/**
 * Signing workflows of the key's workspace, searched by name. The list endpoint has no
 * search parameter, so the name is matched on each page read.
 */
export async function searchWorkflows(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const path = await guessedPath.call(this, 'workflows');
	let page: INodeListSearchResult;
	try {
		page = await searchPage.call(this, path, 'name', {}, undefined, paginationToken);
	} catch (error) {
		throw explainGuessedPath(error, 'workflows', path);
	}
	const wanted = filter?.trim().toLowerCase();
	if (!wanted) return page;
	return {
		...page,
		results: page.results.filter((entry) => entry.name.toLowerCase().includes(wanted)),
	};
}
