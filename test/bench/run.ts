/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * `npm run bench`: runs the benchmarks through real n8n workflows against the sandbox
 * (in its own process, over loopback HTTP), prints every figure and whether each target
 * in targets.ts holds, and exits 1 when a target fails or a benchmark's work was wrong.
 */
import './module-resolution';
import '../setup-env';
import * as os from 'os';

import { startHarness } from '../harness';
import { startRemoteSandbox } from './remote';
import {
	batchCreate,
	type BenchResult,
	type Context,
	downloadSigned,
	type Figure,
	INJECTED_LATENCY_MS,
	largeFiles,
	listAll,
	retries,
} from './scenarios';
import { TARGETS, type Target } from './targets';

function holds(target: Target, value: number): boolean {
	if (!Number.isFinite(value)) return false;
	if (target.op === '>=') return value >= target.value;
	if (target.op === '<=') return value <= target.value;
	return value === target.value;
}

function pad(text: string, width: number, right = false): string {
	return right ? text.padStart(width) : text.padEnd(width);
}

async function main(): Promise<void> {
	const started = performance.now();
	const h = await startHarness();
	const sandbox = await startRemoteSandbox();
	const ctx: Context = { h, sandbox };
	const only = process.argv.slice(2);

	const benches: Array<[string, () => Promise<BenchResult>]> = [
		['create', () => batchCreate(ctx, 0, 'create0')],
		['create', () => batchCreate(ctx, INJECTED_LATENCY_MS, 'create20')],
		['large', () => largeFiles(ctx)],
		['list', () => listAll(ctx)],
		['download', () => downloadSigned(ctx)],
		['retry', () => retries(ctx)],
	];

	const results: BenchResult[] = [];
	try {
		// Warm-up: module loading and JIT are not part of any figure.
		await batchCreate(ctx, 0, 'warmup').catch(() => undefined);
		for (const [name, bench] of benches) {
			if (only.length && !only.includes(name)) continue;
			process.stderr.write(`running: ${name}...\n`);
			const t = performance.now();
			const result = await bench();
			process.stderr.write(`  done in ${Math.round(performance.now() - t)} ms\n`);
			results.push(result);
		}
	} finally {
		await sandbox.close();
		await h.close();
	}

	const figures = new Map<string, Figure>();
	for (const result of results)
		for (const figure of result.figures) figures.set(figure.key, figure);
	// Derived: what the injected latency added per item (one latency-bearing API call per item
	// when items run one after another).
	const mean0 = figures.get('create0.meanPerItem');
	const mean20 = figures.get('create20.meanPerItem');
	if (mean0 && mean20) {
		const added = Math.round((mean20.value - mean0.value) * 100) / 100;
		const derived: Figure = {
			key: 'create.addedPerItemMs',
			label: `time added per item by ${INJECTED_LATENCY_MS} ms latency`,
			value: added,
			unit: 'ms',
		};
		figures.set(derived.key, derived);
		results.find((r) => r.figures.includes(mean20))?.figures.push(derived);
	}

	const targetsByKey = new Map<string, Target[]>();
	for (const target of TARGETS)
		targetsByKey.set(target.key, [...(targetsByKey.get(target.key) ?? []), target]);

	const out: string[] = [];
	out.push(
		`Benchmarks: Node ${process.version}, ${os.cpus().length} CPU cores (${os.cpus()[0]?.model.trim()}), ${os.platform()}`,
	);
	let failed = 0;
	for (const result of results) {
		out.push('', result.name);
		for (const figure of result.figures) {
			const targets = targetsByKey.get(figure.key) ?? [];
			const broken = targets.filter((t) => !holds(t, figure.value));
			failed += broken.length;
			const verdict = targets
				.map((t) => `${broken.includes(t) ? 'FAIL' : 'PASS'} target ${t.op} ${t.value}`)
				.join(', ');
			out.push(
				`  ${pad(figure.label, 52)} ${pad(String(figure.value), 10, true)} ${pad(figure.unit, 9)} ${verdict}`,
			);
			for (const t of broken) out.push(`      why ${t.op} ${t.value}: ${t.why}`);
		}
		for (const problem of result.problems) {
			failed += 1;
			out.push(`  FAIL ${problem}`);
		}
	}
	const ran = new Set(figures.keys());
	for (const target of TARGETS) {
		if (!ran.has(target.key) && !only.length) {
			failed += 1;
			out.push(`  FAIL target ${target.key}: no such figure was measured`);
		}
	}
	out.push(
		'',
		`${failed ? `${failed} FAILED` : 'All targets hold'} (total ${Math.round((performance.now() - started) / 1000)} s)`,
	);
	process.stdout.write(`${out.join('\n')}\n`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	process.stderr.write(`benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
