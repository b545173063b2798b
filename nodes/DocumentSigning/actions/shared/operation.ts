import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, type ApiRequestOptions } from '../../../shared/http/transport';
import type { DocumentSigningMap, DocumentSigningResource } from '../node.type';

/**
 * The two steps most operation files share: the panel shown under one resource and
 * operation (n8n's updateDisplayOptions), and one API request for the item.
 */

/** An operation's panel: `properties`, shown only under `resource` > `operation`. */
export function operationPanel<R extends DocumentSigningResource>(
	resource: R,
	operation: DocumentSigningMap[R],
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource], operation: [operation] } },
		properties,
	);
}

/** One API request for item `i` (its errors name the item); the answer's JSON. */
export async function callApi(
	this: IExecuteFunctions,
	i: number,
	method: IHttpRequestMethods,
	path: string,
	options: Omit<ApiRequestOptions, 'itemIndex'> = {},
): Promise<IDataObject> {
	return (await apiRequest.call(this, method, path, { ...options, itemIndex: i })) as IDataObject;
}
