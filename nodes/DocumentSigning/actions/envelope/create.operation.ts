import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { GUESSED_VALUES } from '../../../shared/assumptions';
import { compact, estampPickerProperties, readEstampConfig } from '../../../shared/estamp/picker';
import { EnvelopeCreateSchema } from '../../../shared/schemas';
import { apiRequest } from '../../../shared/transport';
import type { PdfFile } from '../../../shared/upload';
import { readPdfFromItem, uploadPdf } from '../../../shared/upload';
import { validateInput } from '../../../shared/validation';
import { readRecipients, recipientProperties, VERIFICATION_OPTIONS } from './common';

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
		hint: 'The name of the input binary field holding the PDF (at most 10 MB)',
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
	{
		displayName: 'Workflow Settings',
		name: 'workflowSettings',
		type: 'collection',
		placeholder: 'Add Setting',
		default: {},
		description: 'Signing workflow; can only be set when the envelope is created',
		options: [
			{
				displayName: 'Email Notifications',
				name: 'emailNotifications',
				type: 'options',
				options: [
					{ name: 'All', value: 'all' },
					{ name: 'Completion Only', value: 'completion_only' },
					{ name: 'None', value: 'none' },
				],
				default: 'all',
			},
			{
				displayName: 'Expires At',
				name: 'expiresAt',
				type: 'dateTime',
				default: '',
				description: 'When the envelope expires if not completed',
			},
			{
				displayName: 'Message',
				name: 'message',
				type: 'string',
				typeOptions: { rows: 3 },
				default: '',
				description: 'Message to recipients',
			},
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				options: [
					{ name: 'Sequential', value: 'sequential', description: 'Recipients sign in order' },
					{ name: 'Parallel', value: 'parallel', description: 'All recipients at once' },
				],
				default: 'sequential',
			},
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://example.com/signed',
				description:
					'HTTPS address signers return to; envelopeId, signerEmail, role, status and event are appended',
			},
			{
				displayName: 'Reminder Every (Hours)',
				name: 'reminderEveryHours',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 24,
			},
			{
				displayName: 'Verification Method',
				name: 'verificationMethod',
				type: 'options',
				options: VERIFICATION_OPTIONS,
				default: 'email_verification',
			},
			{
				displayName: 'WhatsApp Notifications',
				name: 'whatsappNotifications',
				type: 'options',
				options: GUESSED_VALUES.whatsappNotifications.map((value) => ({
					name: value === 'all' ? 'All' : 'None',
					value,
				})),
				default: 'all',
				description: 'Messages to recipients that have a phone number',
			},
		],
	},
	...estampPickerProperties({ show }),
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

/** A dateTime value as ISO 8601 in UTC; anything unreadable is passed on for the schema to name. */
function toTimestamp(value: unknown): unknown {
	// a Luxon DateTime from an expression
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return (value as unknown as { toUTC: () => { toISO: () => string } }).toUTC().toISO();
	}
	if (typeof value !== 'string' || !value.trim()) return value;
	if (/(Z|[+-]\d{2}:?\d{2})$/.test(value)) return value;
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function readWorkflow(this: IExecuteFunctions, i: number): IDataObject | undefined {
	const settings = compact(this.getNodeParameter('workflowSettings', i, {}) as IDataObject) ?? {};
	if (settings.expiresAt !== undefined) settings.expiresAt = toTimestamp(settings.expiresAt) as string;

	const estamp = readEstampConfig.call(this, i);
	if (estamp.enabled) {
		settings.estampEnabled = true;
		if (estamp.config) settings.estampConfig = estamp.config;
	}
	return Object.keys(settings).length ? settings : undefined;
}

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
	const workflow = readWorkflow.call(this, i);
	if (workflow) body.workflow = workflow;

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
