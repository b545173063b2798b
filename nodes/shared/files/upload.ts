import { randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchGuarded, pinOrRefuse } from './guardedFetch';
import { isRedirect } from '../http/redirects';
import type { ApiContext } from '../run/context';
import { storageRequest } from '../http/transport';

/** Largest PDF the service accepts: 10 MB (spec 2.1 and part 8). */
export const MAX_PDF_BYTES = 10_485_760;

/** MAX_PDF_BYTES in MB, for text shown to users. */
export const MAX_PDF_MB = MAX_PDF_BYTES / (1024 * 1024);

export const PDF_MIME_TYPE = 'application/pdf';

/** Every PDF starts with these bytes. */
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');

/**
 * Whether the bytes start with `%PDF-`. Readers accept up to 1024 bytes before it, but the
 * spec's upload takes PDF files only and its storage (the sandbox's reading) refuses a file
 * that does not start with `%PDF-`: checked before the upload, not left to the storage.
 */
export function isPdfBytes(buffer: Buffer): boolean {
	return buffer.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE);
}

/** How far to look for a `%PDF-` that comes late: where readers stop looking. */
const LATE_SIGNATURE_WITHIN = 1024;

/** Bytes that count as whitespace before the signature (PDF's white-space characters). */
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/** What a file that is not a PDF looks like, from its first bytes (never the bytes themselves). */
function lookOf(buffer: Buffer): string {
	const head = buffer.subarray(0, 64).toString('latin1').trimStart().toLowerCase();
	if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'an HTML page';
	if (head.startsWith('<')) return 'an XML or HTML document';
	if (head.startsWith('{') || head.startsWith('[')) return 'JSON';
	if (head.startsWith('pk\x03\x04')) return 'a ZIP file (or a Word or Excel document)';
	if (head.startsWith('\x89png')) return 'a PNG image';
	if (head.startsWith('\xff\xd8\xff')) return 'a JPEG image';
	const text = [...head].every(
		(ch) => ch === '\t' || ch === '\n' || ch === '\r' || (ch >= ' ' && ch <= '~'),
	);
	return text ? 'plain text' : 'other binary data';
}

/**
 * Why the bytes are not taken as a PDF, for `<field>: <reason>`, or undefined when they start
 * with `%PDF-`. Says what was found: whitespace or other bytes before a `%PDF-` (to remove),
 * else what the file looks like. `notPdf` is how the field's other errors say "not a PDF".
 */
export function pdfRefusal(buffer: Buffer, notPdf = 'the file is not a PDF'): string | undefined {
	if (isPdfBytes(buffer)) return undefined;
	const at = buffer
		.subarray(0, LATE_SIGNATURE_WITHIN + PDF_SIGNATURE.length)
		.indexOf(PDF_SIGNATURE);
	if (at > 0) {
		const before = [...buffer.subarray(0, at)].every((byte) => WHITESPACE.has(byte))
			? `${at} byte${at === 1 ? '' : 's'} of whitespace come${at === 1 ? 's' : ''} before it`
			: `it first appears at byte ${at}`;
		return `the file does not start with "%PDF-" (${before}); the service stores only files that start with "%PDF-", so remove what comes before it`;
	}
	return `${notPdf} (it does not start with "%PDF-"; it looks like ${lookOf(buffer)}); only PDF files can be signed`;
}

/**
 * Mime types accepted when the bytes themselves are a PDF. Files fetched over HTTP or
 * read from disk often arrive as `application/octet-stream` or without a type; the
 * signature check decides for those, and the upload always declares application/pdf.
 * Any other declared type (image/png, text/plain, ...) is refused.
 */
const GENERIC_MIME_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export interface PdfFile {
	buffer: Buffer;
	fileName: string;
	mimeType: string;
	size: number;
}

/**
 * Reads the PDF in binary property `binaryPropertyName` of item `itemIndex` and checks
 * it before any request: present, not empty, at most MAX_PDF_BYTES, PDF bytes, PDF type.
 * Uses n8n's binary helpers, so it works in every binary-data mode.
 */
export async function readPdfFromItem(
	this: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
): Promise<PdfFile> {
	const binary = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const fail = (rule: string) =>
		new NodeOperationError(this.getNode(), `Binary property "${binaryPropertyName}": ${rule}`, {
			itemIndex,
		});

	// Cheap check on the metadata first, so a huge file is not loaded for nothing.
	if (typeof binary.bytes === 'number' && binary.bytes > MAX_PDF_BYTES) {
		throw fail(
			`the file has ${binary.bytes} bytes; the limit is ${MAX_PDF_BYTES} bytes (${MAX_PDF_MB} MB)`,
		);
	}
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, binaryPropertyName);
	if (buffer.length === 0) {
		throw fail('the file is empty; a PDF document is required');
	}
	if (buffer.length > MAX_PDF_BYTES) {
		throw fail(
			`the file has ${buffer.length} bytes; the limit is ${MAX_PDF_BYTES} bytes (${MAX_PDF_MB} MB)`,
		);
	}
	const refusal = pdfRefusal(buffer);
	if (refusal) throw fail(refusal);
	const declared = (binary.mimeType ?? '').split(';')[0].trim().toLowerCase();
	if (declared !== PDF_MIME_TYPE && !GENERIC_MIME_TYPES.has(declared)) {
		throw fail(`the file's type is "${binary.mimeType}"; only ${PDF_MIME_TYPE} is accepted`);
	}

	return {
		buffer,
		fileName: binary.fileName || 'document.pdf',
		mimeType: PDF_MIME_TYPE,
		size: buffer.length,
	};
}

/**
 * Downloads the PDF at `url` (http or https; no API key is sent) through the address guard
 * (loopback and private addresses only with `allowInternal`) and checks it by the rules of
 * readPdfFromItem. Lets an AI agent, which cannot hand over binary data, send a PDF it knows
 * by its address.
 */
export async function readPdfFromUrl(
	this: IExecuteFunctions,
	itemIndex: number,
	url: unknown,
	allowInternal = false,
): Promise<PdfFile> {
	const fail = (rule: string) =>
		new NodeOperationError(this.getNode(), `PDF URL: ${rule}`, { itemIndex });
	if (typeof url !== 'string') {
		throw fail(
			`expected the address as text, got ${url === null ? 'null' : Array.isArray(url) ? 'an array' : typeof url}`,
		);
	}
	let address: URL;
	try {
		address = new URL(url.trim());
	} catch {
		throw fail(
			`"${url.slice(0, 200)}" is not a URL; give the full address of a PDF, e.g. https://example.com/contract.pdf`,
		);
	}
	if (address.protocol !== 'https:' && address.protocol !== 'http:') {
		throw fail(`must start with https:// or http://, got "${address.protocol}"`);
	}
	// A PDF is asked for by name: a server that also serves a web app (n8n 1.x's editor, for
	// one) answers `*/*` with its HTML page.
	const fetched = await fetchGuarded.call(this, address.href, {
		field: 'PDF URL',
		rule: 'user',
		allowInternal,
		maxBytes: MAX_PDF_BYTES,
		accept: 'application/pdf, application/octet-stream',
		itemIndex,
	});
	const buffer = fetched.buffer;
	if (buffer.length === 0)
		throw fail('the address returned an empty file; a PDF document is required');
	const refusal = pdfRefusal(buffer, 'the address did not return a PDF');
	if (refusal) throw fail(refusal);
	const last = safeDecode(fetched.url.pathname.split('/').pop() ?? '');
	return {
		buffer,
		fileName: /\.pdf$/i.test(last) ? last : 'document.pdf',
		mimeType: PDF_MIME_TYPE,
		size: buffer.length,
	};
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** The presigned upload address, checked by the address guard (rule `service`) and pinned. */
async function uploadTarget(this: ApiContext, url: string) {
	let address: URL;
	try {
		address = new URL(url);
	} catch {
		throw new NodeOperationError(
			this.getNode(),
			'Upload address: the service returned an address that is not a URL',
		);
	}
	const target = await pinOrRefuse.call(this, address, {
		field: 'Upload address',
		rule: 'service',
	});
	return {
		url: target.url,
		headers: target.headers,
		disableFollowRedirect: true,
		...(target.servername ? { agentOptions: { servername: target.servername } } : {}),
	};
}

/** A redirect answered to an upload is not followed: the PDF would go to an unchecked place. */
function refuseRedirect(this: ApiContext, statusCode: number): void {
	if (isRedirect(statusCode)) {
		throw new NodeOperationError(
			this.getNode(),
			`Upload address: the storage answered a redirect (HTTP ${statusCode}), which is not followed for uploads`,
		);
	}
}

/**
 * Uploads a PDF to the presigned address of an envelope or template creation:
 * a multipart form POST with every `upload.fields` entry and the file as the last part,
 * or a plain PUT of the bytes. Goes through `storageRequest`, which never sends the key.
 */
export async function uploadPdf(
	this: ApiContext,
	upload: { url: string; fields?: Record<string, string> },
	pdf: Pick<PdfFile, 'buffer' | 'fileName' | 'mimeType'>,
	method: 'post' | 'put' = 'post',
): Promise<IDataObject> {
	const target = await uploadTarget.call(this, upload.url);
	if (method === 'put') {
		const response = await storageRequest.call(this, {
			...target,
			method: 'PUT',
			body: pdf.buffer,
			headers: { ...target.headers, 'Content-Type': PDF_MIME_TYPE },
		});
		refuseRedirect.call(this, response.statusCode);
		return {
			uploaded: true,
			method: 'PUT',
			statusCode: response.statusCode,
			size: pdf.buffer.length,
		};
	}

	const form = multipartBody(upload.fields ?? {}, pdf);
	const response = await storageRequest.call(this, {
		...target,
		method: 'POST',
		body: form.body,
		headers: { ...target.headers, 'Content-Type': form.contentType },
	});
	refuseRedirect.call(this, response.statusCode);
	return {
		uploaded: true,
		method: 'POST',
		statusCode: response.statusCode,
		size: pdf.buffer.length,
	};
}

/** A multipart/form-data body (RFC 7578): the fields in order, then the file. */
export function multipartBody(
	fields: Record<string, string>,
	file: Pick<PdfFile, 'buffer' | 'fileName' | 'mimeType'>,
): { body: Buffer; contentType: string } {
	const boundary = `----DocumentSigningBoundary${randomBytes(12).toString('hex')}`;
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${String(value)}\r\n`,
				'utf8',
			),
		);
	}
	parts.push(
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(file.fileName)}"\r\n` +
				`Content-Type: ${file.mimeType || PDF_MIME_TYPE}\r\n\r\n`,
			'utf8',
		),
		file.buffer,
		Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
	);
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Escapes a name for a quoted header parameter, as browsers do. */
function quote(value: string): string {
	return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
