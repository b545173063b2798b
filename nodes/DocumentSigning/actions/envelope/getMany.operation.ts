import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { ENVELOPE_STATUS_OPTIONS, OTHER_STATUS_HINT } from '../../../shared/api/envelopeStatus';
import { EnvelopeListQuerySchema } from '../../../shared/api/schemas';
import { listAll, listProperties } from '../shared/list';
import { withEnvelopeId } from '../shared/envelopeId';
import { simplifyOutput } from '../shared/output';

const show = { resource: ['envelope'], operation: ['getMany'] };

const properties: INodeProperties[] = listProperties(show, [
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

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const items = await listAll.call(
		this,
		i,
		apiPath('envelopes'),
		EnvelopeListQuerySchema.pick({ status: true, search: true }),
	);
	// Each envelope also under `envelopeId`, as every envelope step outputs it (`id` stays).
	return simplifyOutput.call(
		this,
		i,
		items.map((item) => ({ ...item, json: withEnvelopeId(item.json, 'envelope') })),
	);
}
