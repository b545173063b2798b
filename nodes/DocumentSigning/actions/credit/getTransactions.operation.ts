import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { GUESSED_VALUES } from '../../../shared/api/assumptions';
import { CreditTransactionsQuerySchema } from '../../../shared/api/schemas';
import { listAll, listProperties } from '../shared/list';
import { enumOptions } from '../shared/params';
import { simplifyOutput } from '../shared/output';

const show = { resource: ['credit'], operation: ['getTransactions'] };

const properties: INodeProperties[] = listProperties(show, [
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

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	return simplifyOutput.call(
		this,
		i,
		await listAll.call(
			this,
			i,
			apiPath('creditTransactions'),
			CreditTransactionsQuerySchema.pick({ type: true }),
		),
	);
}
