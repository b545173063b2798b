import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiPath } from '../api/endpoints';
import type { ApiContext } from '../run/context';
import { fetchGuarded } from './guardedFetch';
import { apiRequest } from '../http/transport';
import { isPdfBytes, MAX_PDF_BYTES, PDF_MIME_TYPE } from './upload';

/**
 * Largest signed file read: twice the upload limit, as signing adds signatures, pages and an
 * audit trail to a PDF that may have had 10 MB. The download stops there while reading.
 */
export const MAX_SIGNED_PDF_BYTES = 2 * MAX_PDF_BYTES;

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
	const file = (await apiRequest.call(this, 'GET', apiPath('envelopeFile', envelopeId), {
		itemIndex,
	})) as IDataObject;
	const url = file.url as string | undefined;
	const fileName = (file.fileName as string | undefined) || `${envelopeId}.pdf`;
	// Fields of the answer beyond these stay.
	// `url` and `expiresIn` only as answered (absent, not null, when the answer lacks them).
	const json: IDataObject = { envelopeId, ...file, fileName };
	if (!binaryPropertyName) return { json };

	if (!url) {
		throw new NodeOperationError(this.getNode(), 'The service returned no download address', {
			itemIndex,
			description:
				'Run the node again later; to get the file details without the PDF, turn off Include PDF as Binary Data.',
		});
	}
	// The presigned address carries its own authorization: fetched without the API key, through
	// the address guard (an address the service returns: only link-local and metadata refused).
	const fetched = await fetchGuarded.call(this, url, {
		field: 'Download address',
		rule: 'service',
		maxBytes: MAX_SIGNED_PDF_BYTES,
		accept: 'application/pdf, application/octet-stream',
		itemIndex,
	});
	const buffer = fetched.buffer;
	if (!isPdfBytes(buffer)) {
		const jsonAnswer =
			/json/i.test(fetched.contentType) ||
			/^\s*[[{]/.test(buffer.subarray(0, 64).toString('latin1'));
		throw new NodeOperationError(
			this.getNode(),
			jsonAnswer
				? `Download address: the service answered with JSON instead of the PDF (${buffer.length} bytes); no file was stored`
				: `Download address: the answer is not a PDF (it does not start with "%PDF-", ${buffer.length} bytes); no file was stored`,
			{
				itemIndex,
				description:
					'The envelope file may not be ready yet, or the download address has expired: read the file again.',
			},
		);
	}
	const binary = await this.helpers.prepareBinaryData(buffer, fileName, PDF_MIME_TYPE);

	return { json: { ...json, size: buffer.length }, binary: { [binaryPropertyName]: binary } };
}
