/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * PDFs as a hostile source gives them:
 * - bytes before `%PDF-` (whitespace, or `%PDF-` at byte 500): the storage takes only a file
 *   that starts with `%PDF-` (spec: PDF only; the sandbox's storage reads it so), so the node
 *   refuses it before any request, naming the field and what it found;
 * - an address that sends its headers and then one byte at a time: one deadline covers the
 *   whole file (headers, redirects and body), for a PDF URL and a download address alike, and
 *   n8n's Stop still ends the fetch at once.
 */
import { once } from 'events';
import { createServer, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import type { NodeParameterValueType } from 'n8n-workflow';

import { makePdf } from '../fixtures';
import { actionNode, chain, seedNode } from '../harness';
import { pdfItem, recipientFields, SIGNER } from '../envelope/helpers';
import { probeNode } from '../transport/probe';
import { errorOf, PROBE_WAITS, useProbeHarness } from '../transport/setup';

const { h, probe } = useProbeHarness();
let pdf: Buffer;
beforeAll(async () => {
	pdf = await makePdf(1);
});

/** A server whose answer the test writes. */
async function serve(answer: (path: string, res: ServerResponse) => void): Promise<Server> {
	const server = createServer((req, res) => answer(req.url ?? '', res));
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	return server;
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;
async function close(server: Server) {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
}

describe('bytes before %PDF-', () => {
	const create = async (file: Buffer) => {
		const before = (await h().requests()).length;
		const result = await h().run({
			nodes: [
				seedNode(),
				actionNode({
					resource: 'envelope',
					operation: 'create',
					title: 'Lease',
					recipients: recipientFields([SIGNER]),
				} as Record<string, NodeParameterValueType>),
			],
			connections: chain('Seed', 'Document Signing'),
			input: [pdfItem(file)],
		});
		return { error: errorOf(result), sent: (await h().requests()).slice(before) };
	};

	it('whitespace before %PDF- in the binary field: refused before any request', async () => {
		const { error, sent } = await create(Buffer.concat([Buffer.from(' \r\n'), pdf]));
		expect(error.message).toBe(
			'Binary property "data": the file does not start with "%PDF-" (3 bytes of whitespace come before it); the service stores only files that start with "%PDF-", so remove what comes before it',
		);
		expect(sent).toEqual([]);
	});

	it('%PDF- at byte 500 in the binary field: refused before any request', async () => {
		const { error, sent } = await create(Buffer.concat([Buffer.alloc(500, 'x'), pdf]));
		expect(error.message).toBe(
			'Binary property "data": the file does not start with "%PDF-" (it first appears at byte 500); the service stores only files that start with "%PDF-", so remove what comes before it',
		);
		expect(sent).toEqual([]);
	});

	it('a file without %PDF- says what it looks like, never its content', async () => {
		const html = Buffer.from('<!DOCTYPE html><html><body>token=abc123</body></html>');
		const { error, sent } = await create(html);
		expect(error.message).toBe(
			'Binary property "data": the file is not a PDF (it does not start with "%PDF-"; it looks like an HTML page); only PDF files can be signed',
		);
		expect(JSON.stringify(error)).not.toContain('abc123');
		expect(sent).toEqual([]);
	});

	it('a PDF URL answering whitespace before %PDF- is refused, and nothing is created', async () => {
		const server = await serve((_p, res) =>
			res
				.writeHead(200, { 'content-type': 'application/pdf' })
				.end(Buffer.concat([Buffer.from('\n\n'), pdf])),
		);
		try {
			const error = errorOf(
				await probe('readPdfUrl', {
					url: `http://127.0.0.1:${portOf(server)}/a.pdf`,
					allowInternal: true,
				}),
			);
			expect(error.message).toBe(
				'PDF URL: the file does not start with "%PDF-" (2 bytes of whitespace come before it); the service stores only files that start with "%PDF-", so remove what comes before it',
			);
		} finally {
			await close(server);
		}
	});
});

describe('one deadline for the whole file', () => {
	/** Headers at once, then a small PDF one byte every 100 ms (3.6 s in all). */
	const small = Buffer.from('%PDF-1.7\n% a small test file\n%%EOF\n', 'latin1');
	let trickled = 0;
	const trickle = (_path: string, res: ServerResponse) => {
		res.writeHead(200, { 'content-type': 'application/pdf' });
		let at = 0;
		const next = async () => {
			while (at < small.length && !res.destroyed) {
				res.write(small.subarray(at, at + 1));
				at++;
				trickled++;
				// real time: the file deadline is the product's timer on a real socket
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			if (!res.destroyed) res.end();
		};
		void next();
	};
	let slow: Server;
	beforeAll(async () => {
		slow = await serve(trickle);
	});
	afterAll(async () => await close(slow));
	beforeEach(() => {
		trickled = 0;
		h().retryPolicy({ ...PROBE_WAITS, fileDeadlineMs: 1500 });
	});

	it('a PDF URL sending one byte at a time is abandoned at the deadline', async () => {
		const started = Date.now();
		const error = errorOf(
			await probe('readPdfUrl', {
				url: `http://127.0.0.1:${portOf(slow)}/slow.pdf`,
				allowInternal: true,
			}),
		);
		const took = Date.now() - started;
		expect(error.message).toBe(
			'PDF URL: the file did not arrive within 1.5 s (the limit for the whole file); the address answers too slowly',
		);
		expect(took).toBeLessThan(6000);
		const sentAtEnd = trickled;
		// real time: four bytes' worth of the trickle, to show the socket is closed
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(trickled - sentAtEnd).toBeLessThanOrEqual(1); // the connection was closed
	}, 30_000);

	it('a download address sending one byte at a time is abandoned at the deadline', async () => {
		const service = await serve((path, res) => {
			if (path.startsWith('/api/v1/envelopes/env_1/file'))
				res.writeHead(200, { 'content-type': 'application/json' }).end(
					JSON.stringify({
						url: `http://127.0.0.1:${portOf(slow)}/signed.pdf?sig=abc`,
						fileName: 'signed.pdf',
					}),
				);
			else res.writeHead(404).end();
		});
		try {
			const started = Date.now();
			const result = await h().run({
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
				credentials: { baseUrl: `http://127.0.0.1:${portOf(service)}/api/v1` },
			});
			expect(errorOf(result).message).toBe(
				'Download address: the file did not arrive within 1.5 s (the limit for the whole file); the address answers too slowly',
			);
			expect(Date.now() - started).toBeLessThan(6000);
		} finally {
			await close(service);
		}
	}, 30_000);

	it("n8n's Stop ends the fetch at once, before the deadline", async () => {
		h().retryPolicy({ ...PROBE_WAITS, fileDeadlineMs: 20_000 });
		const result = await h().run({
			nodes: [
				seedNode(),
				probeNode('readPdfUrl', {
					url: `http://127.0.0.1:${portOf(slow)}/slow.pdf`,
					allowInternal: true,
				}),
			],
			connections: chain('Seed', 'Probe'),
			stopAfterMs: 500,
		});
		expect((result.settledAt as number) - (result.stoppedAt as number)).toBeLessThan(1000);
		expect(result.items('Probe')).toEqual([]);
		const sentAtEnd = trickled;
		// real time: four bytes' worth of the trickle, to show the socket is closed
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(trickled - sentAtEnd).toBeLessThanOrEqual(1);
	}, 30_000);
});
