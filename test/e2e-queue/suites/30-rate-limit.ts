/**
 * The rate-limited batch of `npm run bench` (scenario 3) in queue mode: 500 documents from
 * a template, each created and sent (two API calls per item), with the sandbox at 25 ms
 * latency and 100 requests per second per API key; this node with default settings.
 * First in one execution on a worker, then split into 4 executions at once, which both
 * workers share (2 at a time each): the limit is per key, so the executions share it,
 * each with its own pace. Counts
 * come from the sandbox's records: every document created once and sent. The times are
 * figures for the log and docs/scaling.md, not checks (the speed target of the split batch is
 * `npm run bench:queue`, scenario 6).
 */
import axios from 'axios';

import { sleep, waitFor } from '../../../scripts/lib/stack';
import { prepareExampleData } from '../../../scripts/lib/example-data';
import { callSeconds, outcome } from '../../bench/outcome';
import { admin } from '../../sandbox-admin';
import { check, expect, expectEqual, log } from '../../e2e/lib';
import {
	executionWithData,
	finished,
	listExecutions,
	perProcess,
	processLog,
	type QueueContext,
} from '../lib';

export const RATE_WORKFLOW_ID = 'DsQueueRate00001';
export const RATE_PATH = 'queue-rate-limited';
const ITEMS = 500;
const LIMIT_PER_SECOND = 100;
const FLOOR_S = (2 * ITEMS) / LIMIT_PER_SECOND;

export default async function suite({ queue, stack }: QueueContext): Promise<void> {
	const sandbox = stack.sandbox;
	const known = new Set((await listExecutions(stack, RATE_WORKFLOW_ID)).map((e) => e.id));

	/** Runs `parts` executions of ITEMS / parts items at once; returns their ids once finished. */
	const runBatch = async (tag: string, parts: number) => {
		await admin(sandbox).post('/reset');
		await prepareExampleData(stack); // the template, again after the reset
		await admin(sandbox).post('/faults', { latencyMs: 25, rateLimitPerSecond: LIMIT_PER_SECOND });
		// start in a new window of the per-second limit
		await sleep(1000 - (Date.now() % 1000) + 5);
		const per = ITEMS / parts;
		const t0 = Date.now();
		const answers = await Promise.all(
			Array.from({ length: parts }, async (_, p) => {
				const items = Array.from({ length: per }, (__, n) => ({ title: `${tag} ${p * per + n}` }));
				return await axios.post(
					`${queue.webhookOrigin}/webhook/${RATE_PATH}`,
					{ items },
					{ validateStatus: () => true, timeout: 300_000 },
				);
			}),
		);
		const wallS = (Date.now() - t0) / 1000;
		await admin(sandbox).post('/faults', {});
		for (const answer of answers)
			expectEqual(answer.status, 200, `webhook process answer for ${tag}`);
		const runs = await waitFor(
			`${parts} execution(s) of the rate-limited batch`,
			async () => {
				const fresh = (await listExecutions(stack, RATE_WORKFLOW_ID)).filter(
					(e) => !known.has(e.id),
				);
				return fresh.length >= parts && fresh.every(finished) ? fresh : undefined;
			},
			60_000,
			500,
		);
		for (const run of runs) known.add(run.id);
		const o = await outcome(sandbox);
		const nodeS = await Promise.all(
			runs.map(async (run) =>
				callSeconds((await executionWithData(stack, run.id)).data?.resultData.runData as never),
			),
		);
		const { ranBy } = await processLog(queue);
		const workers = perProcess(
			runs.map((r) => r.id),
			ranBy,
		);
		log(
			`  figures: ${tag}: ${o.completed} of ${ITEMS} sent, ${o.duplicates} created twice, ${o.rateLimited} 429s, ${o.requests} requests; node time ${nodeS.map((s) => s.toFixed(2)).join(' + ')} s, webhook answers after ${wallS.toFixed(2)} s (floor ${FLOOR_S} s); executions per worker ${JSON.stringify(workers)}`,
		);
		expectEqual(o.completed, ITEMS, `${tag}: documents sent`);
		expectEqual(o.duplicates, 0, `${tag}: documents created twice`);
		return { workers };
	};

	await check(
		`queue mode, rate-limited batch: ${ITEMS} template documents created and sent in one execution on a worker at ${LIMIT_PER_SECOND} requests/s, none twice`,
		async () => {
			const { workers } = await runBatch('Queue rate one', 1);
			expect(!workers['no worker'], `the execution ran on a worker: ${JSON.stringify(workers)}`);
		},
	);

	await check(
		`queue mode, rate-limited batch split over both workers (4 x ${ITEMS / 4} at once, one API key): all sent, none twice`,
		async () => {
			const { workers } = await runBatch('Queue rate split', 4);
			expectEqual(
				Object.keys(workers).filter((w) => w.startsWith('worker')).length,
				2,
				`workers that ran the 4 executions (${JSON.stringify(workers)})`,
			);
		},
	);
}
