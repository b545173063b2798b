/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * A redirect within the Base URL's origin whose Location holds a user name and password
 * (`http://ada:pw@<same host>/...`): n8n's helpers would turn them into Basic authentication.
 * The transport and the credential test refuse such a Location: nothing is sent to it.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { CredentialTestContext } from 'n8n-core';

import { testCredential } from '../../nodes/shared/http/credentialTest';
import { harnessAdditionalData } from '../harness/additional-data';
import { errorOf, useProbeHarness } from '../transport/setup';

interface Seen {
	url: string;
	authorization?: string;
}

describe('a same-origin redirect with a user name and password in its Location', () => {
	const { probe } = useProbeHarness();
	const seen: Seen[] = [];
	let origin = '';
	const server = http.createServer((req, res) => {
		seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
		if ((req.url ?? '').startsWith('/api/v1/landing')) {
			res
				.writeHead(200, { 'content-type': 'application/json' })
				.end('{"items":[],"pageInfo":{"page":1,"limit":1,"total":0,"totalPages":0}}');
			return;
		}
		const target = new URL(origin);
		target.username = 'ada';
		target.password = 'hunter2';
		target.pathname = '/api/v1/landing';
		res.writeHead(302, { location: target.href }).end();
	});
	beforeAll(async () => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));
	beforeEach(() => {
		seen.length = 0;
	});

	const basic = () => seen.filter((s) => /^basic/i.test(s.authorization ?? ''));

	it('an API request does not follow it, and sends no Basic authentication', async () => {
		const error = errorOf(
			await probe('request', { method: 'GET', endpoint: '/envelopes' }, undefined, {
				baseUrl: `${origin}/api/v1`,
			}),
		);
		expect(error.message).toContain('a user name and password');
		expect(error.message).toContain('was not followed');
		expect(error.message).not.toContain('hunter2');
		expect(seen.map((s) => s.url)).toEqual(['/api/v1/envelopes']);
		expect(basic()).toEqual([]);
	});

	it('the credential test does not follow it, and says why', async () => {
		const context = new CredentialTestContext(
			harnessAdditionalData({
				credentials: { baseUrl: '', apiKey: '', webhookSecret: '' },
				origin: 'http://127.0.0.1',
				executionId: undefined,
			}),
		);
		const data: ICredentialDataDecryptedObject = {
			baseUrl: `${origin}/api/v1`,
			apiKey: 'service_test_key',
		};
		const result = await testCredential.call(context, {
			id: 'c',
			name: 'c',
			type: 'documentSigningApi',
			data,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toContain('a user name and password');
		expect(result.message).not.toContain('hunter2');
		expect(seen.map((s) => s.url)).toEqual(['/api/v1/envelopes?limit=1']);
		expect(basic()).toEqual([]);
	});
});
