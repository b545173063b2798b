/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import axios from 'axios';
import { admin, client } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

const setFaults = async (body: Record<string, unknown>) => {
	const res = await admin(sandbox).post('/faults', body);
	expect(res.status).toBe(200);
};

describe('fault injection on /api/v1', () => {
	test('latency delays every API answer', async () => {
		await setFaults({ latencyMs: 150 });
		const t0 = Date.now();
		expect((await client(sandbox).get('/envelopes')).status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
	});

	test('rate limit: beyond N requests per second per key -> 429 RATE_LIMITED with Retry-After', async () => {
		await setFaults({ rateLimitPerSecond: 3 });
		// Start at the beginning of a wall-clock second so the burst stays within one window.
		await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
		const api = client(sandbox);
		const answers = [];
		for (let i = 0; i < 5; i++) answers.push(await api.get('/envelopes'));
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
		expect(answers[3].headers['retry-after']).toBe('1');
		expect(answers[3].data).toMatchObject({
			code: 'RATE_LIMITED',
			requestId: expect.any(String),
			timestamp: expect.any(String),
		});
		// Another key has its own budget.
		expect((await client(sandbox, sandbox.orgApiKey).get('/envelopes')).status).toBe(200);
	});

	test('failures: status with rate, path filter and count limit', async () => {
		await setFaults({ failures: [{ status: 503, path: '/envelopes', count: 2 }] });
		const api = client(sandbox);
		const first = await api.get('/envelopes');
		expect(first.status).toBe(503);
		expect(first.data).toMatchObject({
			code: 'SERVICE_UNAVAILABLE',
			requestId: expect.any(String),
		});
		expect(first.headers['retry-after']).toBe('1');
		expect((await api.post('/envelopes', { fileName: 'a.pdf' })).status).toBe(503);
		// Count exhausted: the third request goes through and its effect happens.
		expect((await api.post('/envelopes', { fileName: 'a.pdf' })).status).toBe(201);
		expect(sandbox.state.envelopes.size).toBe(1);

		await setFaults({ failures: [{ status: 500, path: '/credits' }] });
		expect((await api.get('/envelopes')).status).toBe(200);
		const credits = await api.get('/credits/anything');
		expect(credits.status).toBe(500);
		expect(credits.data.code).toBe('INTERNAL_SERVER_ERROR');
	});

	test('a seeded rate is reproducible; rate 0 never fails, rate 1 always', async () => {
		const run = async (rate: number) => {
			await setFaults({ seed: 42, failures: [{ status: 500, rate }] });
			const statuses = [];
			for (let i = 0; i < 20; i++) statuses.push((await client(sandbox).get('/envelopes')).status);
			return statuses;
		};
		const a = await run(0.5);
		const b = await run(0.5);
		expect(a).toEqual(b);
		// (how many of `a` fail is fixed by the seed: a range on it could not fail)
		expect(new Set(a)).toEqual(new Set([200, 500]));
		expect(await run(0)).toEqual(Array(20).fill(200));
		expect(await run(1)).toEqual(Array(20).fill(500));
		await setFaults({ seed: 7, failures: [{ status: 500, rate: 0.5 }] });
		const c = [];
		for (let i = 0; i < 20; i++) c.push((await client(sandbox).get('/envelopes')).status);
		expect(c).not.toEqual(a);
	});

	test('connection reset drops the socket without an answer', async () => {
		await setFaults({ connectionReset: { count: 1 } });
		const error = await client(sandbox)
			.get('/envelopes')
			.catch((e) => e);
		expect(axios.isAxiosError(error)).toBe(true);
		expect(['ECONNRESET', 'ERR_BAD_RESPONSE', 'EPIPE']).toContain(error.code);
		expect(error.response).toBeUndefined();
		expect((await client(sandbox).get('/envelopes')).status).toBe(200);
		const log = (await admin(sandbox).get('/requests')).data.items;
		expect(log[0].status).toBeNull();
	});

	test('malformed JSON answers: status as usual, body not parseable', async () => {
		await setFaults({ malformedJson: { path: '/envelopes', count: 1 } });
		const res = await client(sandbox).post(
			'/envelopes',
			{ fileName: 'a.pdf' },
			{ responseType: 'text', transitional: { forcedJSONParsing: false } },
		);
		expect(res.status).toBe(201);
		expect(res.headers['content-type']).toMatch(/application\/json/);
		expect(() => JSON.parse(res.data)).toThrow();
		const strict = await client(sandbox).get('/envelopes');
		expect(strict.data.pageInfo.total).toBe(1); // the create did happen
	});

	test('timeout holds the socket until the client gives up', async () => {
		await setFaults({ timeout: { count: 1 } });
		const t0 = Date.now();
		const error = await client(sandbox)
			.get('/envelopes', { timeout: 300 })
			.catch((e) => e);
		expect(error.code).toBe('ECONNABORTED');
		expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
		expect((await client(sandbox).get('/envelopes', { timeout: 1000 })).status).toBe(200);
	});

	test('faults apply to /api/v1 only; {} and reset clear them', async () => {
		await setFaults({ failures: [{ status: 500 }] });
		expect((await admin(sandbox).get('/requests')).status).toBe(200);
		expect(
			(await axios.get(`${sandbox.origin}/storage/download/x`, { validateStatus: () => true }))
				.status,
		).toBe(403);
		expect((await client(sandbox).get('/envelopes')).status).toBe(500);
		await setFaults({});
		expect((await client(sandbox).get('/envelopes')).status).toBe(200);
		await setFaults({ failures: [{ status: 500 }] });
		await admin(sandbox).post('/reset');
		expect((await client(sandbox).get('/envelopes')).status).toBe(200);
	});

	test('invalid fault settings -> VALIDATION_ERROR', async () => {
		const res = await admin(sandbox).post('/faults', { failures: [{ status: 200 }] });
		expect(res.status).toBe(400);
		expect(res.data.code).toBe('VALIDATION_ERROR');
	});
});
