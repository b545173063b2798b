/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * The address guard in a real n8n execution (n8n-core's engine in-process, n8n's own request
 * helpers, real HTTP servers on this machine).
 *
 * Everything a test can reach runs on this machine, so "a public PDF host" is modelled in two
 * honest ways: (1) a loopback server with Allow Internal Addresses on (the user's declared
 * trust in this machine), whose redirects must still be refused when they lead to a metadata
 * address; (2) a host name whose lookup the test controls (`hosts`, handed to the guard's
 * injectable resolver): the guard checks what the name resolves to, and a name resolving to
 * loopback is refused like the literal, before any connection.
 */
import { lookup } from 'dns/promises';
import { once } from 'events';
import type { IDataObject } from 'n8n-workflow';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { hostname } from 'os';

import { classifyIp } from '../../nodes/shared/guard/addressGuard';
import { MAX_PDF_BYTES } from '../../nodes/shared/files/upload';
import { actionNode, chain, seedNode } from '../harness';
import { errorOf, useProbeHarness } from '../transport/setup';

const PDF = Buffer.from('%PDF-1.7\n% a small test file\n%%EOF\n', 'latin1');

interface Host {
	server: Server;
	port: number;
	hits: string[];
	/** Bytes the server had written when the connection closed (streaming test). */
	written: number;
}

async function serve(
	address: string,
	answer: (path: string, res: import('http').ServerResponse, host: Host) => void,
): Promise<Host> {
	const host: Host = { server: createServer(), port: 0, hits: [], written: 0 };
	host.server.on('request', (req, res) => {
		host.hits.push(req.url ?? '');
		answer(req.url ?? '', res, host);
	});
	host.server.listen(0, address);
	await once(host.server, 'listening');
	host.port = (host.server.address() as AddressInfo).port;
	return host;
}

const close = async (host: Host) => {
	host.server.closeAllConnections();
	await new Promise((resolve) => host.server.close(resolve));
};

describe('address guard: PDF URL and service addresses', () => {
	const { probe } = useProbeHarness();
	let internal: Host;
	let second: Host;
	let v6: Host;

	beforeAll(async () => {
		// An internal service that must never be reached: it would answer with secrets.
		const secrets = (_path: string, res: import('http').ServerResponse) =>
			res
				.writeHead(500, { 'content-type': 'text/plain' })
				.end('DB_PASSWORD=hunter2 AWS_SECRET_ACCESS_KEY=abc');
		internal = await serve('127.0.0.1', secrets);
		second = await serve('127.0.0.2', secrets);
		v6 = await serve('::1', secrets);
	});
	afterAll(async () => {
		await Promise.all([close(internal), close(second), close(v6)]);
	});
	beforeEach(() => {
		for (const host of [internal, second, v6]) host.hits.length = 0;
	});

	const read = async (args: IDataObject) => await probe('readPdfUrl', args);
	const guarded = async (args: IDataObject) => await probe('fetchGuarded', args);

	describe('refused before any connection (Allow Internal Addresses off)', () => {
		const cases: Array<[string, () => string, RegExp]> = [
			[
				'loopback 127.0.0.1',
				() => `http://127.0.0.1:${internal.port}/a.pdf`,
				/is a loopback address \(this machine\) \(127\.0\.0\.1\), which is refused unless Allow Internal Addresses is on/,
			],
			[
				'127.0.0.2',
				() => `http://127.0.0.2:${second.port}/a.pdf`,
				/loopback address.*\(127\.0\.0\.2\)/,
			],
			[
				'decimal 2130706433',
				() => `http://2130706433:${internal.port}/a.pdf`,
				/loopback address.*\(127\.0\.0\.1\)/,
			],
			[
				'hex 0x7f000001',
				() => `http://0x7f000001:${internal.port}/a.pdf`,
				/loopback address.*\(127\.0\.0\.1\)/,
			],
			[
				'octal 0177.0.0.1',
				() => `http://0177.0.0.1:${internal.port}/a.pdf`,
				/loopback address.*\(127\.0\.0\.1\)/,
			],
			[
				'localhost',
				() => `http://localhost:${internal.port}/a.pdf`,
				/loopback address.*\(localhost\)/,
			],
			['[::1]', () => `http://[::1]:${v6.port}/a.pdf`, /loopback address.*\(::1\)/],
			[
				'[::ffff:127.0.0.1]',
				() => `http://[::ffff:127.0.0.1]:${internal.port}/a.pdf`,
				/loopback address.*\(::ffff:7f00:1\)/,
			],
			[
				'10/8',
				() => 'http://10.0.0.5/a.pdf',
				/is a private network address \(10\.0\.0\.5\), which is refused unless Allow Internal Addresses is on/,
			],
			['172.16/12', () => 'http://172.20.1.1/a.pdf', /private network address \(172\.20\.1\.1\)/],
			[
				'192.168/16',
				() => 'http://192.168.1.1/a.pdf',
				/private network address \(192\.168\.1\.1\)/,
			],
			[
				'CGNAT 100.64/10',
				() => 'http://100.64.0.1/a.pdf',
				/private network address \(100\.64\.0\.1\)/,
			],
			['unique-local fd00::2', () => 'http://[fd00::2]/a.pdf', /unique-local.*\(fd00::2\)/],
			[
				'unspecified 0.0.0.0',
				() => `http://0.0.0.0:${internal.port}/a.pdf`,
				/unspecified address.*\(0\.0\.0\.0\)/,
			],
		];
		it.each(cases)('%s', async (_name, url, message) => {
			const error = errorOf(await read({ url: url() }));
			expect(error.message).toMatch(/^PDF URL: /);
			expect(error.message).toMatch(message);
			expect([...internal.hits, ...second.hits, ...v6.hits]).toEqual([]);
		});
	});

	describe('metadata and link-local: refused even with Allow Internal Addresses on', () => {
		const cases: Array<[string, string]> = [
			['169.254.169.254', 'http://169.254.169.254/latest/meta-data/'],
			['decimal 2852039166', 'http://2852039166/latest/meta-data/'],
			['hex 0xa9fea9fe', 'http://0xa9fea9fe/latest/meta-data/'],
			['IPv6-mapped [::ffff:169.254.169.254]', 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
			['NAT64 [64:ff9b::a9fe:a9fe]', 'http://[64:ff9b::a9fe:a9fe]/'],
			['fe80::1', 'http://[fe80::1]/'],
			['metadata.google.internal', 'http://metadata.google.internal/computeMetadata/v1/'],
			['Alibaba 100.100.100.200', 'http://100.100.100.200/latest/meta-data/'],
		];
		it.each(cases)('%s', async (_name, url) => {
			const error = errorOf(await read({ url, allowInternal: true }));
			expect(error.message).toMatch(
				/^PDF URL: the address is a link-local or cloud metadata address \(.+\), which is never fetched$/,
			);
		});

		it('also for an address the service returns (rule service)', async () => {
			const error = errorOf(await guarded({ url: 'http://169.254.169.254/', rule: 'service' }));
			expect(error.message).toMatch(/link-local or cloud metadata address \(169\.254\.169\.254\)/);
		});
	});

	describe('host names: what they resolve to is checked, and that address is the one connected to', () => {
		it('a public-looking name resolving to loopback is refused, and the server sees no request', async () => {
			const error = errorOf(
				await guarded({
					url: `http://files.example.test:${internal.port}/a.pdf`,
					hosts: { 'files.example.test': '127.0.0.1' },
				}),
			);
			expect(error.message).toBe(
				'PDF URL: the address resolves to a loopback address (this machine) (127.0.0.1), which is refused unless Allow Internal Addresses is on',
			);
			expect(internal.hits).toEqual([]);
		});

		it('a name resolving to 10.0.0.5 names the address and the rule', async () => {
			const error = errorOf(
				await guarded({
					url: 'https://cdn.example.test/a.pdf',
					hosts: { 'cdn.example.test': '10.0.0.5' },
				}),
			);
			expect(error.message).toBe(
				'PDF URL: the address resolves to a private network address (10.0.0.5), which is refused unless Allow Internal Addresses is on',
			);
		});

		it('the request goes to the resolved address, with the name as Host', async () => {
			let seenHost = '';
			const pdfHost = await serve('127.0.0.2', (_p, res) => res.writeHead(200).end(PDF));
			pdfHost.server.on('request', (req) => (seenHost = String(req.headers.host)));
			try {
				const result = await guarded({
					url: `http://pdfs.example.test:${pdfHost.port}/doc.pdf`,
					hosts: { 'pdfs.example.test': '127.0.0.2' },
					allowInternal: true,
				});
				expect(result.error).toBeUndefined();
				expect(result.items('Probe')[0].json.size).toBe(PDF.length);
				expect(seenHost).toBe(`pdfs.example.test:${pdfHost.port}`);
			} finally {
				await close(pdfHost);
			}
		});
	});

	describe("the machine's own host name, resolved by the system", () => {
		// A name no rule knows by itself: what it resolves to decides. On machines whose host
		// name resolves to an internal address (most: /etc/hosts), it is refused like the literal.
		let resolved = '';
		beforeAll(async () => {
			resolved = (await lookup(hostname())).address;
		});
		it("through n8n's lookup: refused naming the address it resolves to, before any connection", async () => {
			const kind = classifyIp(resolved);
			expect(kind).not.toBe('public'); // else this machine cannot show the rule
			const error = errorOf(await guarded({ url: `http://${hostname()}:${internal.port}/a.pdf` }));
			expect(error.message).toMatch(
				new RegExp(
					`^PDF URL: the address resolves to .* \\(${resolved.replace(/\./g, '\\.')}\\), which is refused unless Allow Internal Addresses is on$`,
				),
			);
			expect(internal.hits).toEqual([]);
		});

		it('on n8n 1.x (no lookup for nodes) a name cannot be checked: refused unless Allow Internal Addresses is on', async () => {
			const url = `http://${hostname()}:${internal.port}/a.pdf`;
			const error = errorOf(await guarded({ url, asN8n1: true }));
			expect(error.message).toBe(
				'PDF URL: this n8n version gives nodes no way to check where a host name leads, so a name is refused unless Allow Internal Addresses is on (n8n 2.x checks it)',
			);
			expect(internal.hits).toEqual([]);
			// With the option on it is fetched (here: the internal service's 500, without its body).
			const allowed = errorOf(await guarded({ url, asN8n1: true, allowInternal: true }));
			expect(allowed.message).toBe('PDF URL: the address answered HTTP 500');
			expect(internal.hits).toHaveLength(1);
		});

		it('on n8n 1.x an address the service returns is fetched by name (metadata names still refused)', async () => {
			const error = errorOf(
				await guarded({ url: 'http://metadata.google.internal/', rule: 'service', asN8n1: true }),
			);
			expect(error.message).toMatch(
				/link-local or cloud metadata address \(metadata\.google\.internal\)/,
			);
		});
	});

	describe('redirects: each hop checked by the same rule', () => {
		let redirector: Host;
		beforeAll(async () => {
			// The "public" PDF host of this test (loopback, with Allow Internal Addresses on).
			redirector = await serve('127.0.0.1', (path, res) => {
				const to = new URL(path, 'http://x').searchParams.get('to') ?? '';
				res.writeHead(302, { location: to }).end('redirect body with DB_PASSWORD=hunter2');
			});
		});
		afterAll(async () => await close(redirector));

		it.each([
			['169.254.169.254', 'http://169.254.169.254/latest/meta-data/iam/'],
			['decimal', 'http://2852039166/latest/meta-data/'],
			['IPv6-mapped', 'http://[::ffff:169.254.169.254]/'],
			['a name resolving to metadata', 'http://internal.example.test/'],
		])('a redirect to %s is refused after one request to the first host', async (_name, to) => {
			redirector.hits.length = 0;
			const url = `http://127.0.0.1:${redirector.port}/doc.pdf?to=${encodeURIComponent(to)}`;
			const error = errorOf(
				await guarded({
					url,
					allowInternal: true,
					hosts: { 'internal.example.test': '169.254.169.254' },
				}),
			);
			expect(error.message).toMatch(
				/^PDF URL: the address (is|resolves to) a link-local or cloud metadata address .*never fetched$/,
			);
			expect(error.message).not.toMatch(/hunter2/);
			expect(redirector.hits).toHaveLength(1);
		});

		it(`more than 5 redirects are refused`, async () => {
			const loop = await serve('127.0.0.1', (path, res) =>
				res.writeHead(302, { location: path }).end(),
			);
			try {
				const error = errorOf(
					await guarded({ url: `http://127.0.0.1:${loop.port}/x`, allowInternal: true }),
				);
				expect(error.message).toBe('PDF URL: the address redirected more than 5 times');
				expect(loop.hits).toHaveLength(6);
			} finally {
				await close(loop);
			}
		});
	});

	describe('answers', () => {
		it('an HTTP error names the status, never the body', async () => {
			const error = errorOf(
				await read({ url: `http://127.0.0.1:${internal.port}/x.pdf`, allowInternal: true }),
			);
			expect(error.message).toBe('PDF URL: the address answered HTTP 500');
			expect(JSON.stringify(error)).not.toMatch(/hunter2|AWS_SECRET/);
		});

		it('a closed port reads as "could not be fetched", nothing more', async () => {
			const gone = await serve('127.0.0.1', () => undefined);
			const port = gone.port;
			await close(gone);
			const error = errorOf(
				await read({ url: `http://127.0.0.1:${port}/x.pdf`, allowInternal: true }),
			);
			expect(error.message).toBe('PDF URL: the address could not be fetched');
			expect(JSON.stringify(error)).not.toMatch(/ECONNREFUSED|refused/i);
		});

		it('a PDF starts with %PDF-: bytes before it, or none at all, are refused', async () => {
			const files = await serve('127.0.0.1', (path, res) => {
				const pad = Number(path.split('/')[1]);
				const body = pad < 0 ? Buffer.from('hello') : Buffer.concat([Buffer.alloc(pad, 0x20), PDF]);
				res.writeHead(200, { 'content-type': 'application/pdf' }).end(body);
			});
			const at = async (pad: number) =>
				await read({
					url: `http://127.0.0.1:${files.port}/${pad}/contract.pdf`,
					allowInternal: true,
				});
			try {
				const ok = await at(0);
				expect(ok.error).toBeUndefined();
				expect(ok.items('Probe')[0].json).toEqual({ fileName: 'contract.pdf', size: PDF.length });
				expect(errorOf(await at(1024)).message).toBe(
					'PDF URL: the file does not start with "%PDF-" (1024 bytes of whitespace come before it); the service stores only files that start with "%PDF-", so remove what comes before it',
				);
				expect(errorOf(await at(-1)).message).toBe(
					'PDF URL: the address did not return a PDF (it does not start with "%PDF-"; it looks like plain text); only PDF files can be signed',
				);
			} finally {
				await close(files);
			}
		});

		it('a 40 MB answer is abandoned at the 10 MB limit while it streams', async () => {
			const chunk = Buffer.alloc(64 * 1024, 0x20);
			PDF.copy(chunk);
			let finished = false;
			const big = await serve('127.0.0.1', (_p, res, host) => {
				res.writeHead(200, { 'content-type': 'application/pdf' }); // chunked: no length to refuse early
				const total = 40 * 1024 * 1024;
				const pump = () => {
					while (host.written < total) {
						host.written += chunk.length;
						if (!res.write(chunk)) return void res.once('drain', pump);
					}
					finished = true;
					res.end();
				};
				res.on('close', () => undefined);
				pump();
			});
			try {
				const error = errorOf(
					await read({ url: `http://127.0.0.1:${big.port}/big.pdf`, allowInternal: true }),
				);
				expect(error.message).toBe(
					`PDF URL: the file is larger than ${MAX_PDF_BYTES} bytes (10 MB), the limit (more than ${MAX_PDF_BYTES} bytes); it was not read further`,
				);
				await new Promise((resolve) => setImmediate(resolve));
				expect(finished).toBe(false);
				expect(big.written).toBeLessThan(20 * 1024 * 1024);
			} finally {
				await close(big);
			}
		});

		it('a declared length over the limit is refused before reading', async () => {
			const big = await serve('127.0.0.1', (_p, res) => {
				res.writeHead(200, { 'content-length': String(40 * 1024 * 1024) });
				res.write(PDF);
			});
			try {
				const error = errorOf(
					await read({ url: `http://127.0.0.1:${big.port}/big.pdf`, allowInternal: true }),
				);
				expect(error.message).toMatch(
					/^PDF URL: the file is larger than 10485760 bytes \(10 MB\), the limit \(41943040 bytes\)/,
				);
			} finally {
				await close(big);
			}
		});
	});
});

describe('Download File: the presigned download address', () => {
	const { h } = useProbeHarness();
	let service: Host;
	let fileAnswer: { type: string; body: Buffer | string } = { type: 'application/pdf', body: PDF };
	let fileUrl = '';

	beforeAll(async () => {
		// A stand-in for the service: its file address answers what the test sets. The sandbox
		// refuses to store anything but a PDF, so a service answering JSON needs its own server.
		service = await serve('127.0.0.1', (path, res) => {
			if (path.startsWith('/api/v1/envelopes/env_1/file')) {
				res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify({ url: fileUrl, fileName: 'signed.pdf', expiresIn: 3600 }));
			} else if (path.startsWith('/storage/signed.pdf')) {
				res.writeHead(200, { 'content-type': fileAnswer.type }).end(fileAnswer.body);
			} else {
				res.writeHead(404).end();
			}
		});
	});
	afterAll(async () => await close(service));

	const download = async () =>
		await h().run({
			nodes: [
				seedNode(),
				actionNode(
					{
						resource: 'envelope',
						operation: 'downloadFile',
						envelopeId: { __rl: true, mode: 'id', value: 'env_1' },
						includeStatus: false,
					},
					{ typeVersion: 1.1 },
				),
			],
			connections: chain('Seed', 'Document Signing'),
			credentials: { baseUrl: `http://127.0.0.1:${service.port}/api/v1` },
		});

	it('a PDF is stored; the address on loopback is allowed (it comes from the configured service)', async () => {
		fileUrl = `http://127.0.0.1:${service.port}/storage/signed.pdf?sig=abc`;
		fileAnswer = { type: 'application/pdf', body: PDF };
		const result = await download();
		expect(result.error).toBeUndefined();
		const [item] = result.items('Document Signing');
		expect(item.binary?.data?.mimeType).toBe('application/pdf');
		expect(item.json.size).toBe(PDF.length);
	});

	it('a JSON answer is an error, and no application/pdf binary of it is stored', async () => {
		fileUrl = `http://127.0.0.1:${service.port}/storage/signed.pdf?sig=abc`;
		fileAnswer = {
			type: 'application/json',
			body: '{"code":"NOT_READY","message":"file is being generated"}',
		};
		const result = await download();
		expect(errorOf(result).message).toMatch(
			/^Download address: the service answered with JSON instead of the PDF \(\d+ bytes\); no file was stored$/,
		);
	});

	it('a metadata address from the service is refused', async () => {
		fileUrl = 'http://169.254.169.254/latest/meta-data/iam/';
		const result = await download();
		expect(errorOf(result).message).toBe(
			'Download address: the address is a link-local or cloud metadata address (169.254.169.254), which is never fetched',
		);
	});
});
