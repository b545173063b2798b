import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { ENVELOPE_STATUS_OPTIONS, OTHER_STATUS_HINT } from '../../../shared/api/envelopeStatus';
import { EnvelopeListQuerySchema } from '../../../shared/api/schemas';
import { listOutput, listPanel } from '../shared/list';
import { withEnvelopeId } from '../shared/envelopeId';

export const description = listPanel('envelope', 'getMany', [
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: ENVELOPE_STATUS_OPTIONS,
		default: 'draft',
		hint: OTHER_STATUS_HINT,
	},
	{
		displayName: 'Title Contains',
		name: 'search',
		type: 'string',
		default: '',
		description: 'Only envelopes whose title matches this text',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const filters = EnvelopeListQuerySchema.pick({ status: true, search: true });
	// Each envelope also under `envelopeId`, as every envelope step outputs it (`id` stays).
	return await listOutput.call(this, i, apiPath('envelopes'), filters, (envelope) =>
		withEnvelopeId(envelope, 'envelope'),
	);
}
