/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: reads POLL_COST_FULL; not published (package.json "files" is dist/ only) */
/**
 * What the Status Trigger's poll budget costs per backlog size under n8n 2.41's poll scheduler
 * (scheduler.ts): backlogs of 100 to 6,000 completed envelopes, list only and with Download
 * Signed PDF, at n8n's budget for the default 45 s timeout (36 s) and for a 15 s one (10 s).
 * Every API request costs 700 ms on the test's clock (service-clock.ts); pages are the
 * service's 100. Each drain must emit every envelope once, oldest first, each poll within its
 * budget, and fetch each file once. The table printed is the one docs/operations.md gives.
 *
 * The backlog is one envelope completed through the API and copies of its record in the
 * service's store, stamped 10 ms apart (a bulk send completing): 6,000 envelopes made through
 * the API would take most of a minute to set up, and the poll reads them the same way.
 *
 * A file costs the test about 15 ms of real time, and a page of the list a little CPU, so npm
 * test drains 100 and 3,000 list only and files at 100; POLL_COST_FULL=1 runs every size, with
 * files too (about 10 minutes: 6,000 files at a 10 s budget take about 1,000 polls).
 */
import type { INodeParameters } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { completedEnvelopes } from './helpers';
import { scheduledPolls, type Tick } from './scheduler';
import { type ServiceClock, type ServiceClockModule, useServiceClock } from './service-clock';

jest.mock('../../nodes/DocumentSigningStatusTrigger/pollClock', () =>
	jest.requireActual<ServiceClockModule>('./service-clock').pollClockModule(),
);

const ROUND_TRIP_MS = 700;
/** Between two completions of the backlog. */
const SPACING_MS = 10;
/** Between two polls (the Status Trigger's Every Minute). */
const INTERVAL_MS = 60_000;

let h: Harness;
let clock: ServiceClock;
const table: string[] = [];

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => {
	// eslint-disable-next-line no-console -- the table docs/operations.md gives
	console.log(
		[
			'backlog | download | timeout (budget) | polls until drained (emitting) | requests | envelopes per emitting poll (mean, most) | longest poll',
			...table,
		].join('\n'),
	);
	await h.close();
});
beforeEach(async () => {
	await h.reset();
	clock = useServiceClock(h.sandbox.state, ROUND_TRIP_MS);
});

/**
 * `count` envelopes completed after the baseline, oldest first: one through the API, the rest
 * copies of its record with their own ids and stamps, all ended before the service's now.
 */
async function backlog(count: number): Promise<string[]> {
	const state = h.sandbox.state;
	const [first] = await completedEnvelopes(h, 1, 'Backlog');
	const model = state.envelopes.get(first)!;
	clock.pass(count * SPACING_MS + 2_000);
	const start = state.nowMs() - count * SPACING_MS - 1_000;
	const ids = [first];
	for (let i = 1; i < count; i++) {
		const stamp = new Date(start + i * SPACING_MS).toISOString();
		const id = state.newId('env');
		state.envelopes.set(id, {
			...structuredClone(model),
			id,
			title: `Backlog ${i + 1}`,
			updatedAt: stamp,
			completedAt: stamp,
		});
		ids.push(id);
	}
	model.updatedAt = model.completedAt = new Date(start).toISOString();
	return ids;
}

/** The file requests the service saw per envelope. */
function fileRequests(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const r of h.sandbox.state.requestLog) {
		const id = /\/envelopes\/([^/]+)\/file$/.exec(r.path)?.[1];
		if (id && r.method === 'GET') counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

const FULL = process.env.POLL_COST_FULL === '1';
const CASES: Array<[number, boolean, number]> = [];
for (const timeout of [45_000, 15_000])
	for (const download of [false, true])
		for (const size of [100, 1_000, 3_000, 6_000]) {
			// npm test: the smallest and the 3,000 (list only), files at 100; the rest with FULL.
			const sampled = download ? size === 100 : size === 100 || size === 3_000;
			if (sampled || FULL) CASES.push([size, download, timeout]);
		}

describe('Status Trigger under the poll scheduler: the cost of a backlog per size and budget', () => {
	it.each(CASES)(
		'%i completed envelopes, download %s, timeout %i ms: each emitted once in order, each poll within its budget, each file fetched once',
		async (size, download, timeoutMs) => {
			const parameters: INodeParameters = { statuses: ['completed'], downloadSignedPdf: download };
			const p = scheduledPolls({
				credentials: {
					baseUrl: h.sandbox.baseUrl,
					apiKey: h.sandbox.apiKey,
					webhookSecret: h.sandbox.webhookSecret,
				},
				parameters,
				clock,
				timeoutMs,
			});
			expect((await p.tick()).kind).toBe('empty');
			const ids = await backlog(size);
			const servedBefore = clock.served;
			const ticks: Tick[] = [];
			const emitted: string[] = [];
			while (emitted.length < size && ticks.length < 2_000) {
				const tick = await p.tick();
				ticks.push(tick);
				if (tick.kind === 'emitted')
					emitted.push(...tick.items.map((i) => i.json.envelopeId as string));
				if (tick.kind === 'abandoned' || tick.kind === 'failed') break;
				clock.pass(INTERVAL_MS);
			}
			const requests = clock.served - servedBefore;
			// Once drained, the next poll has nothing.
			const after = await p.tick();

			expect(ticks.filter((t) => t.kind === 'abandoned' || t.kind === 'failed')).toEqual([]);
			expect(after.kind).toBe('empty');
			// Every envelope once, oldest first, across all polls.
			expect(emitted.length).toBe(size);
			expect(emitted).toEqual(ids);
			expect(Math.max(...ticks.map((t) => t.ms))).toBeLessThanOrEqual(p.budgetMs);
			const files = fileRequests();
			if (download) expect(ids.filter((id) => files.get(id) !== 1)).toEqual([]);
			else expect(files.size).toBe(0);

			const sizes = ticks.flatMap((t) => (t.kind === 'emitted' ? [t.items.length] : []));
			const mean = Math.round(size / sizes.length);
			table.push(
				`${size} | ${download ? 'yes' : 'no'} | ${timeoutMs / 1000} s (${p.budgetMs / 1000} s) | ${ticks.length} (${sizes.length}) | ${requests} | ${mean}, ${Math.max(...sizes)} | ${(Math.max(...ticks.map((t) => t.ms)) / 1000).toFixed(1)} s`,
			);
		},
		FULL ? 900_000 : 60_000,
	);
});
