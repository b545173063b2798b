import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { WorkflowUpdateSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { validateInput } from '../../../shared/api/validation';
import { readUpdate, type UpdateSpec, updateProperties, whenUpdating } from '../shared/update';
import { configProperties, readConfig } from './config';
import { getWorkflowId, workflowIdProperty } from '../shared/locators';

const show = { resource: ['workflow'], operation: ['update'] };

const update: UpdateSpec = {
	show,
	parts: [
		{
			name: 'Configuration',
			value: 'config',
			description: 'Replaces the whole configuration of the draft',
		},
	],
	description: 'The parts to change; the others stay as they are',
};

const properties: INodeProperties[] = [
	{
		...workflowIdProperty,
		hint: 'Edits the draft version. When the latest version is published, the edit opens a new draft version and the published one stays as it is until you publish again.',
	},
	...updateProperties(update),
	...configProperties(whenUpdating(show, 'config')),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	const { parts, body } = readUpdate.call(this, i, update);
	if (parts.has('config')) body.config = readConfig.call(this, i) as IDataObject;
	const checked = validateInput(this, WorkflowUpdateSchema, body, i, 'signing workflow update');

	// Not sent again after a lost answer: against a published version a second PATCH
	// would open yet another draft.
	const response = (await apiRequest.call(this, 'PATCH', apiPath('workflow', workflowId), {
		body: checked as IDataObject,
		itemIndex: i,
	})) as IDataObject;
	const versionWritten = writtenVersion(response);
	return [{ json: versionWritten === undefined ? response : { ...response, versionWritten } }];
}

/**
 * The version number the edit wrote. The answer's shape is not in the specification:
 * `{ definition, version: { version } }` (the guess) or a version record of 2.11
 * (`{ workflowDefinitionId, version }`). Left out when neither, never a wrong null.
 */
function writtenVersion(response: IDataObject): number | undefined {
	const nested = response.version;
	if (
		nested !== null &&
		typeof nested === 'object' &&
		Number.isInteger((nested as IDataObject).version)
	) {
		return (nested as IDataObject).version as number;
	}
	if (Number.isInteger(nested) && 'workflowDefinitionId' in response) return nested as number;
	return undefined;
}
