/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { waitFor } from '../fixtures';
import { errorOf, PROBE_WAITS, useProbeHarness } from './setup';

const createBody = { fileName: 'contract.pdf', title: 'Retry test' };

describe('transport retries', () => {
	const { h, probe } = useProbeHarness();

	const logFor = async (method: string, path: string) =>
		(await h().requests()).filter(
			(entry) => entry.method === method && entry.path === `/api/v1${path}`,
		);

	it('retries a 429 after the Retry-After seconds and then succeeds', async () => {
		await h().fault({ failures: [{ status: 429, count: 1 }] });
		const started = Date.now();
		const result = await probe('request', {
			method: 'GET',
			endpoint: '/envelopes',
			qs: { limit: 1 },
		});
		const elapsed = Date.now() - started;

		expect(result.error).toBeUndefined();
		expect(result.items('Probe')[0].json.items).toEqual([]);
		const log = await logFor('GET', '/envelopes');
		expect(log.map((entry) => entry.status)).toEqual([429, 200]);
		expect(elapsed).toBeGreaterThanOrEqual(950); // Retry-After: 1
	});

	it('caps Retry-After and gives up after the retry budget with the API error', async () => {
		const policy = h().retryPolicy({ ...PROBE_WAITS, maxRetryAfterMs: 50 });
		await h().fault({ failures: [{ status: 429 }] });
		// (the cap itself: retry-decision.test.ts; uncapped, the 10 waits of 1 s would time the test out)
		const result = await probe('request', { method: 'GET', endpoint: '/envelopes' });

		const error = errorOf(result);
		expect(error.message).toMatch(/^RATE_LIMITED: /);
		expect(error.httpCode).toBe('429');
		// 429s have their own budget: the whole run waits them out together.
		expect((await logFor('GET', '/envelopes')).length).toBe(1 + policy.maxRateLimitedRetries);
	});

	it('retries a 503 even for a create (the service did not process it)', async () => {
		await h().fault({ failures: [{ status: 503, count: 1 }] });
		const result = await probe('request', {
			method: 'POST',
			endpoint: '/envelopes',
			body: createBody,
		});

		expect(result.error).toBeUndefined();
		expect(result.items('Probe')[0].json).toMatchObject({
			status: 'draft',
			fileName: 'contract.pdf',
		});
		const statuses = (await logFor('POST', '/envelopes')).map((entry) => entry.status);
		expect(statuses).toHaveLength(2);
		expect(statuses[0]).toBe(503);
		expect(statuses[1]).toBeLessThan(300);
		expect(h().sandbox.state.envelopes.size).toBe(1);
	});

	it('does not send a create again after a connection reset (it may have arrived)', async () => {
		await h().fault({ connectionReset: { path: '/envelopes', count: 1 } });
		const result = await probe('request', {
			method: 'POST',
			endpoint: '/envelopes',
			body: createBody,
		});

		const error = errorOf(result);
		expect(error.message).toMatch(/closed unexpectedly|ECONNRESET|reach the service/i);
		expect(error.description).toMatch(/not sent again/);
		expect(error.context.apiCode).toBe('ECONNRESET');
		const log = await logFor('POST', '/envelopes');
		expect(log).toHaveLength(1);
		expect(log[0].status).toBeNull();
	});

	it('sends a create again after a reset when it carries an idempotency key (idempotent: true)', async () => {
		await h().fault({ connectionReset: { path: '/envelopes', count: 1 } });
		const result = await probe('request', {
			method: 'POST',
			endpoint: '/envelopes',
			body: createBody,
			idempotent: true,
		});

		expect(result.error).toBeUndefined();
		expect((await logFor('POST', '/envelopes')).map((entry) => entry.status)).toEqual([
			null,
			expect.any(Number),
		]);
	});

	it('retries a read after a connection reset', async () => {
		await h().fault({ connectionReset: { count: 1 } });
		const result = await probe('request', { method: 'GET', endpoint: '/envelopes' });

		expect(result.error).toBeUndefined();
		expect((await logFor('GET', '/envelopes')).map((entry) => entry.status)).toEqual([null, 200]);
	});

	it('retries a read that timed out, but not a create', async () => {
		h().retryPolicy({ ...PROBE_WAITS, timeoutMs: 300 });
		await h().fault({ timeout: { count: 1 } });
		const read = await probe('request', { method: 'GET', endpoint: '/envelopes' });
		expect(read.error).toBeUndefined();
		expect(await logFor('GET', '/envelopes')).toHaveLength(2);

		await h().fault({ timeout: { count: 1 } });
		const create = await probe('request', {
			method: 'POST',
			endpoint: '/envelopes',
			body: createBody,
		});
		const error = errorOf(create);
		expect(error.description).toMatch(/not sent again/);
		// The held request is logged when its socket closes: until then, not a fixed wait.
		const held = async () =>
			(await logFor('POST', '/envelopes')).some((entry) => entry.fault === 'timeout');
		await waitFor(held);
		expect(await logFor('POST', '/envelopes')).toHaveLength(1);
		expect(h().sandbox.state.faults.timeout?.hits).toBe(1);
	});

	it('malformed JSON: a read is retried; a create fails clearly and is not sent again', async () => {
		await h().fault({ malformedJson: { count: 1 } });
		const read = await probe('request', { method: 'GET', endpoint: '/envelopes' });
		expect(read.error).toBeUndefined();
		expect(await logFor('GET', '/envelopes')).toHaveLength(2);

		await h().fault({ malformedJson: { count: 1 } });
		const create = await probe('request', {
			method: 'POST',
			endpoint: '/envelopes',
			body: createBody,
		});
		const error = errorOf(create);
		expect(error.message).toBe('The service answered with malformed JSON');
		expect(error.context.apiCode).toBe('MALFORMED_RESPONSE');
		expect(await logFor('POST', '/envelopes')).toHaveLength(1);
	});

	it('retries a refused connection (nothing was sent), even for a create, then reports it', async () => {
		// A port that was just free: nothing listens there.
		const { createServer } = await import('net');
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = (server.address() as { port: number }).port;
		await new Promise((resolve) => server.close(resolve));

		h().retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
		const started = Date.now();
		const result = await probe(
			'request',
			{ method: 'POST', endpoint: '/envelopes', body: createBody },
			undefined,
			{
				baseUrl: `http://127.0.0.1:${port}/api/v1/`,
			},
		);
		const error = errorOf(result);
		expect(error.context.apiCode).toBe('ECONNREFUSED');
		expect(error.description).toMatch(/after 4 attempt/);
		expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 200 + 400 - 20);
	});
});
