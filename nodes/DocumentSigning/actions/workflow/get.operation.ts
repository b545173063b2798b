import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { guessedRequest } from '../../../shared/http/paths';
import { getWorkflowId, workflowIdProperty } from '../shared/locators';
import { simplifyOutput } from '../shared/output';

const properties: INodeProperties[] = [
	{
		...workflowIdProperty,
		hint: "Read from the credential's Signing Workflow Get Path (default /workflows/{workflowId}); the option below says how much of the answer is returned",
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workflow'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	const response = (await guessedRequest.call(this, 'workflow', {
		id: workflowId,
		itemIndex: i,
	})) as IDataObject;
	return simplifyOutput.call(this, i, [{ json: response }]);
}
