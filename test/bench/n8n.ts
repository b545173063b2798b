/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * `npm run bench`: this node with default settings side by side in the real n8n of the
 * e2e set-up (scripts/lib/stack.ts: n8n 2.41.1, this package installed as a community
 * package) against n8n's HTTP Request node (defaults and tuned by hand) and a raw `fetch`
 * loop, scenarios 1-5 and, at low and high limits, 12-15 (side-by-side.ts); the same batch
 * seconds after an unlimited one (10, limit-change.ts); Get Many with Return All (7); the trigger's signature check (9); the
 * scheduled batch at users' size from a CSV (11, scale.ts); signed deliveries to the trigger
 * beside n8n's Webhook node (16-18 under n8n's defaults, then 22-24 with n8n restarted to take
 * expression isolates lazily; delivery-scenario.ts); then the memory of a 10 MB upload in an
 * n8n of its own per binary-data mode (8, memory.ts). `npm run bench:queue` runs scenario 6
 * and the deliveries (19-21 to the webhook process, 25-27 again with every process restarted
 * to take isolates lazily) in the queue-mode stack (queue.ts). BENCH_ONLY=1,2,... picks scenarios;
 * BENCH_RUNS the runs per contender (5; 12, 13: 3; 11, 14: 1 unless set); BENCH_SCALE_DOCS the
 * documents of scenario 11 (10 000).
 * Prints the table, writes docs/benchmarks.json, docs/benchmarks.svg and the table in
 * docs/benchmarks.md (publish.ts), and exits 1 when a target is missed.
 */
import axios from 'axios';
import { promises as fs } from 'fs';

import { type SandboxInfo, Stack, stopOnExit, type WorkflowFixture } from '../../scripts/lib/stack';
import { CREDENTIAL_ID, listWorkflow } from './contenders';
import {
	type DeliveryReceivers,
	deliveryEnv,
	deliveryReceivers,
	deliveryRows,
	type HeldTo,
	LAZY_ISOLATES,
	minimalTriggerFolder,
} from './delivery-scenario';
import { benchN8nEnv, MB } from './measure';
import { latestCallSeconds } from './outcome';
import { admin } from '../sandbox-admin';
import { MEMORY_PDF_BYTES, uploadMemory } from './memory';
import { machine, publish } from './publish';
import { limitChange } from './limit-change';
import { queueScenario } from './queue';
import { Scale, scaleWorkflows } from './scale';
import { SideBySide } from './side-by-side';
import { signatureCheck } from './signature-check';
import { NODE_ONLY, SIDE_SCENARIOS, sideWorkflows } from './side-scenarios';
import { problems, type Row, yardstick } from './verdict';

const LATENCY_MS = 25;
const LIST_ENVELOPES = 10_000;
const only = (process.env.BENCH_ONLY ?? '1,2,3,4,5,12,13,14,15,10,7,8,9,11,16,22').split(',');
const log = (line: string) => console.error(`[bench] ${line}`);
const list = listWorkflow('DsBenchList00001', 'bench-list');

async function main(): Promise<void> {
	const t0 = Date.now();
	if (process.argv.slice(2).includes('queue')) {
		let rows: Row[] = [];
		try {
			rows = await queueScenario(log);
		} catch (error) {
			log(`failed: ${(error as Error).stack ?? String(error)}`);
			process.exit(1);
		}
		process.exit(finish('npm run bench:queue', rows, t0));
	}
	const nodesFolder = await minimalTriggerFolder();
	const stack = new Stack({
		name: process.env.E2E_STACK || 'bench',
		fresh: true,
		log,
		n8nEnv: { ...deliveryEnv(nodesFolder), ...benchN8nEnv() },
		n8nNodeArgs: process.env.BENCH_N8N_ARGS ? process.env.BENCH_N8N_ARGS.split(' ') : undefined,
	});
	stack.cleanups.push(async () => await fs.rm(nodesFolder, { recursive: true, force: true }));
	const stopAndExit = stopOnExit(stack, log);
	let exitCode = 1;
	try {
		// The HTTP Request workflows carry the sandbox's key, known once the sandbox runs:
		// they are built in the credentials callback, which gets the sandbox first.
		let side: ReturnType<typeof sideWorkflows> = { workflows: [], ids: new Map() };
		let scale: WorkflowFixture[] = [];
		let deliveries: DeliveryReceivers | undefined;
		await stack.start({
			credentials: (sandbox) => {
				side = sideWorkflows(sandbox);
				scale = scaleWorkflows(sandbox, stack.filesDir);
				deliveries = deliveryReceivers(
					{ id: CREDENTIAL_ID, name: 'Document Signing bench' },
					sandbox.webhookSecret,
					'DsBenchDel',
				);
				return [
					{
						id: CREDENTIAL_ID,
						name: 'Document Signing bench',
						type: 'documentSigningApi',
						data: {
							baseUrl: sandbox.baseUrl,
							apiKey: sandbox.apiKey,
							webhookSecret: sandbox.webhookSecret,
						},
					},
				];
			},
			get workflows() {
				const receivers = deliveries ? Object.values(deliveries).map((r) => r.workflow) : [];
				return [list, ...side.workflows, ...scale, ...receivers];
			},
		});
		const rows: Row[] = [];
		const bench = new SideBySide(stack, side.ids, log);
		for (const scenario of SIDE_SCENARIOS.filter((s) => only.includes(s.id))) {
			log(`scenario ${scenario.id}`);
			rows.push(...(await bench.run(scenario)));
		}
		if (only.includes('10')) {
			log('scenario 10');
			rows.push(...(await limitChange(bench, log)));
		}
		if (only.includes('7')) rows.push(...(await listAll(stack, stack.sandbox)));
		if (only.includes('9')) rows.push(...signatureCheck());
		if (only.includes('11')) {
			log('scenario 11');
			rows.push(...(await new Scale(stack, log).run()));
		}
		const deliver = async (first: number, heldTo: HeldTo) =>
			await deliveryRows(
				stack.n8nUrl,
				stack.sandbox.webhookSecret,
				deliveries!,
				first,
				heldTo,
				log,
			);
		if (only.includes('16') && deliveries) {
			log("scenarios 16-18 (n8n's defaults)");
			await freshSandbox(stack.sandbox, {});
			rows.push(...(await deliver(16, 'minimal')));
		}
		if (only.includes('22') && deliveries) {
			log('scenarios 22-24: n8n restarted with lazy isolates');
			await stack.restartN8n({ env: LAZY_ISOLATES });
			await freshSandbox(stack.sandbox, {});
			rows.push(...(await deliver(22, 'webhook')));
		}
		await stack.stop();
		if (only.includes('8')) rows.push(...(await memoryRows()));
		exitCode = finish('npm run bench', rows, t0);
	} catch (error) {
		log(`failed: ${(error as Error).stack ?? String(error)}`);
	}
	await stack.stop();
	await stopAndExit(exitCode);
}

/** Prints and publishes the table; 1 when a target is missed. */
function finish(command: string, rows: Row[], t0: number): number {
	const against = yardstick(process.env.BENCH_YARDSTICK);
	if (NODE_ONLY) {
		for (const r of rows)
			console.log(
				`${r.scenario} ${r.contender}: ${r.value.toFixed(2)} s (${r.runs?.map((v) => v.toFixed(2)).join(' / ')}), ${r.failed} failed, ${r.duplicates} twice, ${r.rateLimited} 429s${r.note ? `; ${r.note}` : ''}`,
			);
		return 0;
	}
	const table = publish(command, rows, machine((Date.now() - t0) / 1000), against);
	console.log(table);
	const missed = problems(rows, against);
	for (const p of missed) console.log(`MISSED ${p}`);
	console.log(missed.length ? `${missed.length} target(s) missed` : 'every target holds');
	return missed.length ? 1 : 0;
}

async function freshSandbox(sandbox: SandboxInfo, faults: Record<string, unknown>): Promise<void> {
	await admin(sandbox).post('/reset');
	await admin(sandbox).post('/faults', faults);
}

const api = (sandbox: SandboxInfo) =>
	axios.create({
		baseURL: sandbox.baseUrl,
		headers: { authorization: `Bearer ${sandbox.apiKey}` },
		validateStatus: () => true,
	});

async function listAll(stack: Stack, sandbox: SandboxInfo): Promise<Row[]> {
	await freshSandbox(sandbox, {});
	log(`3: seeding ${LIST_ENVELOPES} envelopes`);
	const client = api(sandbox);
	let next = 0;
	await Promise.all(
		Array.from({ length: 20 }, async () => {
			while (next < LIST_ENVELOPES) {
				const n = next++;
				await client.post('/envelopes', { fileName: 'bench.pdf', title: `List ${n}` });
			}
		}),
	);
	await admin(sandbox).post('/faults', { latencyMs: LATENCY_MS });
	const t0 = performance.now();
	const response = await axios.post(
		`${stack.n8nUrl}/webhook/bench-list`,
		{ items: [{ title: 'list' }] },
		{ validateStatus: () => true, timeout: 600_000 },
	);
	const wall = (performance.now() - t0) / 1000;
	const nodeS = (await latestCallSeconds(stack, list.id)) ?? wall;
	const got = Array.isArray(response.data) ? response.data.length : 0;

	const headers = { authorization: `Bearer ${sandbox.apiKey}` };
	const t1 = performance.now();
	let rawCount = 0;
	for (let page = 1; ; page++) {
		const body = (await (
			await fetch(`${sandbox.baseUrl}/envelopes?page=${page}&limit=100`, { headers })
		).json()) as { items: unknown[]; pageInfo: { hasNext: boolean } };
		rawCount += body.items.length;
		if (!body.pageInfo.hasNext) break;
	}
	const rawS = (performance.now() - t1) / 1000;
	await admin(sandbox).post('/faults', {});
	const base = { scenario: '7', duplicates: 0, rateLimited: 0, serverErrors: 0, requests: 0 };
	return [
		{
			...base,
			contender: 'this node, Get Many, Return All',
			kind: 'node',
			value: nodeS,
			failed: LIST_ENVELOPES - got,
		},
		{
			...base,
			contender: 'raw paging loop (limit 100)',
			kind: 'raw',
			value: rawS,
			failed: LIST_ENVELOPES - rawCount,
		},
	];
}

/** Scenario 8: MB a 10 MB upload adds to n8n's peak RSS, per binary-data mode (memory.ts). */
async function memoryRows(): Promise<Row[]> {
	const rows: Row[] = [];
	for (const f of await uploadMemory(log)) {
		const mb = (bytes: number) => bytes / MB;
		const spread = (values: number[]) =>
			`${mb(Math.min(...values)).toFixed(1)}-${mb(Math.max(...values)).toFixed(1)}`;
		rows.push({
			scenario: '8',
			contender: `this node, create with upload, ${f.mode} binary mode`,
			kind: 'node',
			value: mb(f.node),
			limit: (2 * MEMORY_PDF_BYTES) / MB,
			failed: 0,
			duplicates: 0,
			rateLimited: 0,
			serverErrors: 0,
			requests: 0,
			note: `read + upload ${mb(f.upload).toFixed(1)} MB (${spread(f.samples.upload)}) minus read only ${mb(f.readOnly).toFixed(1)} MB (${spread(f.samples.readOnly)}), medians`,
		});
	}
	return rows;
}

void main();
