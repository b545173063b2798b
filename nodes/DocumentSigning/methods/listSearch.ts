import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';

const PAGE_SIZE = 50;

/** Envelopes of the key's workspace for the envelope picker, searched by title. */
export async function searchEnvelopes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const qs: IDataObject = { page, limit: PAGE_SIZE };
	if (filter) qs.search = filter;

	const response = (await apiRequest.call(this, 'GET', '/envelopes', { qs })) as IDataObject;
	const items = (response.items as IDataObject[] | undefined) ?? [];
	const pageInfo = (response.pageInfo as IDataObject | undefined) ?? {};

	return {
		results: items.map((envelope) => ({
			name: `${(envelope.title as string) || '(untitled)'} · ${envelope.status as string}`,
			value: envelope.id as string,
		})),
		paginationToken: pageInfo.hasNext ? String(page + 1) : undefined,
	};
}
