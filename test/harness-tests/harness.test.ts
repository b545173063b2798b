import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { CredentialTestContext } from 'n8n-core';

import { CREDENTIAL_TEST_MESSAGES, testCredential } from '../../nodes/shared/http/credentialTest';
import { harnessAdditionalData } from '../harness/additional-data';
import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';

describe('harness: the action node in a real n8n workflow', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const getStatus = (continueOnFail = false) =>
		actionNode(
			{ resource: 'envelope', operation: 'getStatus', envelopeId: '={{ $json.envelopeId }}' },
			{ continueOnFail },
		);

	async function createEnvelope(title: string): Promise<string> {
		const created = await h.api<IDataObject>('POST', '/envelopes', {
			fileName: 'contract.pdf',
			title,
			recipients: [{ name: 'Ada Signer', email: 'ada@example.com', role: 'signer' }],
		});
		return created.id as string;
	}

	it('reads the signing progress of an envelope and pairs the output with its input', async () => {
		const id = await createEnvelope('Lease');
		const before = (await h.requests()).length;

		const result = await h.run({
			nodes: [seedNode(), getStatus()],
			connections: chain('Seed', 'Document Signing'),
			input: [{ json: { envelopeId: id } }],
		});

		expect(result.error).toBeUndefined();
		const items = result.items('Document Signing');
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			envelopeId: id,
			status: 'draft',
			totalRecipients: 1,
			completedCount: 0,
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });

		const log = (await h.requests()).slice(before);
		expect(log).toHaveLength(1);
		expect(log[0]).toMatchObject({
			method: 'GET',
			path: `/api/v1/envelopes/${id}/status`,
			status: 200,
			hasAuthorization: true,
		});
		expect(log[0].keyId).toEqual(expect.any(String));
	});

	it('with Continue On Fail, a bad item becomes a paired error item and the good one still runs', async () => {
		const id = await createEnvelope('Good one');

		const result = await h.run({
			nodes: [seedNode(), getStatus(true)],
			connections: chain('Seed', 'Document Signing'),
			input: [{ json: { envelopeId: 'env_does_not_exist' } }, { json: { envelopeId: id } }],
		});

		expect(result.error).toBeUndefined();
		const items = result.items('Document Signing');
		expect(items).toHaveLength(2);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({ code: 'NOT_FOUND', httpCode: '404' });
		expect(items[0].json.error).toMatch(/^NOT_FOUND: /);
		expect(items[0].json.requestId).toMatch(/^req_/);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json).toMatchObject({ envelopeId: id, status: 'draft' });
	});

	it('without Continue On Fail, the first failure stops the workflow with the item index', async () => {
		const result = await h.run({
			nodes: [seedNode(), getStatus()],
			connections: chain('Seed', 'Document Signing'),
			input: [{ json: { envelopeId: 'env_missing' } }],
		});
		expect(result.error?.message).toMatch(/^NOT_FOUND: /);
		expect((result.error as unknown as { context: IDataObject }).context.itemIndex).toBe(0);
	});

	it('a wrong API key gives UNAUTHORIZED with code and message, and never shows the key', async () => {
		const badKey = ['service', 'wrongkey0123456789abcdef'].join('_');
		const id = await createEnvelope('Any');

		const result = await h.run({
			nodes: [seedNode(), getStatus()],
			connections: chain('Seed', 'Document Signing'),
			credentials: { apiKey: badKey },
			input: [{ json: { envelopeId: id } }],
		});

		const error = result.error!;
		expect(error).toBeDefined();
		expect(error.message).toMatch(/^UNAUTHORIZED: \S/);
		expect((error as unknown as { httpCode: string }).httpCode).toBe('401');
		const serialised =
			JSON.stringify(result.run) + JSON.stringify(error) + String(error.description) + error.stack;
		expect(serialised).not.toContain(badKey);
		expect(serialised).not.toContain(h.sandbox.apiKey);

		const log = await h.requests();
		expect(log.at(-1)).toMatchObject({ status: 401, hasAuthorization: true, keyId: null });
	});
});

describe('credential test (the function the nodes name with testedBy)', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());

	/** Runs the test as n8n's credential tester does: in n8n-core's own credential-test context. */
	async function test(data: ICredentialDataDecryptedObject) {
		const context = new CredentialTestContext(
			harnessAdditionalData({
				credentials: { baseUrl: '', apiKey: '', webhookSecret: '' },
				origin: 'http://127.0.0.1',
				executionId: undefined,
			}),
		);
		return await testCredential.call(context, {
			id: 'c',
			name: 'c',
			type: 'documentSigningApi',
			data,
		});
	}

	it('passes for the sandbox key, with a trailing slash of the base URL removed', async () => {
		const before = (await h.requests()).length;
		expect(await test({ baseUrl: `${h.sandbox.baseUrl}/`, apiKey: h.sandbox.apiKey })).toEqual({
			status: 'OK',
			message: CREDENTIAL_TEST_MESSAGES.ok,
		});
		const sent = (await h.requests()).slice(before);
		expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/envelopes']);
	});

	it("answers a wrong key with the package's own sentence", async () => {
		expect(await test({ baseUrl: h.sandbox.baseUrl, apiKey: `${h.sandbox.apiKey}x` })).toEqual({
			status: 'Error',
			message: CREDENTIAL_TEST_MESSAGES.unauthorized,
		});
	});

	it('refuses a metadata address before any request', async () => {
		const result = await test({
			baseUrl: 'http://169.254.169.254/latest/meta-data',
			apiKey: h.sandbox.apiKey,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain('link-local or cloud metadata address');
	});
});
