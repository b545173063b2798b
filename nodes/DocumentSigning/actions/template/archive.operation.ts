import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { setTemplateStatus } from './setStatus';
import { templateIdProperty } from './templateLocator';

const properties: INodeProperties[] = [
	templateIdProperty,
	{
		displayName:
			'No document can be created from an archived template, and lists hide it unless filtered by status Archived. Restore makes it active again. Only its owner can archive it.',
		name: 'archiveNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['archive'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await setTemplateStatus.call(this, i, 'archived');
}
