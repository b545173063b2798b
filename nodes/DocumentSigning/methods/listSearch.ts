import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';

const PAGE_SIZE = 50;

/** Ids longer than this are shortened in the list (the full id is the value). */
const SHORT_ID_LENGTH = 12;

/**
 * The list entry's name: title and a short id. No status: n8n keeps the name with the
 * saved workflow, where a status would soon be out of date.
 */
function entryName(envelope: IDataObject): string {
	const id = String(envelope.id ?? '');
	const shortId = id.length > SHORT_ID_LENGTH ? `${id.slice(0, SHORT_ID_LENGTH)}…` : id;
	return `${(envelope.title as string) || '(untitled)'} (${shortId})`;
}

async function searchPage(
	this: ILoadOptionsFunctions,
	query: IDataObject,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const qs: IDataObject = { ...query, page, limit: PAGE_SIZE };
	if (filter) qs.search = filter;

	const response = (await apiRequest.call(this, 'GET', '/envelopes', { qs })) as IDataObject;
	const items = (response.items as IDataObject[] | undefined) ?? [];
	const pageInfo = (response.pageInfo as IDataObject | undefined) ?? {};

	return {
		results: items.map((envelope) => ({ name: entryName(envelope), value: envelope.id as string })),
		paginationToken: pageInfo.hasNext ? String(page + 1) : undefined,
	};
}

/** Envelopes of the key's workspace for the envelope picker, searched by title. */
export async function searchEnvelopes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(this, {}, filter, paginationToken);
}

/** Draft envelopes only: the picker of operations that need a draft (Send, Add Recipients). */
export async function searchDraftEnvelopes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPage.call(this, { status: 'draft' }, filter, paginationToken);
}
