// Placeholder until the full envelope operations land; they replace this file.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Envelope ID',
		name: 'envelopeId',
		type: 'string',
		default: '',
		required: true,
		description: 'ID of the envelope to read the signing progress of',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['getStatus'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const envelopeId = String(this.getNodeParameter('envelopeId', itemIndex)).trim();
	if (!envelopeId) {
		throw new NodeOperationError(this.getNode(), 'Envelope ID: a value is required', { itemIndex });
	}
	const progress = (await apiRequest.call(
		this,
		'GET',
		`/envelopes/${encodeURIComponent(envelopeId)}/status`,
		{ itemIndex },
	)) as IDataObject;
	return [{ json: progress }];
}
