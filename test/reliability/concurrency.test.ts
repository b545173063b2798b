/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import type { IDataObject, IPairedItemData, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { runOp, seedEnvelope } from '../envelope/helpers';

const byItem = { __rl: true, mode: 'id', value: '={{ $json.envelopeId }}' };

let h: Harness;
beforeAll(async () => {
	h = await startHarness({ retry: { baseDelayMs: 10, maxDelayMs: 50 } });
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

/**
 * The start of the next whole second, when the sandbox's per-second limit opens a new window.
 * Real time: the limit counts on the wall clock, as the run the test watches does.
 */
async function nextSecond(): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

async function seedMany(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++)
		ids.push((await seedEnvelope(h, { title: `Lease ${i}` })).id as string);
	return ids;
}

const status = (batching: IDataObject = {}) => ({
	operation: 'getStatus',
	envelopeId: byItem,
	batching,
});
const hintsOf = (run: Awaited<ReturnType<typeof runOp>>) =>
	(run.result.runData['Document Signing']?.[0]?.hints ?? []).map((hint) => hint.message);

describe('bounded concurrency across items', () => {
	it('runs items in parallel (default 10) and keeps output order and pairedItem', async () => {
		const ids = await seedMany(10);
		await h.fault({ latencyMs: 150 });
		const input = ids.map((envelopeId) => ({ json: { envelopeId } }));

		const parallel = await runOp(h, status(), input);
		expect(parallel.result.error).toBeUndefined();
		expect(parallel.items.map((item) => item.json.envelopeId)).toEqual(ids);
		expect(parallel.items.map((item) => (item.pairedItem as IPairedItemData).item)).toEqual(
			ids.map((_, i) => i),
		);

		const serial = await runOp(h, status({ parallelRequests: 1 }), input);
		expect(serial.items.map((item) => item.json.envelopeId)).toEqual(ids);
		// Counted at the service (each request stays 150 ms there): one after another, each
		// arrives after the one before was answered; in parallel, several arrive within 150 ms.
		const arrivals = (run: typeof serial) =>
			run.requests.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
		const most = (at: number[]) =>
			Math.max(...at.map((t, k) => at.slice(k).filter((u) => u < t + 150).length));
		expect(arrivals(serial).every((t, k, all) => k === 0 || t - all[k - 1] >= 150)).toBe(true);
		expect(most(arrivals(parallel))).toBeGreaterThanOrEqual(5);
	});

	it('Continue On Fail: error items stay in place, paired with their item', async () => {
		const ids = await seedMany(6);
		const input = ids.map((envelopeId, i) => ({
			json: { envelopeId: i % 3 === 1 ? 'env_missing' : envelopeId },
		}));
		const run = await runOp(h, status({ parallelRequests: 4 }), input, { continueOnFail: true });
		expect(run.result.error).toBeUndefined();
		expect(run.items).toHaveLength(6);
		run.items.forEach((item, i) => {
			expect((item.pairedItem as IPairedItemData).item).toBe(i);
			if (i % 3 === 1) expect(item.json.error).toMatch(/NOT_FOUND/);
			else expect(item.json.envelopeId).toBe(ids[i]);
		});
	});

	it('without Continue On Fail: the first failing item (by index) stops the run, and no item starts after it', async () => {
		const ids = await seedMany(12);
		const input = ids.map((envelopeId, i) => ({
			json: { envelopeId: i === 2 || i === 3 ? `env_missing${i}` : envelopeId },
		}));
		const run = await runOp(h, status({ parallelRequests: 3 }), input);
		const error = run.result.error as unknown as { message: string; context: IDataObject };
		expect(error.message).toMatch(/NOT_FOUND/);
		expect(error.context.itemIndex).toBe(2);
		// items started: those before the failure and at most the two already running beside it
		expect(run.requests.filter((r) => r.method === 'GET').length).toBeLessThanOrEqual(3 + 2 + 1);
	});
});

describe('one rate controller per run and credential', () => {
	it('a 429 pauses every item for Retry-After, then the pace resumes lower; all items succeed', async () => {
		const ids = await seedMany(60);
		await h.fault({ rateLimitPerSecond: 20, retryAfterSeconds: 0.2, latencyMs: 2 });
		await nextSecond();
		const input = ids.map((envelopeId) => ({ json: { envelopeId } }));
		const run = await runOp(h, status({ parallelRequests: 10 }), input);

		expect(run.result.error).toBeUndefined();
		expect(run.items.map((item) => item.json.envelopeId)).toEqual(ids);
		const statuses = run.requests.map((r) => r.status);
		const limited = statuses.filter((s) => s === 429).length;
		expect(statuses.filter((s) => s === 200)).toHaveLength(60);
		// The first burst meets the limit; after that the pace stays below it (a few stragglers at most).
		expect(limited).toBeGreaterThan(0);
		expect(limited).toBeLessThan(25);
		// After the first 429, no new burst: 21 successes always span most of a second.
		const first429 = run.requests.findIndex((r) => r.status === 429);
		const after = run.requests
			.slice(first429)
			.filter((r) => r.status === 200)
			.map((r) => Date.parse(r.time));
		for (let k = 20; k < after.length; k++)
			expect(after[k] - after[k - 20]).toBeGreaterThanOrEqual(700);
		expect(hintsOf(run).join(' ')).toMatch(/60 of 60 items done.*rate-limit answers \(429\)/);
	});

	it('"Max Requests per Second" paces from the start: no 429 at all', async () => {
		const ids = await seedMany(24);
		await h.fault({ rateLimitPerSecond: 20 });
		// a new window of the sandbox's limit (the previous test's requests count in theirs)
		await nextSecond();
		const input = ids.map((envelopeId) => ({ json: { envelopeId } }));
		const t0 = Date.now();
		const run = await runOp(h, status({ parallelRequests: 10, maxRequestsPerSecond: 12 }), input);
		expect(run.result.error).toBeUndefined();
		expect(run.requests.every((r) => r.status === 200)).toBe(true);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(((24 - 1) / 12) * 1000 - 50);
	});

	it('the later nodes of an execution and another execution soon after start at the pace an earlier node learned', async () => {
		const ids = await seedMany(40);
		await h.fault({ rateLimitPerSecond: 20, retryAfterSeconds: 0.2, latencyMs: 2 });
		await nextSecond();
		const input = ids.map((envelopeId) => ({ json: { envelopeId } }));
		const params = { resource: 'envelope', ...status({ parallelRequests: 10 }) } as Record<
			string,
			NodeParameterValueType
		>;
		const before = (await h.requests()).length;
		const result = await h.run({
			nodes: [
				seedNode(),
				{ ...actionNode(params, { name: 'First' }), id: 'first' },
				{ ...actionNode(params, { name: 'Second' }), id: 'second' },
			],
			connections: chain('Seed', 'First', 'Second'),
			input,
		});
		expect(result.error).toBeUndefined();
		expect(result.items('Second')).toHaveLength(40);
		const requests = (await h.requests()).slice(before);
		// n8n runs First's items, then Second's: Second's requests follow First's 40th success.
		const firstDone = requests.reduce(
			(at, r, k) =>
				r.status === 200 && requests.slice(0, k + 1).filter((x) => x.status === 200).length === 40
					? k
					: at,
			-1,
		);
		const first = requests.slice(0, firstDone + 1);
		const second = requests.slice(firstDone + 1);
		expect(first.filter((r) => r.status === 429).length).toBeGreaterThan(0);
		expect(second.filter((r) => r.status === 200)).toHaveLength(40);
		expect(second.filter((r) => r.status === 429)).toHaveLength(0);

		// Another execution soon after goes on at the learned count (forgetting an idle
		// credential is tested on a fake clock in pacing-clock.test.ts).
		await nextSecond();
		const soon = await runOp(h, status({ parallelRequests: 10 }), input);
		expect(soon.result.error).toBeUndefined();
		// (a count learned a little high is corrected by one 429)
		expect(soon.requests.filter((r) => r.status === 429).length).toBeLessThanOrEqual(1);
	});

	it('two executions at once with one credential share one window: nothing lost, none twice, few 429s', async () => {
		const ids = await seedMany(60);
		await h.fault({ rateLimitPerSecond: 20, latencyMs: 5 });
		await nextSecond();
		const half = (k: number) =>
			ids.slice(k * 30, k * 30 + 30).map((envelopeId) => ({ json: { envelopeId } }));
		const before = (await h.requests()).length;
		const runs = await Promise.all([0, 1].map(async (k) => await runOp(h, status(), half(k))));
		for (const [k, run] of runs.entries()) {
			expect(run.result.error).toBeUndefined();
			expect(run.items.map((item) => item.json.envelopeId)).toEqual(ids.slice(k * 30, k * 30 + 30));
		}
		const requests = (await h.requests()).slice(before);
		expect(requests.filter((r) => r.status === 200)).toHaveLength(60);
		// One shared window: only the first burst meets the limit (the requests already in
		// flight then), after it each window's count goes once: 60 at 20 per second, 3 windows.
		const limited = requests.filter((r) => r.status === 429);
		const firstRefused = Date.parse(limited[0].time);
		expect(
			limited.filter((r) => Date.parse(r.time) > firstRefused + 500).length,
		).toBeLessThanOrEqual(2);
	});

	it('a 429 pauses the run for its Retry-After (a later run starting at once: pacing-clock.test.ts)', async () => {
		const ids = await seedMany(5);
		await h.fault({ failures: [{ status: 429, count: 1 }], retryAfterSeconds: 0.3 });
		const input = ids.map((envelopeId) => ({ json: { envelopeId } }));
		const t0 = Date.now();
		const run = await runOp(h, status(), input);
		expect(run.result.error).toBeUndefined();
		expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
	});

	it('a retried 503 or server error shows up in the hint under the output', async () => {
		const ids = await seedMany(3);
		await h.fault({
			failures: [
				{ status: 503, count: 1 },
				{ status: 500, count: 1 },
			],
			retryAfterSeconds: 0,
		});
		const run = await runOp(
			h,
			status(),
			ids.map((envelopeId) => ({ json: { envelopeId } })),
		);
		expect(run.result.error).toBeUndefined();
		expect(hintsOf(run)).toEqual([
			expect.stringMatching(/^3 of 3 items done .*; 2 requests sent again after a failure\.$/),
		]);
	});
});

describe('adaptive items at once (no Parallel Requests set)', () => {
	it('runs more than 10 at once against a quick service (counted at the service, not timed)', async () => {
		const ids = await seedMany(200);
		await h.fault({ latencyMs: 100 });
		const run = await runOp(
			h,
			status(),
			ids.map((envelopeId) => ({ json: { envelopeId } })),
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((item) => item.json.envelopeId)).toEqual(ids);
		expect(run.requests.filter((r) => r.status === 200)).toHaveLength(200);
		// Each request stays at least 100 ms in the service: at a fixed 10 at once, no 90 ms
		// holds more than 10 arrivals, however loaded the machine.
		const arrivals = run.requests.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
		const most = Math.max(
			...arrivals.map((at, k) => arrivals.slice(k).filter((t) => t < at + 90).length),
		);
		expect(most).toBeGreaterThan(20);
	});

	it('creates at a rate limit with latency: every document created once, in item order', async () => {
		await h.fault({ rateLimitPerSecond: 40, latencyMs: 15 });
		await nextSecond();
		const input = Array.from({ length: 120 }, (_, n) => ({ json: { title: `Adaptive ${n}` } }));
		const run = await runOp(
			h,
			{
				operation: 'create',
				pdfSource: 'none',
				fileName: 'lease.pdf',
				title: '={{ $json.title }}',
			},
			input,
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((item) => item.json.title)).toEqual(input.map((item) => item.json.title));
		const created = run.requests.filter((r) => r.method === 'POST' && r.status === 201);
		const titles = created.map((r) => (r.body as IDataObject).title);
		expect(new Set(titles).size).toBe(120);
		expect(titles).toHaveLength(120);
		// every create that was not answered 201 was refused with 429 (not processed) and sent again
		expect(
			run.requests.filter((r) => r.method === 'POST' && r.status !== 201 && r.status !== 429),
		).toHaveLength(0);
	});
});
