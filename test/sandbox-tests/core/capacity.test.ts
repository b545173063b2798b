/** The capacity fault: a few requests served at once, the rest wait in line, 503 past the most in flight. */
import { admin, client, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	// Start settings, as `npm run sandbox -- --latency 500 --capacity 2,4` gives them. The latency
	// is long enough that all six requests below are in line before the first two are served,
	// also when a loaded machine opens their connections slowly (at 100 ms, 2 of 6 came late).
	sandbox = await startSandbox({
		faults: { latencyMs: 500, capacity: { slots: 2, maxInFlight: 4 } },
	});
});
afterAll(async () => await sandbox.close());

test('beyond the slots latency grows with the line; past the most in flight 503 with Retry-After', async () => {
	const api = client(sandbox);
	// One request first: the first of a process pays for its connection and cold code, which
	// on a slow machine took longer than a 100 ms latency.
	expect((await api.get('/envelopes')).status).toBe(200);
	const t0 = Date.now();
	const answers = await Promise.all(
		Array.from({ length: 6 }, async () => {
			const r = await api.get('/envelopes');
			return {
				status: r.status,
				ms: Date.now() - t0,
				retryAfter: r.headers['retry-after'],
				code: r.data.code,
			};
		}),
	);
	const served = answers
		.filter((a) => a.status === 200)
		.map((a) => a.ms)
		.sort((a, b) => a - b);
	const refused = answers.filter((a) => a.status === 503);
	expect(served).toHaveLength(4);
	expect(refused).toHaveLength(2);
	expect(refused[0]).toMatchObject({ retryAfter: '1', code: 'SERVICE_UNAVAILABLE' });
	// two served at once (~500 ms), the next two a whole latency after them (~1000 ms); told
	// apart by the gaps, which a late start of the whole batch does not change
	expect(served[0]).toBeGreaterThanOrEqual(475);
	expect(served[1] - served[0]).toBeLessThan(250);
	expect(served[2] - served[0]).toBeGreaterThanOrEqual(450);
	expect(served[3] - served[2]).toBeLessThan(250);
	const log = (await admin(sandbox).get('/requests')).data.items as Array<{
		status: number;
		fault: string | null;
	}>;
	expect(log.filter((e) => e.fault === 'capacity')).toHaveLength(2);
	// once the line is empty, requests are served again
	expect((await api.get('/envelopes')).status).toBe(200);
});

test('the start settings survive a reset; POST /faults replaces them and checks the shape', async () => {
	await admin(sandbox).post('/reset');
	expect((await admin(sandbox).get('/faults')).data).toMatchObject({
		latencyMs: 500,
		capacity: { slots: 2, maxInFlight: 4 },
	});
	const bad = await admin(sandbox).post('/faults', { capacity: { slots: 5, maxInFlight: 3 } });
	expect(bad.status).toBe(400);
	expect(JSON.stringify(bad.data)).toContain('maxInFlight must be at least slots');
	expect((await admin(sandbox).post('/faults', {})).data.capacity).toBeNull();
});
