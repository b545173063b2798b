/** The capacity fault: a few requests served at once, the rest wait in line, 503 past the most in flight. */
import { admin, client, startSandbox, type Sandbox } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
	// Start settings, as `npm run sandbox -- --latency 100 --capacity 2,4` gives them.
	sandbox = await startSandbox({ faults: { latencyMs: 100, capacity: { slots: 2, maxInFlight: 4 } } });
});
afterAll(async () => await sandbox.close());

test('beyond the slots latency grows with the line; past the most in flight 503 with Retry-After', async () => {
	const api = client(sandbox);
	// One request first: the first of a process pays for its connection and cold code, which
	// on a slow machine took longer than the 100 ms latency itself.
	expect((await api.get('/envelopes')).status).toBe(200);
	const t0 = Date.now();
	const answers = await Promise.all(
		Array.from({ length: 6 }, async () => {
			const r = await api.get('/envelopes');
			return { status: r.status, ms: Date.now() - t0, retryAfter: r.headers['retry-after'], code: r.data.code };
		}),
	);
	const served = answers.filter((a) => a.status === 200).map((a) => a.ms).sort((a, b) => a - b);
	const refused = answers.filter((a) => a.status === 503);
	expect(served).toHaveLength(4);
	expect(refused).toHaveLength(2);
	expect(refused[0]).toMatchObject({ retryAfter: '1', code: 'SERVICE_UNAVAILABLE' });
	// two served at once (~100 ms), the next two a whole latency after them (~200 ms); told
	// apart by the gaps, which a late start of the whole batch does not change
	expect(served[0]).toBeGreaterThanOrEqual(95);
	expect(served[1] - served[0]).toBeLessThan(50);
	expect(served[2] - served[0]).toBeGreaterThanOrEqual(90);
	expect(served[3] - served[2]).toBeLessThan(50);
	const log = (await admin(sandbox).get('/requests')).data.items as Array<{ status: number; fault: string | null }>;
	expect(log.filter((e) => e.fault === 'capacity')).toHaveLength(2);
	// once the line is empty, requests are served again
	expect((await api.get('/envelopes')).status).toBe(200);
});

test('the start settings survive a reset; POST /faults replaces them and checks the shape', async () => {
	await admin(sandbox).post('/reset');
	expect((await admin(sandbox).get('/faults')).data).toMatchObject({ latencyMs: 100, capacity: { slots: 2, maxInFlight: 4 } });
	const bad = await admin(sandbox).post('/faults', { capacity: { slots: 5, maxInFlight: 3 } });
	expect(bad.status).toBe(400);
	expect(JSON.stringify(bad.data)).toContain('maxInFlight must be at least slots');
	expect((await admin(sandbox).post('/faults', {})).data.capacity).toBeNull();
});
