import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { WorkflowCreateSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { validateInput } from '../../../shared/api/validation';
import { compact, readText } from '../shared/params';
import { configProperties, readConfig } from './config';

const show = { resource: ['workflow'], operation: ['create'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Property sale',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
	},
	...configProperties(show),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	// The name is sent even when empty, so the schema says "is required" for it.
	const body = {
		name: readText.call(this, 'name', i, 'Name'),
		...compact({ description: readText.call(this, 'description', i, 'Description') }),
		config: readConfig.call(this, i),
	};
	const checked = validateInput(this, WorkflowCreateSchema, body, i, 'signing workflow');
	// A create that may have arrived is never sent again (no idempotency key on this endpoint).
	const response = (await apiRequest.call(this, 'POST', apiPath('workflows'), {
		body: checked as IDataObject,
		itemIndex: i,
	})) as IDataObject;
	return [{ json: response }];
}
