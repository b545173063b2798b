import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import { apiRequest } from '../../../shared/transport';
import { getWorkflowId, workflowIdProperty } from './workflowLocator';
import { simplifyOutput } from '../shared/simplify';

const properties: INodeProperties[] = [workflowIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['workflow'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	const response = (await apiRequest.call(this, 'GET', apiPath('workflow', workflowId), {
		itemIndex: i,
	})) as IDataObject;
	return simplifyOutput.call(this, i, [{ json: response }]);
}
