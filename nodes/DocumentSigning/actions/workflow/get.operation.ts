import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { guessedRequest } from '../../../shared/http/paths';
import { getWorkflowId, workflowIdProperty } from '../shared/locators';
import { operationPanel } from '../shared/operation';
import { simplifyOutput } from '../shared/output';

export const description = operationPanel('workflow', 'get', [
	{
		...workflowIdProperty,
		hint: "Read from the credential's Signing Workflow Get Path (default /workflows/{workflowId}); the option below says how much of the answer is returned",
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const id = getWorkflowId.call(this, i);
	const response = (await guessedRequest.call(this, 'workflow', {
		id,
		itemIndex: i,
	})) as IDataObject;
	return simplifyOutput.call(this, i, [{ json: response }]);
}
