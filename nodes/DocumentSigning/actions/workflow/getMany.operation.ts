import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../../shared/http/pagination';
import { explainGuessedPath, guessedPath } from '../../../shared/http/paths';
import { WorkflowListQuerySchema } from '../../../shared/api/schemas';
import { listAll } from '../shared/list';
import { simplifyOutput } from '../shared/output';

const show = { resource: ['workflow'], operation: ['getMany'] };

const properties: INodeProperties[] = [
	{
		displayName:
			'Read from the path the credential sets ("Signing Workflow List Path", default /workflows)',
		name: 'guessedPathNotice',
		type: 'notice',
		default: '',
	},
	...returnAllOrLimit({ show }),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const path = await guessedPath.call(this, 'workflows');
	try {
		return simplifyOutput.call(
			this,
			i,
			await listAll.call(this, i, path, WorkflowListQuerySchema.pick({})),
		);
	} catch (error) {
		throw explainGuessedPath(error, 'workflows', path);
	}
}
