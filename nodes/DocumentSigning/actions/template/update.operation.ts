import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { TemplateUpdateSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { validateInput } from '../../../shared/api/validation';
import { recipientProperties } from '../shared/recipients';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';
import { readUpdate, type UpdateSpec, updateProperties, whenUpdating } from '../shared/update';
import { formFieldProperties, readFormFields } from './formFields';
import { readTemplateRecipients } from './templateRecipients';
import { getTemplateId, templateIdProperty } from '../shared/locators';

const show = { resource: ['template'], operation: ['update'] };
const when = (part: string) => whenUpdating(show, part);

const update: UpdateSpec = {
	show,
	parts: [
		{ name: 'Recipients', value: 'recipients', description: 'Replaces all recipients' },
		{ name: 'Form Fields', value: 'formFields', description: 'Replaces all form fields' },
		{
			name: 'Signing Settings',
			value: 'signingSettings',
			description: 'Replaces the signing settings',
		},
	],
	description:
		'The parts to change; the others stay as they are. Lists replace the stored ones: fields assigned to a recipient must name a recipient of the result.',
};

const properties: INodeProperties[] = [
	templateIdProperty,
	...updateProperties(update),
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
	const { parts, body } = readUpdate.call(this, i, update);
	if (parts.has('recipients'))
		body.recipients = readTemplateRecipients.call(this, i) as IDataObject[];
	if (parts.has('formFields')) body.formFields = readFormFields.call(this, i) as IDataObject[];
	if (parts.has('signingSettings')) body.workflow = readSigningSettings.call(this, i) ?? {};

	const checked = validateInput(this, TemplateUpdateSchema, body, i, 'template update');

	// The same PATCH twice gives the same template: safe to resend.
	const response = (await apiRequest.call(this, 'PATCH', apiPath('template', templateId), {
		body: checked as IDataObject,
		itemIndex: i,
		idempotent: true,
	})) as IDataObject;
	return [{ json: response }];
}
