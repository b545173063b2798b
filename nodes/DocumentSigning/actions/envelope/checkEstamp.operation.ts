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

const properties: INodeProperties[] = [
	{
		...envelopeIdProperty,
		hint: "Queues an immediate check of a pending e-stamp with the provider. The result is not in this answer: read it later with Get Status or wait for the trigger's e-stamp events.",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['checkEstamp'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	// Asking twice only queues the same check again: safe to resend.
	const response = (await apiRequest.call(
		this,
		'POST',
		apiPath('envelopeEstampCheck', envelopeId),
		{
			idempotent: true,
			itemIndex: i,
		},
	)) as IDataObject;
	return [{ json: response }];
}
