import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { EnvelopeListQuerySchema } from '../../../shared/schemas';
import { listAll, listProperties } from '../shared/list';
import { ENVELOPE_STATUS_OPTIONS } from './statusOptions';
import { simplifyOutput } from '../shared/simplify';

const show = { resource: ['envelope'], operation: ['getMany'] };

const properties: INodeProperties[] = listProperties(show, [
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: ENVELOPE_STATUS_OPTIONS,
		default: 'draft',
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
	return simplifyOutput.call(this, i, await listAll.call(this, i, 'envelopes', EnvelopeListQuerySchema.pick({ status: true, search: true })));
}
