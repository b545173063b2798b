import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { setTemplateStatus } from './setStatus';
import { archivedTemplateIdProperty } from '../shared/locators';
import { operationPanel } from '../shared/operation';

export const description = operationPanel('template', 'restore', [archivedTemplateIdProperty]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return await setTemplateStatus.call(this, i, 'active');
}
