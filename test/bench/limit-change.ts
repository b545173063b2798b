/**
 * Scenario 10 of `npm run bench`: the same batch seconds after an unlimited one. A scheduled
 * batch meets a service whose limit has just changed: 500 reads with no limit (scenario 1's
 * faults: the credential learns a high concurrency), then 2 to 3 s later, fewer than
 * RATE_POLICY.rememberMs (so what the credential learned is still held), the sandbox's limit
 * is set to 100 requests/s (scenario 2's faults) and the same 500 reads run again, started at
 * the start of a second (the sandbox's windows are whole seconds). The second batch is the
 * figure; its target is 1.05 x the rate floor (verdict.ts, rateFloorS).
 *
 * Beside it, n8n's HTTP Request node at scenario 2's tuned point (from scenario 2 when it ran
 * in the same bench, else from scenario 2's grid run once each) through the same sequence:
 * it learns nothing from the first batch, so it shows what a hand-tuned workflow pays here.
 */
import { RATE_POLICY } from '../../nodes/shared/pacing/ratePolicy';
import { dirty, type Measured, rowOf, wantsMore } from './runs';
import type { SideBySide } from './side-by-side';
import {
	type Batching,
	batchingName,
	ITEMS,
	LIMITED,
	NODE_ONLY,
	pathOf,
	SIDE_SCENARIOS,
} from './side-scenarios';
import { rateFloorS, type Row } from './verdict';

/** From the first batch's answer to the second's start: 2 s, then the start of the next second. */
const GAP_MS = 2000;

export async function limitChange(bench: SideBySide, log: (line: string) => void): Promise<Row[]> {
	const unlimited = { ...SIDE_SCENARIOS.find((s) => s.id === '1')!, id: '10' };
	const limited = { ...SIDE_SCENARIOS.find((s) => s.id === '2')!, id: '10' };
	await bench.ready(unlimited);
	await bench.warmUp(unlimited);
	const gaps = new Map<string, number[]>();
	const sequence = async (path: string): Promise<Measured> => {
		const first = await bench.n8nBatch(unlimited, path, { fresh: true });
		const firstEnd = bench.lastBatchEnd;
		const second = await bench.n8nBatch(limited, path, { afterMs: GAP_MS });
		const gapS = (bench.lastBatchStart - firstEnd) / 1000;
		gaps.set(path, [...(gaps.get(path) ?? []), gapS]);
		const held = gapS * 1000 < RATE_POLICY.rememberMs;
		if (!held) log(`  10: ${gapS.toFixed(2)} s between the batches, the pace may be forgotten`);
		return {
			...second,
			note: [
				held ? undefined : `${gapS.toFixed(2)} s gap: longer than the credential's memory`,
				dirty(first) ? `the unlimited batch before lost ${first.failed}` : undefined,
				second.note,
			]
				.filter(Boolean)
				.join('; '),
		};
	};

	const nodePath = pathOf('read', 'node');
	let point: Batching = null;
	let found = '';
	if (!NODE_ONLY) {
		if (bench.tunedPoints.has('2')) {
			point = bench.tunedPoints.get('2')!;
			found = "scenario 2's tuned point";
		} else {
			const calibration = await bench.calibration(
				limited.httpGrid,
				(b) => bench.n8nBatch(limited, pathOf('read', 'http', b)),
				batchingName,
			);
			const best = calibration.first
				.filter((x) => !dirty(x.m))
				.sort((a, b) => a.m.value - b.m.value)[0];
			point = best ? best.point : limited.httpGrid[0];
			found = `the fastest clean point of scenario 2's grid, once each: ${calibration.searched.join(', ')}`;
		}
	}
	const httpPath = pathOf('read', 'http', point);

	// In rounds, as scenarios 1-5: a slow spell of the machine falls on both.
	const lanes = { node: [] as Measured[], http: [] as Measured[] };
	while (wantsMore(lanes.node) || (!NODE_ONLY && wantsMore(lanes.http))) {
		if (wantsMore(lanes.node)) lanes.node.push(await sequence(nodePath));
		if (!NODE_ONLY && wantsMore(lanes.http)) lanes.http.push(await sequence(httpPath));
	}
	const per429 = (runs: Measured[]) =>
		`429s per run: ${runs.map((r) => r.rateLimited).join(' / ')}`;
	const gapText = (path: string) => {
		const s = gaps.get(path) ?? [];
		return `started ${Math.min(...s).toFixed(1)}-${Math.max(...s).toFixed(1)} s after the unlimited batch's answer`;
	};
	const rows: Row[] = [
		{
			...rowOf(
				'10',
				'this node, defaults',
				'node',
				lanes.node,
				`${per429(lanes.node)}; ${gapText(nodePath)}`,
			),
			floor: rateFloorS(ITEMS, LIMITED.rateLimitPerSecond, LIMITED.latencyMs),
		},
	];
	if (!NODE_ONLY)
		rows.push(
			rowOf(
				'10',
				`HTTP Request, ${batchingName(point)}`,
				'httpTuned',
				lanes.http,
				`${per429(lanes.http)}; ${gapText(httpPath)}; ${found}`,
			),
		);
	return rows;
}
