/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * `npm run bench`: batches at the API's rate limit, side by side in the real n8n of the
 * e2e set-up (scripts/lib/stack.ts): this package's node (default settings and tuned)
 * against n8n's HTTP Request node (defaults, batching tuned by hand, Retry On Fail), and
 * against raw `fetch` loops. The sandbox runs in its own process with injected latency.
 * Scenario 4 (memory of a 10 MB upload in filesystem and default binary mode) starts an
 * n8n of its own per mode (memory.ts). Prints a table and exits 1 when a target fails.
 * BENCH_ONLY=1,2,3,4,5 picks scenarios.
 */
import axios from 'axios';
import { randomBytes } from 'crypto';
import * as os from 'os';

import { type SandboxInfo, Stack, stopOnExit } from '../../scripts/lib/stack';
import { computeSignature, verifySignature } from '../../nodes/DocumentSigningTrigger/signature';
import { prepareExampleData } from '../../scripts/lib/example-data';
import { CREDENTIAL_ID, documentBody, httpTemplateWorkflow, listWorkflow, packageTemplateWorkflow, TEMPLATE_ID } from './contenders';
import { DEFAULT_PARALLEL_REQUESTS } from '../../nodes/DocumentSigning/actions/router';
import { MB } from './measure';
import { admin, latestCallSeconds, outcome } from './outcome';
import { MEMORY_PDF_BYTES, uploadMemory } from './memory';

const ITEMS = 500;
const LATENCY_MS = 25;
const LIMIT_PER_SECOND = 100;
const FLOOR_S = (2 * ITEMS) / LIMIT_PER_SECOND;
const LIST_ENVELOPES = 10_000;
const only = (process.env.BENCH_ONLY ?? '1,2,3,4,5').split(',');
const log = (line: string) => console.error(`[bench] ${line}`);

interface Row {
	scenario: string;
	contender: string;
	wallS: number;
	failed: number;
	duplicates: number;
	rateLimited: number;
	requests: number;
	note?: string;
}

// Scenarios 1 and 2: a document from a template, then sent (two API calls per item).
const packageDefault = packageTemplateWorkflow('DsBenchPkgDef001', 'bench-package-default', {});
const packageTuned = packageTemplateWorkflow('DsBenchPkgTun001', 'bench-package-tuned', { parallelRequests: 10, maxRequestsPerSecond: 98 });
const packageNoLimit = packageTemplateWorkflow('DsBenchPkgFree01', 'bench-package-free', {});
const list = listWorkflow('DsBenchList00001', 'bench-list');

async function main(): Promise<void> {
	const stack = new Stack({ name: process.env.E2E_STACK || 'bench', fresh: true, log });
	const stopAndExit = stopOnExit(stack, log);
	let exitCode = 1;
	try {
		// The HTTP Request workflows carry the sandbox's key, known once the sandbox runs:
		// they are built in the credentials callback, which gets the sandbox first.
		const httpFlows: ReturnType<typeof httpTemplateWorkflow>[] = [];
		await stack.start({
			credentials: (sandbox) => {
				httpFlows.push(
					httpTemplateWorkflow('DsBenchHttpDef01', 'bench-http-default', sandbox),
					httpTemplateWorkflow('DsBenchHttpBat01', 'bench-http-batched', sandbox, { batching: { batch: { batchSize: 10, batchInterval: 100 } } }),
					httpTemplateWorkflow('DsBenchHttpRetr1', 'bench-http-retry', sandbox, {}, { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 }),
				);
				return [{ id: CREDENTIAL_ID, name: 'Document Signing bench', type: 'documentSigningApi', data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, webhookSecret: sandbox.webhookSecret } }];
			},
			get workflows() {
				return [packageDefault, packageTuned, packageNoLimit, list, ...httpFlows];
			},
		});
		const rows: Row[] = [];
		const sandbox = stack.sandbox;
		const contenders: Array<[string, string]> = [
			['this node, default settings', 'bench-package-default'],
			['this node, tuned (10 parallel, 98/s)', 'bench-package-tuned'],
			['HTTP Request, defaults', 'bench-http-default'],
			['HTTP Request, batching 10 per 100 ms', 'bench-http-batched'],
			['HTTP Request, defaults + Retry On Fail', 'bench-http-retry'],
		];
		if (only.includes('1')) {
			for (const [name, path] of contenders) {
				rows.push(await batch(stack, '1 rate-limited', name, path, { latencyMs: LATENCY_MS, rateLimitPerSecond: LIMIT_PER_SECOND }));
			}
		}
		if (only.includes('2')) {
			rows.push(await batch(stack, '2 no limit', `this node, default (${DEFAULT_PARALLEL_REQUESTS} parallel)`, 'bench-package-free', { latencyMs: LATENCY_MS }));
			rows.push(await rawBatch(stack, DEFAULT_PARALLEL_REQUESTS));
			// What users would build instead, for comparison (no target): every item at once.
			rows.push(await batch(stack, '2 no limit', 'HTTP Request, defaults (no target)', 'bench-http-default', { latencyMs: LATENCY_MS }));
		}
		if (only.includes('3')) rows.push(...(await listAll(stack, sandbox)));
		if (only.includes('5')) rows.push(signatureCheck());
		await stack.stop();
		if (only.includes('4')) rows.push(...(await memoryRows()));
		exitCode = report(rows);
	} catch (error) {
		log(`failed: ${(error as Error).stack ?? String(error)}`);
	}
	await stack.stop();
	await stopAndExit(exitCode);
}

const api = (sandbox: SandboxInfo) =>
	axios.create({ baseURL: sandbox.baseUrl, headers: { authorization: `Bearer ${sandbox.apiKey}` }, validateStatus: () => true });

async function freshSandbox(sandbox: SandboxInfo, faults: Record<string, unknown>, stack?: Stack): Promise<void> {
	await admin(sandbox).post('/reset');
	if (stack) await prepareExampleData(stack); // the template, again after the reset
	await admin(sandbox).post('/faults', faults);
	// start in a new window of the per-second limit
	await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

async function batch(stack: Stack, scenario: string, contender: string, path: string, faults: Record<string, unknown>): Promise<Row> {
	const sandbox = stack.sandbox;
	await freshSandbox(sandbox, faults, stack);
	log(`${scenario}: ${contender}`);
	const items = Array.from({ length: ITEMS }, (_, n) => ({ title: `Bench ${path} ${n}` }));
	const t0 = performance.now();
	const response = await axios.post(`${stack.n8nUrl}/webhook/${path}`, { items }, { validateStatus: () => true, timeout: 600_000 });
	const wallS = (performance.now() - t0) / 1000;
	await admin(sandbox).post('/faults', {});
	const o = await outcome(sandbox);
	const nodeS = await callNodeSeconds(stack, path);
	return {
		scenario,
		contender,
		wallS: nodeS ?? wallS,
		failed: ITEMS - o.completed,
		duplicates: o.duplicates,
		rateLimited: o.rateLimited,
		requests: o.requests,
		note: response.status === 200 ? undefined : `workflow answered ${response.status}`,
	};
}

/** The time of the two API-calling nodes in the latest execution of the workflow (n8n's own figures). */
async function callNodeSeconds(stack: Stack, path: string): Promise<number | undefined> {
	const workflowId = [packageDefault, packageTuned, packageNoLimit, list].find((w) => JSON.stringify(w.nodes).includes(`"${path}"`))?.id
		?? (await stack.api.get('/workflows')).data.data.find((w: { nodes: unknown[] }) => JSON.stringify(w.nodes).includes(`"${path}"`))?.id;
	return await latestCallSeconds(stack, workflowId);
}

/** Scenario 2's baseline: Node's fetch, the same two calls, the same concurrency. */
async function rawBatch(stack: Stack, concurrency: number): Promise<Row> {
	const sandbox = stack.sandbox;
	await freshSandbox(sandbox, { latencyMs: LATENCY_MS }, stack);
	const headers = { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' };
	const pool = async <T>(count: number, work: (n: number) => Promise<T>): Promise<T[]> => {
		const out: T[] = new Array(count);
		let next = 0;
		await Promise.all(Array.from({ length: concurrency }, async () => {
			while (next < count) { const n = next++; out[n] = await work(n); }
		}));
		return out;
	};
	const t0 = performance.now();
	const ids = await pool(ITEMS, async (n) => {
		const r = await fetch(`${sandbox.baseUrl}/templates/${TEMPLATE_ID}/documents`, { method: 'POST', headers, body: JSON.stringify(documentBody(`Bench raw ${n}`)) });
		return ((await r.json()) as { envelopeId: string }).envelopeId;
	});
	await pool(ITEMS, async (n) => await (await fetch(`${sandbox.baseUrl}/documents/${ids[n]}/send`, { method: 'POST', headers, body: '{}' })).json());
	const wallS = (performance.now() - t0) / 1000;
	const o = await outcome(sandbox);
	return { scenario: '2 no limit', contender: `raw fetch loop, ${concurrency} at once`, wallS, failed: ITEMS - o.completed, duplicates: o.duplicates, rateLimited: 0, requests: o.requests };
}

/** Scenario 3: Get Many with Return All over 10 000 envelopes against a raw paging loop. */
async function listAll(stack: Stack, sandbox: SandboxInfo): Promise<Row[]> {
	await freshSandbox(sandbox, {});
	log(`3: seeding ${LIST_ENVELOPES} envelopes`);
	const client = api(sandbox);
	let next = 0;
	await Promise.all(Array.from({ length: 20 }, async () => {
		while (next < LIST_ENVELOPES) { const n = next++; await client.post('/envelopes', { fileName: 'bench.pdf', title: `List ${n}` }); }
	}));
	await admin(sandbox).post('/faults', { latencyMs: LATENCY_MS });
	const t0 = performance.now();
	const response = await axios.post(`${stack.n8nUrl}/webhook/bench-list`, { items: [{ title: 'list' }] }, { validateStatus: () => true, timeout: 600_000 });
	const wall = (performance.now() - t0) / 1000;
	const nodeS = (await callNodeSeconds(stack, 'bench-list')) ?? wall;
	const got = Array.isArray(response.data) ? response.data.length : 0;

	const headers = { authorization: `Bearer ${sandbox.apiKey}` };
	const t1 = performance.now();
	let rawCount = 0;
	for (let page = 1; ; page++) {
		const body = (await (await fetch(`${sandbox.baseUrl}/envelopes?page=${page}&limit=100`, { headers })).json()) as { items: unknown[]; pageInfo: { hasNext: boolean } };
		rawCount += body.items.length;
		if (!body.pageInfo.hasNext) break;
	}
	const rawS = (performance.now() - t1) / 1000;
	await admin(sandbox).post('/faults', {});
	return [
		{ scenario: '3 list 10 000', contender: 'this node, Get Many, Return All', wallS: nodeS, failed: LIST_ENVELOPES - got, duplicates: 0, rateLimited: 0, requests: 0 },
		{ scenario: '3 list 10 000', contender: 'raw paging loop (limit 100)', wallS: rawS, failed: LIST_ENVELOPES - rawCount, duplicates: 0, rateLimited: 0, requests: 0 },
	];
}

/** Scenario 4: MB a 10 MB upload adds to n8n's peak RSS, per binary-data mode (memory.ts). */
async function memoryRows(): Promise<Row[]> {
	const rows: Row[] = [];
	for (const f of await uploadMemory(log)) {
		const mb = (bytes: number) => bytes / MB;
		const spread = (values: number[]) => `${mb(Math.min(...values)).toFixed(1)}-${mb(Math.max(...values)).toFixed(1)}`;
		const base = { scenario: `4 memory, ${f.mode} mode`, failed: 0, duplicates: 0, rateLimited: 0, requests: 0 };
		rows.push(
			{ ...base, contender: 'this node: create with upload (MB added to the peak)', wallS: mb(f.node), note: `read + upload ${mb(f.upload).toFixed(1)} MB (${spread(f.samples.upload)}) minus read only ${mb(f.readOnly).toFixed(1)} MB (${spread(f.samples.readOnly)}), medians` },
		);
	}
	return rows;
}

/** Scenario 5: the trigger's signature check of a 64 KB body, per call (the node's own function). */
function signatureCheck(): Row {
	const body = Buffer.from(JSON.stringify({ id: 'evt_bench', event: 'document.sent', data: { note: 'x'.repeat(64 * 1024 - 80) } }));
	const secret = randomBytes(24).toString('hex');
	const header = computeSignature(body, secret);
	const calls = 5000;
	for (let k = 0; k < 500; k++) verifySignature({ rawBody: body, header, secret }); // warm-up
	const t0 = performance.now();
	let ok = 0;
	for (let k = 0; k < calls; k++) if (verifySignature({ rawBody: body, header, secret }).ok) ok++;
	const perCallMs = (performance.now() - t0) / calls;
	return { scenario: '5 signature 64 KB', contender: 'trigger signature check, per call (ms)', wallS: perCallMs, failed: calls - ok, duplicates: 0, rateLimited: 0, requests: 0, note: `${body.length} bytes, ${calls} calls` };
}

function report(rows: Row[]): number {
	const problems: string[] = [];
	const find = (scenario: string, contender: string) => rows.find((r) => r.scenario.startsWith(scenario) && r.contender.startsWith(contender));
	const clean = (r: Row | undefined) => !!r && r.failed === 0 && r.duplicates === 0;
	const ours = rows.filter((r) => r.scenario.startsWith('1') && r.contender.startsWith('this node'));
	for (const r of ours) {
		if (!clean(r)) problems.push(`1: ${r.contender} ended with ${r.failed} failed and ${r.duplicates} duplicates`);
		if (r.wallS > FLOOR_S * 1.15) problems.push(`1: ${r.contender} took ${r.wallS.toFixed(2)} s, over 1.15 x the ${FLOOR_S} s floor`);
		for (const other of rows.filter((x) => x.scenario.startsWith('1') && x.contender.startsWith('HTTP') && clean(x))) {
			if (r.wallS >= other.wallS) problems.push(`1: ${r.contender} is not faster than ${other.contender}`);
		}
	}
	const node2 = find('2', 'this node');
	const raw2 = find('2', 'raw');
	if (node2 && raw2 && node2.wallS > raw2.wallS * 1.25) problems.push(`2: this node ${node2.wallS.toFixed(2)} s, over 1.25 x the raw loop (${raw2.wallS.toFixed(2)} s)`);
	const node3 = find('3', 'this node');
	const raw3 = find('3', 'raw');
	if (node3 && raw3 && node3.wallS > raw3.wallS * 1.2) problems.push(`3: this node ${node3.wallS.toFixed(2)} s, over 1.2 x the raw loop (${raw3.wallS.toFixed(2)} s)`);
	if (node3 && node3.failed !== 0) problems.push(`3: this node returned ${LIST_ENVELOPES - node3.failed} of ${LIST_ENVELOPES}`);
	for (const r of rows.filter((x) => x.scenario.startsWith('4'))) {
		if (r.wallS > (2 * MEMORY_PDF_BYTES) / MB) problems.push(`4: ${r.scenario}: ${r.wallS.toFixed(1)} MB added, over 2 x the ${(MEMORY_PDF_BYTES / MB).toFixed(1)} MB file`);
	}
	const sig = find('5', 'trigger');
	if (sig && (sig.wallS >= 0.1 || sig.failed)) problems.push(`5: signature check ${sig.wallS.toFixed(4)} ms per call (target under 0.1 ms)`);

	const cpu = os.cpus();
	const lines = [
		`Machine: ${cpu.length} cores (${cpu[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.platform()} ${os.release()}; bench process Node ${process.version}, n8n 2.41.1 on Node 24; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
		`Sandbox: ${LATENCY_MS} ms latency per API answer; scenario 1 at ${LIMIT_PER_SECOND} requests/s per key (floor ${FLOOR_S} s for ${2 * ITEMS} requests)`,
		'',
		'| Scenario | Contender | Time (s; 4: MB; 5: ms per call) | x floor / raw / file | Items failed | Created twice | 429s | Requests | Note |',
		'|---|---|---:|---:|---:|---:|---:|---:|---|',
	];
	for (const r of rows) {
		const base = r.scenario.startsWith('1') ? FLOOR_S : r.scenario.startsWith('2') ? raw2?.wallS : r.scenario.startsWith('3') ? raw3?.wallS : r.scenario.startsWith('4') ? MEMORY_PDF_BYTES / MB : undefined;
		const ratio = base && !r.contender.startsWith('raw') ? (r.wallS / base).toFixed(2) : '';
		lines.push(`| ${r.scenario} | ${r.contender} | ${r.wallS.toFixed(r.scenario.startsWith('5') ? 4 : 2)} | ${ratio} | ${r.failed} | ${r.duplicates} | ${r.rateLimited} | ${r.requests || ''} | ${r.note ?? ''} |`);
	}
	lines.push('', problems.length ? `${problems.length} target(s) FAILED:\n- ${problems.join('\n- ')}` : 'All targets hold');
	console.log(lines.join('\n'));
	return problems.length ? 1 : 0;
}

void main();
