/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * The Base URL as a hostile or careless user writes it: a query, a fragment or a user name in
 * it is refused by the credential test and by the node before any request, with a message
 * saying what to remove; a Base URL that answers JSON but is not the API is told apart from
 * the API, in the credential test (the spec's list shape) and on Credit > Get Balance (the
 * spec's `context` field), instead of giving a success item with another server's JSON.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject, NodeParameterValueType } from 'n8n-workflow';
import { CredentialTestContext } from 'n8n-core';

import { checkBaseUrl } from '../../nodes/shared/guard/baseUrl';
import { CREDENTIAL_TEST_MESSAGES, testCredential } from '../../nodes/shared/http/credentialTest';
import { harnessAdditionalData } from '../harness/additional-data';
import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';

let h: Harness;
/** Any server answering JSON: `{"ok":true,...}` for every path, as a status page or a proxy would. */
let foreign: { origin: string; hits: string[]; server: http.Server };

beforeAll(async () => {
	h = await startHarness();
	const hits: string[] = [];
	const server = http.createServer((req, res) => {
		hits.push(`${req.method} ${req.url}`);
		res
			.writeHead(200, { 'content-type': 'application/json' })
			.end(JSON.stringify({ ok: true, service: 'status page', path: req.url }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	foreign = { origin: `http://127.0.0.1:${port}`, hits, server };
});
afterAll(async () => {
	await h.close();
	await new Promise((resolve) => foreign.server.close(resolve));
});
beforeEach(() => {
	foreign.hits.length = 0;
});

/** The credential test as n8n's credential tester runs it: in n8n-core's credential-test context. */
async function credentialTest(data: ICredentialDataDecryptedObject) {
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

/** Credit > Get Balance with the given Base URL, On Error: Continue. */
async function getBalance(baseUrl: string) {
	const before = (await h.requests()).length;
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode({ resource: 'credit', operation: 'getBalance' } as Record<
				string,
				NodeParameterValueType
			>),
		],
		connections: chain('Seed', 'Document Signing'),
		credentials: { baseUrl },
	});
	return { result, sent: (await h.requests()).slice(before) };
}

describe('a Base URL with a query, a fragment or a user name', () => {
	const refused: Array<[string, string, string]> = [
		['?tenant=a', 'a query', '?'],
		['?', 'a query', '?'],
		['#section', 'a fragment', '#'],
		['?token=s3cr3t#x', 'a query', '?'],
	];

	it.each(refused)('"/api/v1%s" is refused, saying what to remove', (tail, what, mark) => {
		const result = checkBaseUrl(`https://sign.example.com/api/v1${tail}`);
		expect(result.ok).toBe(false);
		const message = result.ok ? '' : result.message;
		expect(message).toBe(
			`The Base URL holds ${what}: remove everything from "${mark}" on, so it reads like https://<your-service>/api/v1 (the node adds each path after it)`,
		);
		expect(message).not.toContain('s3cr3t');
	});

	it('a user name and password are refused, saying to remove them', () => {
		const result = checkBaseUrl('https://ada:pw@sign.example.com/api/v1');
		expect(!result.ok && result.message).toContain('user name or password: remove them');
	});

	it('the credential test refuses a query before any request', async () => {
		const before = (await h.requests()).length;
		const result = await credentialTest({
			baseUrl: `${h.sandbox.baseUrl}?tenant=a`,
			apiKey: h.sandbox.apiKey,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain('The Base URL holds a query');
		expect(result.message).not.toBe(CREDENTIAL_TEST_MESSAGES.notFound);
		expect((await h.requests()).length).toBe(before);
	});

	it('the node refuses a fragment before any request, naming the credential field', async () => {
		const { result, sent } = await getBalance(`${h.sandbox.baseUrl}#prod`);
		expect(String(result.error?.message)).toContain('The Base URL holds a fragment');
		expect(sent).toHaveLength(0);
	});
});

describe('a Base URL that answers JSON but is not the API', () => {
	it('the credential test says so (no list of envelopes in the spec shape)', async () => {
		const result = await credentialTest({
			baseUrl: `${foreign.origin}/api/v1`,
			apiKey: 'service_test_key',
		});
		expect(result).toEqual({ status: 'Error', message: CREDENTIAL_TEST_MESSAGES.notTheApi });
		expect(foreign.hits).toEqual(['GET /api/v1/envelopes?limit=1']);
	});

	it('Credit > Get Balance gives an error, not a success item with the other JSON', async () => {
		const { result } = await getBalance(`${foreign.origin}/api/v1`);
		expect(result.items('Document Signing')).toEqual([]);
		const message = String(result.error?.message);
		expect(message).toContain('not a balance as the Document Signing API gives it');
		expect(message).toContain('Base URL');
		expect(JSON.stringify(result.error)).not.toContain('status page');
		expect(foreign.hits).toEqual(['GET /api/v1/credits/balance']);
	});

	it('the sandbox, a reading of the spec, still passes both', async () => {
		expect(await credentialTest({ baseUrl: h.sandbox.baseUrl, apiKey: h.sandbox.apiKey })).toEqual({
			status: 'OK',
			message: CREDENTIAL_TEST_MESSAGES.ok,
		});
		const { result } = await getBalance(h.sandbox.baseUrl);
		expect(result.error).toBeUndefined();
		expect(result.items('Document Signing')[0].json).toHaveProperty('context');
	});
});
