import type { IDataObject } from 'n8n-workflow';

import { MAX_PDF_BYTES } from '../../nodes/shared/files/upload';
import { pdfOfSize } from '../fixtures';
import type { SeedItem } from '../harness';
import { errorOf, useProbeHarness } from './setup';

const fileItem = (
	data: Buffer,
	mimeType = 'application/pdf',
	fileName = 'contract.pdf',
): SeedItem[] => [{ json: {}, binary: { data: { data, mimeType, fileName } } }];

describe('PDF checks and presigned upload', () => {
	const { h, probe } = useProbeHarness();

	async function uploadGrant(): Promise<{
		envelopeId: string;
		upload: { url: string; fields: Record<string, string> };
	}> {
		const created = await h().api<IDataObject>('POST', '/envelopes', { fileName: 'contract.pdf' });
		return { envelopeId: created.id as string, upload: created.upload as never };
	}

	const storageRequests = async () =>
		(await h().requests()).filter((entry) => entry.path.startsWith('/storage/'));

	describe('refused before any request', () => {
		const cases: Array<[string, SeedItem[], RegExp]> = [
			[
				'not a PDF',
				fileItem(Buffer.from('hello, not a pdf')),
				/Binary property "data": the file is not a PDF/,
			],
			['empty', fileItem(Buffer.alloc(0)), /Binary property "data": the file is empty/],
			[
				'one byte over 10 MB',
				fileItem(pdfOfSize(MAX_PDF_BYTES + 1)),
				new RegExp(
					`Binary property "data": the file has ${MAX_PDF_BYTES + 1} bytes; the limit is ${MAX_PDF_BYTES} bytes`,
				),
			],
			[
				'PDF bytes declared as an image',
				fileItem(pdfOfSize(1000), 'image/png'),
				/Binary property "data": the file's type is "image\/png"; only application\/pdf is accepted/,
			],
		];

		it.each(cases)('%s', async (_name, input, message) => {
			const { upload } = await uploadGrant();
			const result = await probe('upload', { upload }, input);
			const error = errorOf(result);
			expect(result.error?.name).toBe('NodeOperationError');
			expect(error.message).toMatch(message);
			expect(error.context.itemIndex).toBe(0);
			expect(await storageRequests()).toHaveLength(0);
		});

		it('a missing binary property is named', async () => {
			const result = await probe('readPdf', { property: 'document' }, fileItem(pdfOfSize(100)));
			expect(errorOf(result).message).toMatch(/document/);
		});
	});

	it('exactly 10 MB is accepted and uploaded as a multipart form POST, fields first, file last, no key', async () => {
		const { envelopeId, upload } = await uploadGrant();
		const pdf = pdfOfSize(MAX_PDF_BYTES);
		const result = await probe('upload', { upload }, fileItem(pdf));

		expect(result.error).toBeUndefined();
		expect(result.items('Probe')[0].json).toMatchObject({
			size: MAX_PDF_BYTES,
			mimeType: 'application/pdf',
			result: { uploaded: true, method: 'POST', statusCode: 204 },
		});
		const log = await storageRequests();
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({ method: 'POST', status: 204, hasAuthorization: false });

		const envelope = h().sandbox.state.envelopes.get(envelopeId) as { fileKey: string };
		expect(h().sandbox.state.storage.get(envelope.fileKey)?.data.equals(pdf)).toBe(true);
	});

	it('a plain PUT with Content-Type application/pdf is accepted', async () => {
		const { envelopeId, upload } = await uploadGrant();
		const pdf = pdfOfSize(2048);
		const result = await probe(
			'upload',
			{ upload, method: 'put' },
			fileItem(pdf, 'application/octet-stream', 'x.bin'),
		);

		expect(result.error).toBeUndefined();
		expect(result.items('Probe')[0].json).toMatchObject({
			mimeType: 'application/pdf',
			result: { uploaded: true, method: 'PUT', statusCode: 200 },
		});
		expect((await storageRequests())[0]).toMatchObject({
			method: 'PUT',
			status: 200,
			hasAuthorization: false,
		});
		const envelope = h().sandbox.state.envelopes.get(envelopeId) as { fileKey: string };
		expect(h().sandbox.state.storage.get(envelope.fileKey)?.data.equals(pdf)).toBe(true);
	});

	it('a storage refusal is a clear error (a form field missing)', async () => {
		const { upload } = await uploadGrant();
		const fields = { ...upload.fields };
		delete fields.policy;
		const result = await probe(
			'upload',
			{ upload: { url: upload.url, fields } },
			fileItem(pdfOfSize(500)),
		);

		const error = errorOf(result);
		expect(error.message).toMatch(
			/^Storage rejected the request: InvalidArgument: Missing form field "policy"/,
		);
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/storage\/upload\/\S+$/m);
	});
});
