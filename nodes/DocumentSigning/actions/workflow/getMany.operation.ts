import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimit } from '../../../shared/pagination';
import { WorkflowListQuerySchema } from '../../../shared/schemas';
import { listAll } from '../shared/list';
import { simplifyOutput } from '../shared/simplify';

const show = { resource: ['workflow'], operation: ['getMany'] };

const properties: INodeProperties[] = [
	...returnAllOrLimit({ show }),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return simplifyOutput.call(this, i, await listAll.call(this, i, 'workflows', WorkflowListQuerySchema.pick({})));
}
