import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';
import { simplifyOutput } from '../shared/output';

export const description = operationPanel('envelope', 'getFields', [envelopeIdProperty]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const response = await callApi.call(this, i, 'GET', apiPath('envelopeFields', envelopeId));
	const items = Array.isArray(response.items) ? (response.items as IDataObject[]) : [];
	const total = typeof response.total === 'number' ? response.total : items.length;
	// Fields of the answer beyond items and total stay.
	return simplifyOutput.call(this, i, [{ json: { envelopeId, ...response, items, total } }]);
}
