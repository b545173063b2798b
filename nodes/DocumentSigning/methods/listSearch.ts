import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiPath } from '../../shared/api/endpoints';
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

/** Envelopes of the key's workspace for the envelope picker, searched by title. */
export async function searchEnvelopes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(this, apiPath('envelopes'), 'title', {}, filter, paginationToken);
}

/** Draft envelopes only: the picker of operations that need a draft (Send, Add Recipients). */
export async function searchDraftEnvelopes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(
		this,
		apiPath('envelopes'),
		'title',
		{ status: 'draft' },
		filter,
		paginationToken,
	);
}

/** Active templates of the key's workspace for the template picker, searched by name. */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(
		this,
		apiPath('templates'),
		'name',
		{ status: 'active' },
		filter,
		paginationToken,
	);
}

/** Archived templates only: the picker of Restore. */
export async function searchArchivedTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(
		this,
		apiPath('templates'),
		'name',
		{ status: 'archived' },
		filter,
		paginationToken,
	);
}

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
