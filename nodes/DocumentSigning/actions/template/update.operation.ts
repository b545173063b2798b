import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import { TemplateUpdateSchema } from '../../../shared/schemas';
import { apiRequest } from '../../../shared/transport';
import { inputError, validateInput } from '../../../shared/validation';
import { recipientProperties } from '../shared/recipients';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';
import { formFieldProperties, readFormFields } from './formFields';
import { readTemplateRecipients } from './templateRecipients';
import { getTemplateId, templateIdProperty } from './templateLocator';

const show = { resource: ['template'], operation: ['update'] };
const when = (part: string) => ({ ...show, updateParts: [part] });

const properties: INodeProperties[] = [
	templateIdProperty,
	{
		displayName: 'What to Update',
		name: 'updateParts',
		type: 'multiOptions',
		options: [
			{ name: 'Description', value: 'description' },
			{ name: 'Form Fields', value: 'formFields', description: 'Replaces all form fields' },
			{ name: 'Name', value: 'name' },
			{ name: 'Recipients', value: 'recipients', description: 'Replaces all recipients' },
			{ name: 'Signing Settings', value: 'signingSettings', description: 'Replaces the signing settings' },
		],
		default: [],
		description:
			'The parts to change; the others stay as they are. Lists replace the stored ones: fields assigned to a recipient must name a recipient of the result.',
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
	...recipientProperties(when('recipients'), 'template'),
	...formFieldProperties(when('formFields')),
	...signingSettingsProperties(
		{ show: when('signingSettings') },
		'The new signing settings of the template, replacing the stored ones (none set: the service defaults)',
	),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const parts = new Set(this.getNodeParameter('updateParts', i, []) as string[]);
	if (parts.size === 0) {
		throw inputError(
			this.getNode(),
			'What to Update: choose at least one part to change (name, description, recipients, form fields, signing settings)',
			i,
		);
	}

	const body: IDataObject = {};
	if (parts.has('name')) body.name = (this.getNodeParameter('name', i, '') as string).trim();
	if (parts.has('description')) body.description = (this.getNodeParameter('description', i, '') as string).trim();
	if (parts.has('recipients')) body.recipients = readTemplateRecipients.call(this, i) as IDataObject[];
	if (parts.has('formFields')) body.formFields = readFormFields.call(this, i) as IDataObject[];
	if (parts.has('signingSettings')) body.workflow = readSigningSettings.call(this, i) ?? {};

	const checked = validateInput(this.getNode(), TemplateUpdateSchema, body, i, 'template update');

	// The same PATCH twice gives the same template: safe to resend.
	const response = (await apiRequest.call(this, 'PATCH', apiPath('template', templateId), {
		body: checked as IDataObject,
		itemIndex: i,
		idempotent: true,
	})) as IDataObject;
	return [{ json: response }];
}
