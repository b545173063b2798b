import type { IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { nodeTypes } from '../harness/node-types';
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

describe('credential test request', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());

	/** The credential's `test.request`, its expressions resolved by n8n's expression engine. */
	function resolvedTestRequest(credentials: IDataObject) {
		const request = new DocumentSigningApi().test.request;
		const workflow = new Workflow({ nodes: [], connections: {}, active: false, nodeTypes });
		const baseURL = workflow.expression.getParameterValue(
			request.baseURL!,
			null,
			0,
			0,
			'Credential test',
			[],
			'internal',
			{ $credentials: credentials },
		) as string;
		return { ...request, baseURL };
	}

	async function send(apiKey: string) {
		const request = resolvedTestRequest({ baseUrl: `${h.sandbox.baseUrl}/`, apiKey });
		const url = `${request.baseURL}${request.url}?${new URLSearchParams(request.qs as Record<string, string>)}`;
		const response = await fetch(url, {
			method: request.method,
			headers: { authorization: `Bearer ${apiKey}` },
		});
		return { url, status: response.status, body: (await response.json()) as IDataObject };
	}

	it('is a cheap read of one envelope, with a trailing slash of the base URL removed', async () => {
		const ok = await send(h.sandbox.apiKey);
		expect(ok.url).toBe(`${h.sandbox.baseUrl}/envelopes?limit=1`);
		expect(ok.status).toBe(200);
		expect(Array.isArray(ok.body.items)).toBe(true);
	});

	it('fails with UNAUTHORIZED for a wrong key', async () => {
		const bad = await send(`${h.sandbox.apiKey}x`);
		expect(bad.status).toBe(401);
		expect(bad.body.code).toBe('UNAUTHORIZED');
	});
});
