/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * n8n's own request protection applies on top of the guard: with N8N_SSRF_PROTECTION_ENABLED
 * (read by n8n when its HTTP layer starts, so set before the harness starts in this file's own
 * process), a loopback PDF URL is refused by n8n even with Allow Internal Addresses on, and
 * the node says so instead of "could not be fetched".
 */
process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';

import { once } from 'events';
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { errorOf, useProbeHarness } from '../transport/setup';

describe("n8n's request protection", () => {
	const { probe } = useProbeHarness();
	const hits: string[] = [];
	const server = createServer((req, res) => {
		hits.push(req.url ?? '');
		res.writeHead(200).end('%PDF-1.7\n%%EOF\n');
	});
	beforeAll(async () => {
		server.listen(0, '127.0.0.1');
		await once(server, 'listening');
	});
	afterAll(() => {
		server.close();
		delete process.env.N8N_SSRF_PROTECTION_ENABLED;
	});

	it('a loopback PDF URL the user allowed is still refused by n8n, and named as such', async () => {
		const port = (server.address() as AddressInfo).port;
		const error = errorOf(
			await probe('readPdfUrl', { url: `http://127.0.0.1:${port}/a.pdf`, allowInternal: true }),
		);
		expect(error.message).toBe(
			"PDF URL: the address is refused by n8n's request protection (N8N_SSRF_PROTECTION_ENABLED); ask the n8n administrator to allow it (its address in N8N_SSRF_ALLOWED_IP_RANGES, or its name in N8N_SSRF_ALLOWED_HOSTNAMES)",
		);
		expect(hits).toEqual([]);
	});
});
