/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- local tooling, not published (package.json "files" is dist/ only) */
/**
 * What one delivery costs the Document Signing Trigger's memory of event ids, with 0, 5,000
 * and 10,000 ids remembered: the claim (look-up and write into the static data), the write
 * again at n8n's read of the answer body, and the settle on the 2xx; beside it, what n8n then
 * spends on that static data: JSON.parse when it loads the workflow for the next request and
 * JSON.stringify when it saves (the database write itself not counted). Each delivery gets the
 * static data as n8n loads it per request (parsed from the last saved text), as in one n8n
 * process. Medians of 300 deliveries after 50 to warm up (and one unshown round first).
 *
 *   npx ts-node --transpile-only test/bench/claim-cost.ts [path/to/another/memory.ts]
 *
 * Above about 6,000 ids the static data's JSON passes V8's large-object size, and the garbage
 * of n8n's load and save is collected in whatever runs next, the claim included: "claim alone"
 * runs the same claims back to back on static data loaded beforehand. *
 * The optional path measures another version of memory.ts the same way (for a before/after).
 */
import * as path from 'path';
import type { IDataObject } from 'n8n-workflow';

type Memory = typeof import('../../nodes/DocumentSigningTrigger/memory');
const SIZES = (process.env.CLAIM_SIZES ?? '0,5000,10000').split(',').map(Number);
const RUNS = 300;
const WARM_UP = 50;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

interface Figure {
	ids: number;
	aloneMs: number;
	claimMs: number;
	loadMs: number;
	saveMs: number;
	storedBytes: number;
}

/** The static data n8n would hold after `count` deliveries, built through the memory itself. */
async function filled(memory: Memory, key: string, count: number, now: number): Promise<string> {
	let saved = '{}';
	for (let n = 0; n < count; n++) {
		const store = JSON.parse(saved) as IDataObject;
		await deliver(memory, key, store, `evt_fill_${n}_${now}`, now - count + n);
		saved = JSON.stringify(store);
	}
	return saved;
}

async function deliver(memory: Memory, key: string, store: IDataObject, id: string, at: number) {
	const claim = await memory.claimEvent({
		key,
		store,
		id,
		createdAtMs: at,
		forgetBeforeMs: at - 3_600_000,
		waitMs: 0,
	});
	if (claim.outcome !== 'new') throw new Error(`${id}: ${claim.outcome}`);
	const answered = claim as unknown as { answering?: () => void; taken?: () => void };
	(answered.answering ?? answered.taken)?.();
	claim.settle(true);
}

async function measure(memory: Memory, ids: number): Promise<Figure> {
	const key = `bench:${ids}:${Math.random()}`;
	const now = Date.now();
	let saved = await filled(memory, key, ids, now);
	const claims: number[] = [];
	const loads: number[] = [];
	const saves: number[] = [];
	for (let n = 0; n < WARM_UP + RUNS; n++) {
		let start = process.hrtime.bigint();
		const workflowStaticData = JSON.parse(saved) as IDataObject;
		const load = ms(start);
		start = process.hrtime.bigint();
		await deliver(memory, key, workflowStaticData, `evt_new_${n}_${now}`, now + n);
		const claim = ms(start);
		start = process.hrtime.bigint();
		saved = JSON.stringify(workflowStaticData);
		const save = ms(start);
		if (n < WARM_UP) continue;
		claims.push(claim);
		loads.push(load);
		saves.push(save);
	}
	const stores = Array.from({ length: RUNS }, () => JSON.parse(saved) as IDataObject);
	const alone: number[] = [];
	for (const [n, store] of stores.entries()) {
		const start = process.hrtime.bigint();
		await deliver(memory, key, store, `evt_alone_${n}_${now}`, now + RUNS + WARM_UP + n);
		alone.push(ms(start));
	}
	return {
		ids,
		aloneMs: median(alone),
		claimMs: median(claims),
		loadMs: median(loads),
		saveMs: median(saves),
		storedBytes: Buffer.byteLength(saved),
	};
}

async function main() {
	const other = process.argv[2];
	const memory = (await import(
		other ? path.resolve(other) : '../../nodes/DocumentSigningTrigger/memory'
	)) as Memory;
	console.log(`memory.ts: ${other ?? 'this checkout'}`);
	await measure(memory, 0); // warms the code up, not shown
	console.log('ids     claim alone ms  claim in loop ms  n8n load ms  n8n save ms  stored bytes');
	for (const ids of SIZES) {
		const f = await measure(memory, ids);
		console.log(
			`${String(f.ids).padStart(6)}  ${f.aloneMs.toFixed(3).padStart(14)}  ${f.claimMs.toFixed(3).padStart(16)}  ${f.loadMs.toFixed(3).padStart(11)}  ${f.saveMs.toFixed(3).padStart(11)}  ${String(f.storedBytes).padStart(12)}`,
		);
	}
}

void main();
