import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { ZodTypeAny } from 'zod/v3';

import {
	apiRequestAllItems,
	DEFAULT_MAX_ITEMS,
	LIST_ITEMS_CEILING,
	returnAllOrLimit,
} from '../../../shared/http/pagination';
import { limitValue, validateInput } from '../../../shared/api/validation';
import { compact } from './params';
import { toggle } from '../../../shared/api/parameters';
import type { DocumentSigningMap, DocumentSigningResource } from '../node.type';
import { operationPanel } from './operation';
import { simplifyOutput } from './output';

/** The panel of a Get Many: Return All / Limit, then a Filters collection holding `filters`. */
export function listPanel<R extends DocumentSigningResource>(
	resource: R,
	operation: DocumentSigningMap[R],
	filters: INodeProperties[],
): INodeProperties[] {
	const show = { resource: [resource], operation: [operation] };
	return operationPanel(resource, operation, [
		...returnAllOrLimit({ show }),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: filters,
		},
	]);
}

/**
 * A Get Many: the item's Filters collection checked by `filterSchema` (page and limit
 * are the pagination helper's), then every page of `endpoint` as Return All / Limit
 * ask. One output item per listed object. `path` is the list's path (apiPath or the
 * credential's path of a guessed list).
 */
export async function listAll(
	this: IExecuteFunctions,
	i: number,
	path: string,
	filterSchema: ZodTypeAny,
): Promise<INodeExecutionData[]> {
	const returnAll = toggle(this.getNodeParameter('returnAll', i, false), false);
	const limit = returnAll
		? undefined
		: limitValue(this, 'Limit', this.getNodeParameter('limit', i, 50), LIST_ITEMS_CEILING, i);
	const maxItems = returnAll
		? limitValue(
				this,
				'Max Items',
				this.getNodeParameter('maxItems', i, DEFAULT_MAX_ITEMS),
				LIST_ITEMS_CEILING,
				i,
			)
		: undefined;
	const filters = compact(this.getNodeParameter('filters', i, {}) as IDataObject) ?? {};

	validateInput(this, filterSchema, filters, i, 'filters');

	const items = (await apiRequestAllItems.call(this, path, filters, {
		returnAll,
		limit,
		maxItems,
		itemIndex: i,
	})) as IDataObject[];
	return items.map((json) => ({ json }));
}

/** A Get Many's output: `listAll`, each listed object shaped by `each`, then as Output asks. */
export async function listOutput(
	this: IExecuteFunctions,
	i: number,
	path: string,
	filterSchema: ZodTypeAny,
	each: (listed: IDataObject) => IDataObject = (listed) => listed,
): Promise<INodeExecutionData[]> {
	const items = await listAll.call(this, i, path, filterSchema);
	return simplifyOutput.call(
		this,
		i,
		items.map(({ json }) => ({ json: each(json) })),
	);
}
