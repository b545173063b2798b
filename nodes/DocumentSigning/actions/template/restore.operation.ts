import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { setTemplateStatus } from './setStatus';
import { archivedTemplateIdProperty } from '../shared/locators';

const properties: INodeProperties[] = [archivedTemplateIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['restore'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await setTemplateStatus.call(this, i, 'active');
}
