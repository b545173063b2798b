import type { INodeProperties } from 'n8n-workflow';

import * as getBalance from './getBalance.operation';
import * as getTransactions from './getTransactions.operation';
import * as getUsage from './getUsage.operation';

export { getBalance, getTransactions, getUsage };

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
				description: "Get the credit balance of the API key's workspace",
				action: 'Get the credit balance',
			},
			{
				name: 'Get Transactions',
				value: 'getTransactions',
				description: 'List credit transactions, optionally of one type',
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
