import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { GUESSED_VALUES } from '../../../shared/api/assumptions';
import { CreditTransactionsQuerySchema } from '../../../shared/api/schemas';
import { listOutput, listPanel } from '../shared/list';
import { enumOptions } from '../shared/params';

export const description = listPanel('credit', 'getTransactions', [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: enumOptions(
			{ options: GUESSED_VALUES.creditTransactionTypes },
			{
				consume: { name: 'Consume', description: 'Credits used, e.g. by Aadhaar signing' },
				purchase: { name: 'Purchase', description: 'Credits bought' },
				refund: { name: 'Refund', description: 'Credits given back' },
				adjustment: { name: 'Adjustment', description: 'Manual corrections' },
			},
		),
		default: 'consume',
		hint: 'Other values your service uses can be given as an expression: the node sends any value',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const filters = CreditTransactionsQuerySchema.pick({ type: true });
	return await listOutput.call(this, i, apiPath('creditTransactions'), filters);
}
