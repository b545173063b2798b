import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { TemplateListQuerySchema, TemplateStatusSchema } from '../../../shared/api/schemas';
import { listOutput, listPanel } from '../shared/list';
import { enumOptions } from '../shared/params';

export const description = listPanel('template', 'getMany', [
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
			active: {
				name: 'Active',
				description: 'Templates documents can be created from (the default)',
			},
			archived: { name: 'Archived', description: 'Archived templates only' },
		}),
		default: 'active',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const filters = TemplateListQuerySchema.pick({ status: true, search: true });
	return await listOutput.call(this, i, apiPath('templates'), filters);
}
