import type { INodeProperties, NodeHint } from 'n8n-workflow';

import * as getBalance from './getBalance.operation';
import * as getTransactions from './getTransactions.operation';
import * as getUsage from './getUsage.operation';

export { getBalance, getTransactions, getUsage };

/** Node hints of the credit operations (the node adds every resource's). */
export const hints: NodeHint[] = [...getBalance.hints];

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['credit'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description:
					"Get the credit balance of the API key's workspace and which balance it is (context)",
				action: 'Get the credit balance',
			},
			{
				name: 'Get Transactions',
				value: 'getTransactions',
				description:
					"List the credit transactions of the API key's workspace, one item each, newest first, optionally of one type",
				action: 'Get credit transactions',
			},
			{
				name: 'Get Usage',
				value: 'getUsage',
				description: 'Get the credits used in a period, with a breakdown',
				action: 'Get credit usage',
			},
		],
		default: 'getBalance',
	},
	...getBalance.description,
	...getTransactions.description,
	...getUsage.description,
];
