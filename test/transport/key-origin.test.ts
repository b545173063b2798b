/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The API key goes only to the Base URL's origin: redirects judged by the transport over
 * real HTTP (a redirector and a key catcher on loopback), and the Base URL check.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { checkBaseUrl, isLoopbackHost, isMetadataHost } from '../../nodes/shared/guard/baseUrl';
import { errorOf, useProbeHarness } from './setup';

interface Server {
	origin: string;
	seen: Array<{ method: string; url: string; authorization?: string }>;
	close: () => Promise<void>;
}

async function listen(
	handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Server> {
	const seen: Server['seen'] = [];
	const server = http.createServer((req, res) => {
		seen.push({
			method: req.method ?? '',
			url: req.url ?? '',
			authorization: req.headers.authorization,
		});
		handle(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('transport: redirects and the API key', () => {
	const { h, probe } = useProbeHarness();
	let catcher: Server;
	let redirector: Server;
	beforeAll(async () => {
		catcher = await listen((_req, res) =>
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'),
		);
		redirector = await listen((req, res) => {
			const url = req.url ?? '/';
			const sandbox = h().sandbox.origin;
			if (url.startsWith('/cross/'))
				res.writeHead(302, { location: `${catcher.origin}${url.slice(6)}` }).end();
			else if (url.startsWith('/loop/')) res.writeHead(302, { location: url }).end();
			else if (url.startsWith('/post/'))
				res.writeHead(302, { location: url.replace('/post/', '/same/') }).end();
			else if (url.startsWith('/same/')) {
				// The same origin passes the request on to the sandbox.
				const upstream = http.request(
					`${sandbox}/${url.slice(6)}`,
					{ method: req.method, headers: req.headers },
					(answer) => {
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				req.pipe(upstream);
			} else res.writeHead(301, { location: `/same${url}` }).end();
		});
	});
	afterAll(async () => {
		await redirector.close();
		await catcher.close();
	});
	beforeEach(() => {
		catcher.seen.length = 0;
		redirector.seen.length = 0;
	});

	it('refuses a redirect to another origin without sending it the key; the error names that origin', async () => {
		const result = await probe('request', { method: 'GET', endpoint: '/envelopes' }, undefined, {
			baseUrl: `${redirector.origin}/cross/api/v1`,
		});
		const error = errorOf(result);
		expect(error.message).toContain(
			`a redirect to ${catcher.origin}, another address than the Base URL's (${redirector.origin})`,
		);
		expect(error.message).toContain('Check the Base URL in the credential');
		expect(error.message).not.toContain(h().sandbox.apiKey);
		expect(catcher.seen).toEqual([]);
		// Refused once, not retried.
		expect(redirector.seen).toHaveLength(1);
	});

	it('follows same-origin redirects of a read, with the key, to the API', async () => {
		const result = await probe('request', { method: 'GET', endpoint: '/envelopes' }, undefined, {
			baseUrl: `${redirector.origin}/api/v1`,
		});
		expect(result.error).toBeUndefined();
		expect(redirector.seen.map((r) => r.url.split('?')[0])).toEqual([
			'/api/v1/envelopes',
			'/same/api/v1/envelopes',
		]);
		expect(redirector.seen.every((r) => r.authorization === `Bearer ${h().sandbox.apiKey}`)).toBe(
			true,
		);
	});

	it('stops after 3 same-origin redirects', async () => {
		const error = errorOf(
			await probe('request', { method: 'GET', endpoint: '/envelopes' }, undefined, {
				baseUrl: `${redirector.origin}/loop/api/v1`,
			}),
		);
		expect(error.message).toContain('more than 3 times');
		expect(redirector.seen).toHaveLength(4);
	});

	it('does not turn a redirected create into a GET or send it twice', async () => {
		const error = errorOf(
			await probe(
				'request',
				{ method: 'POST', endpoint: '/envelopes', body: { fileName: 'a.pdf' } },
				undefined,
				{ baseUrl: `${redirector.origin}/post/api/v1` },
			),
		);
		expect(error.message).toContain(
			'with a redirect (HTTP 302) to /same/api/v1/envelopes; it was not followed',
		);
		expect(redirector.seen).toHaveLength(1);
		expect(h().sandbox.state.envelopes.size).toBe(0);
	});

	it('refuses a metadata address before any request, even with Allow Insecure HTTP', async () => {
		const error = errorOf(
			await probe('request', { method: 'GET', endpoint: '/envelopes' }, undefined, {
				baseUrl: 'http://169.254.169.254/api/v1',
				allowInsecureHttp: true,
			} as never),
		);
		expect(error.message).toContain('169.254.169.254, a link-local or cloud metadata address');
	});
});

describe('the Base URL check', () => {
	it.each([
		['https://sign.example.com/api/v1', false],
		['http://127.0.0.1:4000/api/v1', false],
		['http://127.5.6.7/api/v1', false],
		['http://localhost:4000/api/v1', false],
		['http://[::1]:4000/api/v1', false],
		['http://sign.internal/api/v1', true],
	])('%s over http needs Allow Insecure HTTP: %s', (url, needsOption) => {
		expect(checkBaseUrl(url).ok).toBe(!needsOption);
		expect(checkBaseUrl(url, true).ok).toBe(true);
	});

	it.each([
		'http://169.254.169.254/latest',
		'https://169.254.0.1/api/v1',
		'http://2852039166/api/v1', // 169.254.169.254 written as one number
		'http://0xa9.0xfe.0xa9.0xfe/api/v1',
		'http://[fe80::1]/api/v1',
		'http://[fd00:ec2::254]/api/v1',
		'http://[::ffff:169.254.169.254]/api/v1',
		'http://metadata.google.internal./computeMetadata/v1',
		'http://METADATA/api/v1',
		'http://100.100.100.200/api/v1',
		'https://sign.example.com/latest/meta-data/api/v1',
		'http://127.0.0.1:8080/computeMetadata/v1',
	])('%s is refused, whatever the option', (url) => {
		const result = checkBaseUrl(url, true);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.message).toContain('link-local or cloud metadata address');
	});

	it('says what to fix for an empty, partial, foreign-scheme or user-info address', () => {
		const message = (value: unknown) => {
			const result = checkBaseUrl(value);
			return result.ok ? '' : result.message;
		};
		expect(message('')).toContain('has no Base URL');
		expect(message('sign.example.com/api/v1')).toContain('not a complete web address');
		expect(message('ftp://sign.example.com/api/v1')).toContain('must start with https://');
		expect(message('https://user:pass@sign.example.com/api/v1')).toContain('user name or password');
		expect(message('http://sign.example.com/api/v1')).toContain('turn on Allow Insecure HTTP');
	});

	it('keeps the address as written, without trailing slashes, and gives its origin', () => {
		expect(checkBaseUrl('https://Sign.Example.com:8443/api/v1//')).toEqual({
			ok: true,
			url: 'https://Sign.Example.com:8443/api/v1',
			origin: 'https://sign.example.com:8443',
		});
		expect(isLoopbackHost('[::ffff:7f00:1]')).toBe(true);
		expect(isMetadataHost('sign.example.com')).toBe(false);
	});
});

describe('transport: the path stays under the Base URL', () => {
	const { h, probe } = useProbeHarness();

	it.each(['https://elsewhere.example/envelopes', '//elsewhere.example/envelopes', 'envelopes'])(
		'refuses the path %s before any request',
		async (endpoint) => {
			const before = (await h().requests()).length;
			const error = errorOf(await probe('request', { method: 'GET', endpoint }));
			expect(error.message).toContain('is not a path under the Base URL');
			expect((await h().requests()).length).toBe(before);
		},
	);
});

describe("the credential's authenticate: the key only for the Base URL's origin", () => {
	const credential = new DocumentSigningApi();
	const credentials = { baseUrl: 'https://sign.example/api/v1', apiKey: 'service_abc' };
	const authorization = async (options: IHttpRequestOptions) =>
		(await credential.authenticate(credentials, { ...options })).headers?.Authorization;

	it('adds the key to requests for the Base URL, relative or absolute', async () => {
		expect(await authorization({ baseURL: 'https://sign.example/api/v1', url: '/envelopes' })).toBe(
			'Bearer service_abc',
		);
		expect(await authorization({ url: 'https://sign.example/api/v1/envelopes' })).toBe(
			'Bearer service_abc',
		);
	});

	it("reads the address n8n's HTTP Request node gives as uri", async () => {
		const legacy = (uri: string) => ({ uri }) as unknown as IHttpRequestOptions;
		expect(await authorization(legacy('https://sign.example/api/v1/envelopes/env_1/remind'))).toBe(
			'Bearer service_abc',
		);
		expect(await authorization(legacy('https://other.example/api/v1/envelopes'))).toBeUndefined();
	});

	it('adds nothing for another origin, or when the Base URL is refused', async () => {
		expect(await authorization({ url: 'https://other.example/api/v1/envelopes' })).toBeUndefined();
		expect(await authorization({ url: 'http://sign.example/api/v1/envelopes' })).toBeUndefined();
		expect(
			await authorization({ baseURL: 'https://sign.example/api/v1', url: '//other.example/x' }),
		).toBeUndefined();
		expect(
			(
				await credential.authenticate(
					{ ...credentials, baseUrl: 'http://169.254.169.254/api/v1' },
					{ url: 'http://169.254.169.254/api/v1/envelopes' },
				)
			).headers,
		).toBeUndefined();
	});
});
