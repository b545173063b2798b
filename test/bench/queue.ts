/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * Scenario 6 of `npm run bench` (`npm run bench:queue`): scenario 3's batch (500
 * documents from a template, created and sent, 25 ms latency, 100 requests/s per key) in
 * the queue-mode stack of `npm run e2e:queue` (main, 2 workers running 2 executions each,
 * a webhook process, PostgreSQL, Redis), split into 4 executions of 125 items started at
 * once: both workers share the one key's limit. The figure is the time from the first
 * webhook call to the last answer (the executions run side by side), median of RUNS runs;
 * the floor is 1 000 requests at 100/s = 10 s. One execution of all 500 items on a worker
 * is measured once beside it, without a target. Then scenarios 19-21 (delivery-scenario.ts):
 * signed deliveries to the webhook process, the trigger beside n8n's Webhook node; and 25-27,
 * the same after every n8n process is restarted to take expression isolates lazily.
 */
import axios from 'axios';
import { promises as fs } from 'fs';

import { QueueStack } from '../../scripts/lib/queue-stack';
import { sleep, stopOnExit } from '../../scripts/lib/stack';
import { prepareExampleData } from '../../scripts/lib/example-data';
import { CREDENTIAL_ID, credentials } from '../e2e/lib';
import { packageTemplateWorkflow } from './contenders';
import {
	type DeliveryReceivers,
	deliveryEnv,
	deliveryReceivers,
	deliveryRows,
	type HeldTo,
	LAZY_ISOLATES,
	minimalTriggerFolder,
} from './delivery-scenario';
import { benchN8nEnv } from './measure';
import { outcome, timeline, untilPaceForgotten } from './outcome';
import { admin } from '../sandbox-admin';
import { ITEMS, RUNS } from './side-scenarios';
import { median, type Row } from './verdict';

const PATH = 'bench-queue-split';
/** BENCH_ONLY picks scenario 6 and the deliveries (19 stands for 19-21, 25 for 25-27). */
const only = (process.env.BENCH_ONLY ?? '6,19,25').split(',');
const FLOOR_S = (2 * ITEMS) / 100;

export async function queueScenario(log: (line: string) => void): Promise<Row[]> {
	const workflow = packageTemplateWorkflow(
		'DsBenchQueue0001',
		PATH,
		{},
		{ id: CREDENTIAL_ID, name: 'Document Signing sandbox' },
	);
	const nodesFolder = await minimalTriggerFolder();
	const queue = await QueueStack.create({
		name: process.env.E2E_STACK || 'bench-queue',
		log,
		workers: 2,
		workerConcurrency: 2,
		n8nEnv: { ...deliveryEnv(nodesFolder), ...benchN8nEnv() },
	});
	queue.stack.cleanups.push(async () => await fs.rm(nodesFolder, { recursive: true, force: true }));
	stopOnExit(queue.stack, log); // every process stops on Ctrl-C too
	let deliveries: DeliveryReceivers | undefined;
	try {
		await queue.start({
			credentials: (sandbox) => {
				deliveries = deliveryReceivers(
					{ id: CREDENTIAL_ID, name: 'Document Signing sandbox' },
					sandbox.webhookSecret,
					'DsQBenchDe',
				);
				return credentials(sandbox);
			},
			get workflows() {
				return [workflow, ...(deliveries ? Object.values(deliveries).map((r) => r.workflow) : [])];
			},
		});
		const sandbox = queue.stack.sandbox;
		let batch = 0;
		let lastEnd = 0;
		const run = async (parts: number) => {
			// As in scenarios 1-5: each run starts without the pace the workers learned in the run before.
			await untilPaceForgotten(lastEnd);
			await admin(sandbox).post('/reset');
			await prepareExampleData(queue.stack);
			await admin(sandbox).post('/faults', { latencyMs: 25, rateLimitPerSecond: 100 });
			await sleep(1000 - (Date.now() % 1000) + 5);
			const per = ITEMS / parts;
			const tag = `Queue ${++batch}`;
			const t0 = performance.now();
			const answers = await Promise.all(
				Array.from({ length: parts }, async (_, p) => {
					const items = Array.from({ length: per }, (__, n) => ({
						title: `${tag} ${p * per + n}`,
					}));
					return await axios.post(
						`${queue.webhookOrigin}/webhook/${PATH}`,
						{ items },
						{ validateStatus: () => true, timeout: 600_000 },
					);
				}),
			);
			const value = (performance.now() - t0) / 1000;
			lastEnd = Date.now();
			await admin(sandbox).post('/faults', {});
			const o = await outcome(sandbox);
			log(await timeline(sandbox));
			const bad = answers.filter((a) => a.status !== 200).length;
			log(
				`  6 ${parts} execution(s): ${value.toFixed(2)} s, ${ITEMS - o.completed} failed, ${o.duplicates} twice, ${o.rateLimited} 429s`,
			);
			return {
				value,
				failed: ITEMS - o.completed,
				duplicates: o.duplicates,
				rateLimited: o.rateLimited,
				serverErrors: o.serverErrors,
				requests: o.requests,
				note: bad ? `${bad} webhook answers were not 200` : undefined,
			};
		};
		const rows: Row[] = [];
		if (only.includes('6')) {
			await run(4); // unmeasured: a fresh n8n compiles its code paths on first use
			const split = [];
			for (let k = 0; k < RUNS; k++) split.push(await run(4));
			const one = await run(1);
			const values = split.map((r) => r.value);
			const mid = [...split].sort((a, b) => a.value - b.value)[Math.floor((split.length - 1) / 2)];
			rows.push(
				{
					...mid,
					scenario: '6',
					contender: 'this node, defaults: 4 executions x 125 at once',
					kind: 'node',
					value: median(values),
					runs: values,
					failed: Math.max(...split.map((r) => r.failed)),
					duplicates: Math.max(...split.map((r) => r.duplicates)),
					limit: 1.5 * FLOOR_S,
					note: [`floor ${FLOOR_S} s, target 1.5 x`, mid.note].filter(Boolean).join('; '),
				},
				{
					...one,
					scenario: '6',
					contender: 'this node, defaults: 1 execution of 500 (no target)',
					kind: 'other',
				},
			);
		}
		const deliver = async (first: number, heldTo: HeldTo) =>
			await deliveryRows(
				queue.webhookOrigin,
				sandbox.webhookSecret,
				deliveries!,
				first,
				heldTo,
				log,
			);
		if (only.includes('19') && deliveries) {
			log("scenarios 19-21 (n8n's defaults)");
			await admin(sandbox).post('/reset');
			rows.push(...(await deliver(19, 'minimal')));
		}
		if (only.includes('25') && deliveries) {
			// Every process: the workers' runs take isolates too, on the same 2 cores.
			log('scenarios 25-27: main, workers and the webhook process restarted with lazy isolates');
			await queue.restartAll(LAZY_ISOLATES);
			await admin(sandbox).post('/reset');
			rows.push(...(await deliver(25, 'webhook')));
		}
		return rows;
	} finally {
		await queue.stop();
	}
}
