import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import { apiRequestAllItems, returnAllOrLimit } from '../../../shared/pagination';
import { TemplateListQuerySchema, TemplateStatusSchema } from '../../../shared/schemas';
import { validateInput } from '../../../shared/validation';
import { compact, enumOptions } from '../shared/params';

const show = { resource: ['template'], operation: ['getMany'] };

const properties: INodeProperties[] = [
	{
		displayName:
			"Outputs one item per template. Only templates of the API key's workspace are listed (an organization key lists the organization's templates).",
		name: 'getManyTemplatesNotice',
		type: 'notice',
		default: '',
	},
	...returnAllOrLimit({ show }),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Name Contains',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Only templates whose name matches this text',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: enumOptions(TemplateStatusSchema, {
					active: { name: 'Active', description: 'Templates documents can be created from (the default)' },
					archived: { name: 'Archived', description: 'Archived templates only' },
				}),
				default: 'active',
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
	validateInput(this.getNode(), TemplateListQuerySchema.pick({ status: true, search: true }), filters, i, 'filters');

	const templates = (await apiRequestAllItems.call(this, apiPath('templates'), filters, {
		returnAll,
		limit,
		itemIndex: i,
	})) as IDataObject[];
	return templates.map((template) => ({ json: template }));
}
