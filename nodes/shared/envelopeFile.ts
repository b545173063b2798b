import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiPath } from './endpoints';
import type { ApiContext } from './transport';
import { apiRequest, storageRequest } from './transport';
import { PDF_MIME_TYPE } from './upload';

/**
 * Reads an envelope's file address (the signed PDF once completed) and, when
 * `binaryPropertyName` is given, fetches the PDF into that binary field. Used by
 * envelope Download File and by the status trigger.
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
	// Fields of the answer beyond these stay.
	// `url` and `expiresIn` only as answered (absent, not null, when the answer lacks them).
	const json: IDataObject = { envelopeId, ...file, fileName };
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
