import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CreditTransactionsQuerySchema, CreditTransactionTypeSchema } from '../../../shared/schemas';
import { listAll, listProperties } from '../shared/list';
import { enumOptions } from '../shared/params';
import { simplifyOutput } from '../shared/simplify';

const show = { resource: ['credit'], operation: ['getTransactions'] };

const properties: INodeProperties[] = listProperties(show, [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: enumOptions(CreditTransactionTypeSchema, {
			consume: { name: 'Consume', description: 'Credits used, e.g. by Aadhaar signing' },
			purchase: { name: 'Purchase', description: 'Credits bought' },
			refund: { name: 'Refund', description: 'Credits given back' },
			adjustment: { name: 'Adjustment', description: 'Manual corrections' },
		}),
		default: 'consume',
	},
]);

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return simplifyOutput.call(this, i, await listAll.call(this, i, 'creditTransactions', CreditTransactionsQuerySchema.pick({ type: true })));
}
