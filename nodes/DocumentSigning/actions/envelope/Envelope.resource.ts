// Placeholder with a single operation until the full envelope resource lands; it replaces this file.
import type { INodeProperties } from 'n8n-workflow';

import * as getStatus from './getStatus.operation';

export { getStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['envelope'] } },
		options: [
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Get the signing progress of an envelope',
				action: 'Get the status of an envelope',
			},
		],
		default: 'getStatus',
	},
	...getStatus.description,
];
