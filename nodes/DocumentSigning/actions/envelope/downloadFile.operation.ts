import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ApiContext } from '../../../shared/transport';
import { apiPath } from '../../../shared/endpoints';
import { apiRequest, storageRequest } from '../../../shared/transport';
import { PDF_MIME_TYPE } from '../../../shared/upload';
import { envelopeIdProperty, getEnvelopeId } from './envelopeLocator';

const properties: INodeProperties[] = [
	envelopeIdProperty,
	{
		displayName: 'Include PDF as Binary Data',
		name: 'download',
		type: 'boolean',
		default: true,
		description:
			'Whether to fetch the PDF into the output as binary data. Otherwise only its temporary address (valid 1 hour) is returned.',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the PDF in',
		displayOptions: { show: { download: [true] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['downloadFile'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const download = this.getNodeParameter('download', i, true) as boolean;
	const binaryPropertyName = download
		? (this.getNodeParameter('binaryPropertyName', i, 'data') as string)
		: undefined;
	return [await fetchEnvelopeFile.call(this, envelopeId, { binaryPropertyName, itemIndex: i })];
}

/**
 * Reads an envelope's file address (the signed PDF once completed) and, when
 * `binaryPropertyName` is given, fetches the PDF into that binary field. Also used by
 * the status trigger.
 */
export async function fetchEnvelopeFile(
	this: ApiContext & { helpers: Pick<IExecuteFunctions['helpers'], 'prepareBinaryData'> },
	envelopeId: string,
	opts: { binaryPropertyName?: string; itemIndex?: number },
): Promise<INodeExecutionData> {
	const { binaryPropertyName, itemIndex } = opts;
	const file = await apiRequest.call(this, 'GET', apiPath('envelopeFile', envelopeId), {
		itemIndex,
	}) as IDataObject;
	const url = file.url as string | undefined;
	const fileName = (file.fileName as string | undefined) || `${envelopeId}.pdf`;
	const json = { envelopeId, fileName, url: url ?? null, expiresIn: file.expiresIn ?? null };
	if (!binaryPropertyName) return { json };

	if (!url) {
		throw new NodeOperationError(this.getNode(), 'The service returned no download address', {
			itemIndex,
		});
	}
	// The presigned address carries its own authorization: fetched without the API key.
	const response = await storageRequest.call(this, {
		method: 'GET',
		url,
		encoding: 'arraybuffer',
	});
	const buffer = Buffer.isBuffer(response.body)
		? response.body
		: Buffer.from(response.body as ArrayBuffer);
	const binary = await this.helpers.prepareBinaryData(buffer, fileName, PDF_MIME_TYPE);

	return { json: { ...json, size: buffer.length }, binary: { [binaryPropertyName]: binary } };
}
