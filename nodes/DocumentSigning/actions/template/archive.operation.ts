import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { setTemplateStatus } from './setStatus';
import { templateIdProperty } from '../shared/locators';
import { operationPanel } from '../shared/operation';

export const description = operationPanel('template', 'archive', [
	{
		...templateIdProperty,
		hint: 'Lists hide an archived template unless filtered by status Archived; Restore makes it active again. Only its owner can archive it.',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await setTemplateStatus.call(this, i, 'archived');
}
