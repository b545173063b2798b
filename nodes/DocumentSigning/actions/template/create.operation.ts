import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { TemplateCreateSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { validateInput } from '../../../shared/api/validation';
import { readText } from '../shared/params';
import {
	pdfSourceProperties,
	pdfUploadOptions,
	readPdfSource,
	uploadToCreated,
} from '../shared/pdfUpload';
import { recipientProperties } from '../shared/recipients';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';
import { formFieldProperties, readFormFields } from './formFields';
import { readTemplateRecipients } from './templateRecipients';

const show = { resource: ['template'], operation: ['create'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Rental agreement',
		description: 'Name of the template, used to find it in lists',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
	},
	...pdfSourceProperties('template'),
	...recipientProperties(show, 'template'),
	...formFieldProperties(show),
	...signingSettingsProperties(
		{ show },
		'Signing settings that documents created from the template inherit (each document may override them)',
	),
	pdfUploadOptions,
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	// Everything is read and checked first: the PDF, then the body. No request before that.
	const name = readText.call(this, 'name', i, 'Name');
	const text = readText.call(this, 'description', i, 'Description');
	const source = await readPdfSource.call(this, i);
	const body: IDataObject = { name, fileName: source.fileName };
	if (text) body.description = text;
	const recipients = readTemplateRecipients.call(this, i);
	if (recipients.length) body.recipients = recipients as IDataObject[];
	const formFields = readFormFields.call(this, i);
	if (formFields.length) body.formFields = formFields as IDataObject[];
	const signingSettings = readSigningSettings.call(this, i);
	if (signingSettings) body.workflow = signingSettings;

	const checked = validateInput(this, TemplateCreateSchema, body, i, 'template');

	// A create is not retried (it could make a second template).
	const template = (await apiRequest.call(this, 'POST', apiPath('templates'), {
		body: checked as IDataObject,
		itemIndex: i,
	})) as IDataObject;

	if (!source.pdf) return [{ json: template }];
	const pdf = source.pdf;
	const json = await uploadToCreated.call(this, i, 'template', template, {
		...source,
		pdf,
		fileName: checked.fileName,
	});
	return [{ json }];
}
