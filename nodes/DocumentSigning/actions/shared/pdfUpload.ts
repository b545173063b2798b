import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PdfFile } from '../../../shared/files/upload';
import {
	MAX_PDF_MB,
	readPdfFromItem,
	readPdfFromUrl,
	uploadPdf,
} from '../../../shared/files/upload';
import { isToolRun } from '../../../shared/run/runCache';
import { FROM_1_1 } from './versions';
import { readText } from './params';
import { safetySetting } from '../../../shared/api/parameters';

/** What a create makes that holds a PDF: an envelope or a template. */
export type PdfHolder = 'envelope' | 'template';

/**
 * The PDF Source choice: on the node it defaults to the item's binary field; from version
 * 1.1, on the tool variant (`@tool`), to a URL, since an AI agent cannot attach a file but can give an
 * address (a binary default there could only fail).
 */
function pdfSourceChoices(holder: PdfHolder): INodeProperties[] {
	const options: INodeProperties['options'] = [
		{
			name: 'Upload From Binary Field',
			value: 'binary',
			description: `Create the ${holder} and upload the PDF of this item in the same step`,
		},
		{
			name: 'Download From URL',
			value: 'url',
			description: `Create the ${holder} and upload the PDF found at a web address (e.g. a link an AI agent gives)`,
		},
		{
			name: "Don't Upload",
			value: 'none',
			description: `Only create the ${holder}; the output holds the upload address (valid 1 hour) for a later step`,
		},
	];
	const pdfSource: INodeProperties = {
		displayName: 'PDF Source',
		name: 'pdfSource',
		type: 'options',
		options,
		default: 'binary',
	};
	return [
		// Version 1: the binary field, on the node and on the tool alike (its saved tools keep it).
		{ ...pdfSource, default: 'binary', displayOptions: { show: { '@version': [1] } } },
		{
			...pdfSource,
			default: 'binary',
			displayOptions: { show: { '@version': [FROM_1_1], '@tool': [false] } },
		},
		{
			...pdfSource,
			default: 'url',
			displayOptions: { show: { '@version': [FROM_1_1], '@tool': [true] } },
		},
	];
}

/**
 * The PDF parameters of a create: upload from a binary field in the same step (default),
 * download it from a URL (what an AI agent can give), or create only and leave the
 * upload address in the output; and the file name.
 */
export function pdfSourceProperties(holder: PdfHolder): INodeProperties[] {
	return [
		...pdfSourceChoices(holder),
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
			displayName: 'PDF URL',
			name: 'pdfUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://example.com/contract.pdf',
			description: `Full http(s) address of the PDF (at most ${MAX_PDF_MB} MB). It is downloaded without the API key; addresses on this machine or a private network only with Options → Allow Internal Addresses.`,
			displayOptions: { show: { pdfSource: ['url'] } },
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. rental-agreement.pdf',
			description: "Name of the PDF. When uploading, leave empty to use the file's own name.",
			displayOptions: { show: { pdfSource: ['binary', 'url'] } },
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
	];
}

/** The create's Options collection: the upload method, and whether the PDF URL may be internal. */
export const pdfUploadOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	displayOptions: { show: { pdfSource: ['binary', 'url'] } },
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
		{
			displayName: 'Allow Internal Addresses',
			name: 'allowInternalAddresses',
			type: 'boolean',
			default: false,
			description:
				'Whether the PDF URL may point at this machine or a private network (127.0.0.0/8, 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). Link-local and cloud metadata addresses are refused either way. Set by an expression, only true or the text "true" turns it on; other text stops the item.',
			hint: 'Off by default: a URL typed, mapped from data or chosen by an AI agent could otherwise read internal services (databases, admin pages) and send them out as a PDF',
			displayOptions: { show: { '/pdfSource': ['url'] } },
		},
	],
};

export interface PdfSource {
	/** The checked PDF of the item, when it is uploaded in the same step. */
	pdf?: PdfFile;
	/** The typed file name, else the binary file's name (may be empty: the schema names it). */
	fileName: string;
	method: 'post' | 'put';
}

/** Reads and checks the item's PDF (no request) and the file name. */
export async function readPdfSource(this: IExecuteFunctions, i: number): Promise<PdfSource> {
	const source = this.getNodeParameter('pdfSource', i, 'binary') as 'binary' | 'url' | 'none';
	const method =
		(this.getNodeParameter('options.uploadMethod', i, 'post') as 'post' | 'put') ?? 'post';
	// Checked before the PDF is read: a PDF URL is a request.
	const typedName = readText.call(this, 'fileName', i, 'File Name');
	let pdf: PdfFile | undefined;
	if (source === 'binary') {
		const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
		if (isToolRun(this) && !this.getInputData()[i]?.binary?.[binaryPropertyName]) {
			// An AI agent cannot attach a file: say what to set instead of n8n's binary error.
			throw new NodeOperationError(
				this.getNode(),
				`PDF Source: no PDF in binary field "${binaryPropertyName}"; as a tool, set PDF Source to "Download From URL" and pass the PDF's https address`,
				{ itemIndex: i },
			);
		}
		pdf = await readPdfFromItem.call(this, i, binaryPropertyName);
	} else if (source === 'url') {
		const allowInternal = safetySetting(
			'allowInternalAddresses',
			this.getNodeParameter('options.allowInternalAddresses', i, false),
		);
		pdf = await readPdfFromUrl.call(this, i, this.getNodeParameter('pdfUrl', i, ''), allowInternal);
	}
	return { pdf, fileName: typedName || pdf?.fileName || '', method };
}

const NOUN: Record<PdfHolder, { label: string; left: string }> = {
	envelope: { label: 'Envelope', left: 'The draft envelope' },
	template: { label: 'Template', left: 'The template' },
};

/**
 * Uploads the PDF to the address a create returned and gives the create's answer
 * without the used upload form, plus what was uploaded. A failure names what was
 * created, so a retry uploads to it instead of creating another.
 */
export async function uploadToCreated(
	this: IExecuteFunctions,
	i: number,
	holder: PdfHolder,
	created: IDataObject,
	source: PdfSource & { pdf: PdfFile; fileName: string },
): Promise<IDataObject> {
	const { label, left } = NOUN[holder];
	const id = String(created.id);
	const upload = created.upload as { url: string; fields?: Record<string, string> } | undefined;
	if (!upload?.url) {
		throw new NodeOperationError(
			this.getNode(),
			`${label} ${id} was created but the service returned no upload address`,
			{
				itemIndex: i,
				description: `${left} ${id} exists without its PDF: delete it and run the node again.`,
			},
		);
	}
	try {
		await uploadPdf.call(this, upload, { ...source.pdf, fileName: source.fileName }, source.method);
	} catch (error) {
		const message = (error as Error).message;
		throw new NodeOperationError(
			this.getNode(),
			`${label} ${id} was created, but uploading the PDF failed: ${message}`,
			{
				itemIndex: i,
				description: `${left} ${id} exists without its PDF. Its upload address is valid for ${String(created.expiresIn ?? 3600)} seconds.`,
			},
		);
	}

	// The presigned upload form has been used; it is not repeated in the output.
	const output: IDataObject = { ...created };
	delete output.upload;
	return {
		...output,
		uploaded: {
			fileName: source.fileName,
			size: source.pdf.size,
			method: source.method.toUpperCase(),
		},
	};
}
