import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { EnvelopeCreateSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { validateInput } from '../../../shared/api/validation';
import { readText } from '../shared/params';
import {
	pdfSourceProperties,
	readPdfSource,
	pdfUploadOptions,
	uploadToCreated,
} from '../shared/pdfUpload';
import { simplifyOutput } from '../shared/output';
import { checkAllowedRecipients } from '../shared/allowedRecipients';
import { readRecipients, recipientProperties } from '../shared/recipients';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';
import { withEnvelopeId } from '../shared/envelopeId';

const show = { resource: ['envelope'], operation: ['create'] };

/** Shown under the output when an envelope is created without recipients. */
export const NO_RECIPIENTS_HINT =
	'Created without recipients: the envelope is a draft that Send refuses until it has a signer. Add them with Envelope > Add Recipients (or in Recipients here) before sending.';

/** Items of one run share one hint (one context per run of the node). */
const hinted = new WeakSet<object>();

const properties: INodeProperties[] = [
	...pdfSourceProperties('envelope'),
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'e.g. Rental agreement – Flat 4B',
		description: 'Title shown to recipients and used to search envelopes',
	},
	...recipientProperties(show),
	...signingSettingsProperties(
		{ show },
		'Signing settings of the envelope; can only be set when the envelope is created',
	),
	pdfUploadOptions,
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	// Everything is read and checked first: the PDF, then the body. No request before that.
	const title = readText.call(this, 'title', i, 'Title');
	// Who may receive it, before the PDF is even downloaded.
	const recipients = readRecipients.call(this, i);
	checkAllowedRecipients.call(this, i, recipients, 'Recipients');
	const fields: IDataObject = {};
	if (title) fields.title = title;
	if (recipients) fields.recipients = recipients as IDataObject[];
	const signingSettings = readSigningSettings.call(this, i);
	if (signingSettings) fields.workflow = signingSettings;
	// Checked before the PDF is downloaded as well (a stand-in file name until the source gives it):
	// a bad recipient costs no fetch of an address a model or an item chose.
	validateInput(this, EnvelopeCreateSchema, { fileName: 'document.pdf', ...fields }, i, 'envelope');
	const source = await readPdfSource.call(this, i);

	const checked = validateInput(
		this,
		EnvelopeCreateSchema,
		{ fileName: source.fileName, ...fields },
		i,
		'envelope',
	);

	// A create is not retried (it could make a second envelope).
	const envelope = (await apiRequest.call(this, 'POST', apiPath('envelopes'), {
		body: checked as IDataObject,
		itemIndex: i,
	})) as IDataObject;

	// Valid for the service (a draft takes recipients later), but Send will refuse it: said
	// once, under the output, rather than left to fail at Send.
	if (!recipients && !hinted.has(this)) {
		hinted.add(this);
		this.addExecutionHints?.({ message: NO_RECIPIENTS_HINT, location: 'outputPane' });
	}

	if (!source.pdf)
		return simplifyOutput.call(this, i, [{ json: withEnvelopeId(envelope, 'envelope') }]);
	const pdf = source.pdf;
	const json = await uploadToCreated.call(this, i, 'envelope', envelope, {
		...source,
		pdf,
		fileName: checked.fileName,
	});
	return simplifyOutput.call(this, i, [{ json: withEnvelopeId(json, 'envelope') }]);
}
