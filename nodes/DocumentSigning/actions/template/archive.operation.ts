import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { setTemplateStatus } from './setStatus';
import { templateIdProperty } from '../shared/locators';

const properties: INodeProperties[] = [
	{
		...templateIdProperty,
		hint: 'Lists hide an archived template unless filtered by status Archived; Restore makes it active again. Only its owner can archive it.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['archive'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await setTemplateStatus.call(this, i, 'archived');
}
