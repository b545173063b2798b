import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';

export const description = operationPanel('envelope', 'checkEstamp', [
	{
		...envelopeIdProperty,
		hint: "Queues an immediate check of a pending e-stamp with the provider. The result is not in this answer: read it later with Get Status or wait for the trigger's e-stamp events.",
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	// Asking twice only queues the same check again: safe to resend.
	const path = apiPath('envelopeEstampCheck', envelopeId);
	return [{ json: await callApi.call(this, i, 'POST', path, { idempotent: true }) }];
}
