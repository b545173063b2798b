import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import { WorkflowUpdateSchema } from '../../../shared/schemas';
import { apiRequest } from '../../../shared/transport';
import { inputError, validateInput } from '../../../shared/validation';
import { configProperties, readConfig } from './config';
import { getWorkflowId, workflowIdProperty } from './workflowLocator';

const show = { resource: ['workflow'], operation: ['update'] };
const when = (part: string) => ({ ...show, updateParts: [part] });

const properties: INodeProperties[] = [
	{
		...workflowIdProperty,
		hint: 'Edits the draft version. When the latest version is published, the edit opens a new draft version and the published one stays as it is until you publish again.',
	},
	{
		displayName: 'What to Update',
		name: 'updateParts',
		type: 'multiOptions',
		options: [
			{ name: 'Configuration', value: 'config', description: 'Replaces the whole configuration of the draft' },
			{ name: 'Description', value: 'description' },
			{ name: 'Name', value: 'name' },
		],
		default: [],
		description: 'The parts to change; the others stay as they are',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: when('name') },
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'New description; empty clears it',
		displayOptions: { show: when('description') },
	},
	...configProperties(when('config')),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	const parts = new Set(this.getNodeParameter('updateParts', i, []) as string[]);
	if (parts.size === 0) {
		throw inputError(
			this.getNode(),
			'What to Update: choose at least one part to change (name, description, configuration)',
			i,
		);
	}
	const body: IDataObject = {};
	if (parts.has('name')) body.name = (this.getNodeParameter('name', i, '') as string).trim();
	if (parts.has('description')) body.description = (this.getNodeParameter('description', i, '') as string).trim();
	if (parts.has('config')) body.config = readConfig.call(this, i) as IDataObject;
	const checked = validateInput(this.getNode(), WorkflowUpdateSchema, body, i, 'signing workflow update');

	// Not sent again after a lost answer: against a published version a second PATCH
	// would open yet another draft.
	const response = (await apiRequest.call(this, 'PATCH', apiPath('workflow', workflowId), {
		body: checked as IDataObject,
		itemIndex: i,
	})) as IDataObject;
	const version = (response.version ?? {}) as IDataObject;
	return [{ json: { ...response, versionWritten: version.version ?? null } }];
}
