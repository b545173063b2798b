/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { admin, client, makePdf, signer, uploadPut } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

function expectErrorBody(body: any, code: string) {
	expect(body.code).toBe(code);
	expect(typeof body.message).toBe('string');
	expect(body.requestId).toMatch(/^req_/);
	expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
}

describe('authentication', () => {
	test('keys have the form <prefix>_<random>', () => {
		for (const key of [sandbox.apiKey, sandbox.orgApiKey, sandbox.disabledApiKey])
			expect(key).toMatch(/^[a-z]+_[0-9a-f]{20,}$/);
		expect(new Set([sandbox.apiKey, sandbox.orgApiKey, sandbox.disabledApiKey]).size).toBe(3);
	});

	test('missing key -> 401 UNAUTHORIZED', async () => {
		const res = await client(sandbox, null).get('/envelopes');
		expect(res.status).toBe(401);
		expectErrorBody(res.data, 'UNAUTHORIZED');
		expect(res.headers['x-request-id']).toBe(res.data.requestId);
	});

	test('unknown key and malformed header -> 401 UNAUTHORIZED', async () => {
		expect((await client(sandbox, 'service_nope').get('/envelopes')).status).toBe(401);
		const res = await client(sandbox, null).get('/envelopes', {
			headers: { Authorization: `Basic ${sandbox.apiKey}` },
		});
		expect(res.status).toBe(401);
		expectErrorBody(res.data, 'UNAUTHORIZED');
	});

	test('disabled key -> 403 FORBIDDEN', async () => {
		const res = await client(sandbox, sandbox.disabledApiKey).get('/envelopes');
		expect(res.status).toBe(403);
		expectErrorBody(res.data, 'FORBIDDEN');
		expect(res.data.message).toMatch(/disabled/i);
	});

	test('a minted disabled key is refused too', async () => {
		const minted = await admin(sandbox).post('/keys', { workspace: 'personal', disabled: true });
		expect(minted.status).toBe(201);
		expect((await client(sandbox, minted.data.apiKey).get('/envelopes')).status).toBe(403);
	});

	test('a key lacking a scope -> 403 FORBIDDEN naming the scope; other endpoints still work', async () => {
		const minted = await admin(sandbox).post('/keys', {
			workspace: 'personal',
			scopes: ['documents:read'],
		});
		const api = client(sandbox, minted.data.apiKey);
		const create = await api.post('/envelopes', { fileName: 'a.pdf' });
		expect(create.status).toBe(403);
		expectErrorBody(create.data, 'FORBIDDEN');
		expect(create.data.message).toContain('documents:write');
		expect((await api.get('/envelopes')).status).toBe(200);

		const sendOnly = client(
			sandbox,
			(await admin(sandbox).post('/keys', { workspace: 'personal', scopes: ['documents:write'] }))
				.data.apiKey,
		);
		const created = await sendOnly.post('/envelopes', {
			fileName: 'a.pdf',
			recipients: [signer('Ann')],
		});
		expect(created.status).toBe(201);
		const send = await sendOnly.post(`/envelopes/${created.data.id}/send`, {});
		expect(send.status).toBe(403);
		expect(send.data.message).toContain('signing:write');
	});

	test('personal and organization keys hold every scope by default', async () => {
		for (const key of [sandbox.apiKey, sandbox.orgApiKey]) {
			const api = client(sandbox, key);
			const created = await api.post('/envelopes', {
				fileName: 'a.pdf',
				recipients: [signer('Ann')],
			});
			expect(created.status).toBe(201);
			await uploadPut(created.data.upload.url, await makePdf());
			expect((await api.post(`/envelopes/${created.data.id}/send`, {})).status).toBe(200);
		}
	});

	test('unknown API path -> 404 NOT_FOUND with the error body', async () => {
		const res = await client(sandbox).get('/nothing-here');
		expect(res.status).toBe(404);
		expectErrorBody(res.data, 'NOT_FOUND');
	});

	test('malformed JSON request body -> 400 VALIDATION_ERROR', async () => {
		const res = await client(sandbox).post('/envelopes', '{"fileName": ', {
			headers: { 'Content-Type': 'application/json' },
		});
		expect(res.status).toBe(400);
		expectErrorBody(res.data, 'VALIDATION_ERROR');
	});
});

describe('organization key isolation', () => {
	test('each key lists only its own workspace envelopes; others are NOT_FOUND', async () => {
		const personal = client(sandbox);
		const org = client(sandbox, sandbox.orgApiKey);
		const p = await personal.post('/envelopes', { fileName: 'p.pdf', title: 'Personal doc' });
		const o = await org.post('/envelopes', { fileName: 'o.pdf', title: 'Org doc' });

		const orgList = await org.get('/envelopes');
		expect(orgList.data.items.map((i: any) => i.id)).toEqual([o.data.id]);
		expect(orgList.data.pageInfo.total).toBe(1);
		const personalList = await personal.get('/envelopes');
		expect(personalList.data.items.map((i: any) => i.id)).toEqual([p.data.id]);

		for (const path of ['status', 'fields', 'file']) {
			const res = await org.get(`/envelopes/${p.data.id}/${path}`);
			expect(res.status).toBe(404);
			expect(res.data.code).toBe('NOT_FOUND');
		}
		expect((await org.post(`/envelopes/${p.data.id}/send`, {})).data.code).toBe('NOT_FOUND');
		expect(
			(await personal.post(`/envelopes/${o.data.id}/recipients`, { recipients: [signer('X')] }))
				.data.code,
		).toBe('NOT_FOUND');
	});

	test('a minted organization key sees the organization envelopes', async () => {
		const o = await client(sandbox, sandbox.orgApiKey).post('/envelopes', { fileName: 'o.pdf' });
		const minted = await admin(sandbox).post('/keys', { workspace: 'organization' });
		const list = await client(sandbox, minted.data.apiKey).get('/envelopes');
		expect(list.data.items.map((i: any) => i.id)).toEqual([o.data.id]);
	});
});
