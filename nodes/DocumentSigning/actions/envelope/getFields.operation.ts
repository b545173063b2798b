import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { simplifyOutput } from '../shared/output';

const properties: INodeProperties[] = [envelopeIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['getFields'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const response = (await apiRequest.call(this, 'GET', apiPath('envelopeFields', envelopeId), {
		itemIndex: i,
	})) as IDataObject;
	const items = Array.isArray(response.items) ? (response.items as IDataObject[]) : [];
	const total = typeof response.total === 'number' ? response.total : items.length;
	// Fields of the answer beyond items and total stay.
	return simplifyOutput.call(this, i, [{ json: { envelopeId, ...response, items, total } }]);
}
