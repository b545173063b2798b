import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName:
			"Outputs the balance of the API key's workspace. Its <code>context</code> field says which balance it is: <code>personal</code> (a personal key), <code>organization_wallet</code> (the organization's wallet, for an owner's or admin's key) or <code>organization_member_allocation</code> (the credits allocated to a member).",
		name: 'getBalanceNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['credit'], operation: ['getBalance'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const response = (await apiRequest.call(this, 'GET', apiPath('creditBalance'), { itemIndex: i })) as IDataObject;
	return [{ json: response }];
}
