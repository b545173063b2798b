/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { admin, client, makePdf, pdfOfSize, uploadPost, uploadPut } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

async function newUpload() {
	return (await client(sandbox).post('/envelopes', { fileName: 'a.pdf' })).data;
}

function storedSize(fileKey: string): number | undefined {
	return sandbox.state.storage.get(fileKey)?.data.length;
}

describe('multipart POST upload', () => {
	test('every field then the PDF last -> 204 and the file is stored', async () => {
		const created = await newUpload();
		const pdf = await makePdf();
		const res = await uploadPost(created.upload, pdf);
		expect(res.status).toBe(204);
		expect(storedSize(created.fileKey)).toBe(pdf.length);
	});

	test('10485760 bytes are accepted, 10485761 rejected with 413', async () => {
		const ok = await newUpload();
		expect((await uploadPost(ok.upload, pdfOfSize(10485760))).status).toBe(204);
		const tooBig = await newUpload();
		const res = await uploadPost(tooBig.upload, pdfOfSize(10485761));
		expect(res.status).toBe(413);
		expect(res.body.code).toBe('EntityTooLarge');
		expect(storedSize(tooBig.fileKey)).toBeUndefined();
	});

	test('a missing field is refused (400), an altered field too (403)', async () => {
		const created = await newUpload();
		const missing = await uploadPost(created.upload, await makePdf(), { omit: 'policy' });
		expect(missing.status).toBe(400);
		expect(missing.body).toEqual({
			code: 'InvalidArgument',
			message: expect.stringContaining('policy'),
		});
		const altered = await uploadPost(created.upload, await makePdf(), {
			alter: { key: 'envelopes/other/evil.pdf' },
		});
		expect(altered.status).toBe(403);
		expect(altered.body.code).toBe('AccessDenied');
		expect(altered.body.message).toContain('key');
		expect(storedSize(created.fileKey)).toBeUndefined();
	});

	test('the file must be the last part', async () => {
		const created = await newUpload();
		const res = await uploadPost(created.upload, await makePdf(), { fileFirst: true });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('MalformedPOSTRequest');
		expect(res.body.message).toMatch(/last/);
	});

	test('not a PDF: wrong bytes or wrong part type', async () => {
		const created = await newUpload();
		const bytes = await uploadPost(created.upload, Buffer.from('hello, not a pdf'));
		expect(bytes.status).toBe(400);
		expect(bytes.body.code).toBe('InvalidContentType');
		const type = await uploadPost(created.upload, await makePdf(), { fileType: 'text/plain' });
		expect(type.status).toBe(400);
		expect(type.body.code).toBe('InvalidContentType');
	});

	test('the address expires after 3600 s of the sandbox clock', async () => {
		const created = await newUpload();
		await admin(sandbox).post('/clock', { advanceSeconds: 3601 });
		const res = await uploadPost(created.upload, await makePdf());
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ code: 'AccessDenied', message: expect.stringMatching(/expired/) });
		expect((await uploadPut(created.upload.url, await makePdf())).status).toBe(403);
	});

	test('an unknown address is refused', async () => {
		const res = await uploadPut(`${sandbox.origin}/storage/upload/nope`, await makePdf());
		expect(res.status).toBe(403);
		expect(res.body.code).toBe('AccessDenied');
	});
});

describe('PUT upload', () => {
	test('Content-Type application/pdf -> 200 with ETag; limits as for POST', async () => {
		const created = await newUpload();
		const pdf = await makePdf();
		const response = await fetch(created.upload.url, {
			method: 'PUT',
			body: pdf,
			headers: { 'Content-Type': 'application/pdf' },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
		expect(storedSize(created.fileKey)).toBe(pdf.length);

		expect((await uploadPut((await newUpload()).upload.url, pdfOfSize(10485760))).status).toBe(200);
		const big = await uploadPut((await newUpload()).upload.url, pdfOfSize(10485761));
		expect(big.status).toBe(413);
		expect(big.body.code).toBe('EntityTooLarge');
	});

	test('wrong Content-Type or non-PDF bytes -> 400', async () => {
		const created = await newUpload();
		const type = await uploadPut(created.upload.url, await makePdf(), 'application/octet-stream');
		expect(type.status).toBe(400);
		expect(type.body.code).toBe('InvalidContentType');
		const bytes = await uploadPut(
			created.upload.url,
			Buffer.from('PK\x03\x04 zip'),
			'application/pdf',
		);
		expect(bytes.status).toBe(400);
		expect(storedSize(created.fileKey)).toBeUndefined();
	});
});

describe('request log of storage', () => {
	test('records whether a Bearer key was sent to the presigned address, never the secret', async () => {
		const created = await newUpload();
		await uploadPut(created.upload.url, await makePdf());
		await uploadPost(created.upload, await makePdf(), {
			headers: { Authorization: `Bearer ${sandbox.apiKey}` },
		});
		const log = (await admin(sandbox).get('/requests')).data.items;
		const storage = log.filter((e: any) => e.path.startsWith('/storage/'));
		expect(storage.map((e: any) => [e.method, e.status, e.hasAuthorization, e.keyId])).toEqual([
			['PUT', 200, false, null],
			['POST', 204, true, sandbox.state.apiKey.id],
		]);
		const apiCreate = log.find((e: any) => e.path === '/api/v1/envelopes');
		expect(apiCreate).toMatchObject({
			method: 'POST',
			status: 201,
			hasAuthorization: true,
			keyId: sandbox.state.apiKey.id,
			body: { fileName: 'a.pdf' },
		});
		expect(JSON.stringify(log)).not.toContain(sandbox.apiKey);
	});

	test('an invalid key is logged with keyId null', async () => {
		await client(sandbox, 'service_wrong').get('/envelopes', { params: { page: 1 } });
		const [entry] = (await admin(sandbox).get('/requests')).data.items;
		expect(entry).toMatchObject({
			method: 'GET',
			path: '/api/v1/envelopes',
			query: { page: '1' },
			keyId: null,
			status: 401,
			hasAuthorization: true,
		});
		expect(typeof entry.time).toBe('string');
	});
});
