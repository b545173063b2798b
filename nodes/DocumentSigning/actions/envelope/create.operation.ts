import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { EnvelopeCreateSchema } from '../../../shared/schemas';
import { apiRequest } from '../../../shared/transport';
import type { PdfFile } from '../../../shared/upload';
import { MAX_PDF_MB, readPdfFromItem, uploadPdf } from '../../../shared/upload';
import { validateInput } from '../../../shared/validation';
import { readRecipients, recipientProperties } from '../shared/recipients';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';

const show = { resource: ['envelope'], operation: ['create'] };

const properties: INodeProperties[] = [
	{
		displayName: 'PDF Source',
		name: 'pdfSource',
		type: 'options',
		options: [
			{
				name: 'Upload From Binary Field',
				value: 'binary',
				description: 'Create the envelope and upload the PDF of this item in the same step',
			},
			{
				name: "Don't Upload",
				value: 'none',
				description:
					'Only create the envelope; the output holds the upload address (valid 1 hour) for a later step',
			},
		],
		default: 'binary',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: `The name of the input binary field holding the PDF (at most ${MAX_PDF_MB} MB)`,
		displayOptions: { show: { pdfSource: ['binary'] } },
	},
	{
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		placeholder: 'e.g. rental-agreement.pdf',
		description:
			"Name of the PDF. When uploading, leave empty to use the binary file's name.",
		displayOptions: { show: { pdfSource: ['binary'] } },
	},
	{
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. rental-agreement.pdf',
		description: 'Name of the PDF that will be uploaded later',
		displayOptions: { show: { pdfSource: ['none'] } },
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'e.g. Rental agreement – Flat 4B',
		description: 'Title shown to recipients and used to search envelopes',
	},
	...recipientProperties(show),
	...signingSettingsProperties({ show }, 'Signing settings of the envelope; can only be set when the envelope is created'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { pdfSource: ['binary'] } },
		options: [
			{
				displayName: 'Upload Method',
				name: 'uploadMethod',
				type: 'options',
				options: [
					{
						name: 'Multipart Form POST',
						value: 'post',
						description: 'The upload form with every field the service returned (recommended)',
					},
					{ name: 'PUT', value: 'put', description: 'The PDF bytes as the request body' },
				],
				default: 'post',
			},
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const source = this.getNodeParameter('pdfSource', i, 'binary') as 'binary' | 'none';
	const method = (this.getNodeParameter('options.uploadMethod', i, 'post') as 'post' | 'put') ?? 'post';

	// Everything is read and checked first: the PDF, then the body. No request before that.
	let pdf: PdfFile | undefined;
	if (source === 'binary') {
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
		pdf = await readPdfFromItem.call(this, i, binaryPropertyName);
	}
	const typedName = (this.getNodeParameter('fileName', i, '') as string).trim();
	const body: IDataObject = { fileName: typedName || pdf?.fileName || '' };
	const title = (this.getNodeParameter('title', i, '') as string).trim();
	if (title) body.title = title;
	const recipients = readRecipients.call(this, i);
	if (recipients) body.recipients = recipients as IDataObject[];
	const signingSettings = readSigningSettings.call(this, i);
	if (signingSettings) body.workflow = signingSettings;

	const checked = validateInput(this.getNode(), EnvelopeCreateSchema, body, i, 'envelope');

	// A create is not retried (it could make a second envelope).
	const envelope = await apiRequest.call(this, 'POST', '/envelopes', {
		body: checked as IDataObject,
		itemIndex: i,
	}) as IDataObject;

	if (!pdf) return [{ json: envelope }];

	const upload = envelope.upload as { url: string; fields?: Record<string, string> } | undefined;
	if (!upload?.url) {
		throw new NodeOperationError(
			this.getNode(),
			`Envelope ${String(envelope.id)} was created but the service returned no upload address`,
			{ itemIndex: i },
		);
	}
	try {
		await uploadPdf.call(this, upload, { ...pdf, fileName: checked.fileName }, method);
	} catch (error) {
		// Say which draft exists, so a retry can upload to it instead of creating another.
		const message = (error as Error).message;
		throw new NodeOperationError(
			this.getNode(),
			`Envelope ${String(envelope.id)} was created, but uploading the PDF failed: ${message}`,
			{
				itemIndex: i,
				description: `The draft envelope ${String(envelope.id)} exists without its PDF. Its upload address is valid for ${String(envelope.expiresIn ?? 3600)} seconds.`,
			},
		);
	}

	// The presigned upload form has been used; it is not repeated in the output.
	const output: IDataObject = { ...envelope };
	delete output.upload;
	return [
		{
			json: {
				...output,
				uploaded: { fileName: checked.fileName, size: pdf.size, method: method.toUpperCase() },
			},
		},
	];
}
