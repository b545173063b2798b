import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';
import { simplifyOutput } from '../shared/output';

export const description = operationPanel('envelope', 'getStatus', [envelopeIdProperty]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const progress = await callApi.call(this, i, 'GET', apiPath('envelopeStatus', envelopeId));
	return simplifyOutput.call(this, i, [{ json: progress }]);
}
