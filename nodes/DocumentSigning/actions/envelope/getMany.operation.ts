import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems, returnAllOrLimit } from '../../../shared/pagination';
import { EnvelopeListQuerySchema } from '../../../shared/schemas';
import { validateInput } from '../../../shared/validation';
import { compact } from '../shared/params';
import { ENVELOPE_STATUS_OPTIONS } from './statusOptions';

const show = { resource: ['envelope'], operation: ['getMany'] };

const properties: INodeProperties[] = [
	...returnAllOrLimit({ show }),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
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
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
	const limit = this.getNodeParameter('limit', i, 50) as number;
	const filters = compact(this.getNodeParameter('filters', i, {}) as IDataObject) ?? {};

	// page and limit are set by the pagination helper; only the filters are checked here
	validateInput(this.getNode(), EnvelopeListQuerySchema.pick({ status: true, search: true }), filters, i, 'filters');

	const envelopes = (await apiRequestAllItems.call(this, '/envelopes', filters, {
		returnAll,
		limit,
		itemIndex: i,
	})) as IDataObject[];
	return envelopes.map((envelope) => ({ json: envelope }));
}
