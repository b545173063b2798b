import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { TemplateListQuerySchema, TemplateStatusSchema } from '../../../shared/api/schemas';
import { listAll, listProperties } from '../shared/list';
import { enumOptions } from '../shared/params';
import { simplifyOutput } from '../shared/output';

const show = { resource: ['template'], operation: ['getMany'] };

const properties: INodeProperties[] = listProperties(show, [
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

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return simplifyOutput.call(
		this,
		i,
		await listAll.call(
			this,
			i,
			apiPath('templates'),
			TemplateListQuerySchema.pick({ status: true, search: true }),
		),
	);
}
