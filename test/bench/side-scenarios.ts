/* eslint-disable @n8n/community-nodes/no-restricted-globals -- local tooling: describes the bench's scenarios, not published (package.json "files" is dist/ only) */
/**
 * What scenarios 1-5 of `npm run bench` run (side-by-side.ts runs them): the batch size, the
 * sandbox's faults, the HTTP Request node's Batching grid and the raw loop's concurrency
 * grid of each, and every workflow they need.
 */
import type { SandboxInfo, WorkflowFixture } from '../../scripts/lib/stack';
import {
	httpReadWorkflow,
	httpTemplateWorkflow,
	packageReadWorkflow,
	packageTemplateWorkflow,
} from './contenders';

export const ITEMS = 500;
export const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
/** BENCH_CONTENDERS=node: only this node, with a timeline of its requests (while tuning; nothing is published). */
export const NODE_ONLY = process.env.BENCH_CONTENDERS === 'node';

/** Items per batch and ms between batches of the HTTP Request node's Batching option; null: no batching. */
export type Batching = [number, number] | null;

export interface Scenario {
	id: string;
	work: 'read' | 'create';
	faults: Record<string, unknown>;
	httpGrid: Batching[];
	rawGrid: number[];
}

export const LIMITED = { latencyMs: 25, rateLimitPerSecond: 100 };
export const SIDE_SCENARIOS: Scenario[] = [
	{
		id: '1',
		work: 'read',
		faults: { latencyMs: 25 },
		httpGrid: [null, [50, 10], [100, 10], [250, 10], [100, 5]],
		rawGrid: [10, 25, 50, 100, 250],
	},
	{
		id: '2',
		work: 'read',
		faults: LIMITED,
		httpGrid: [
			[100, 1000],
			[50, 500],
			[25, 250],
			[10, 100],
		],
		rawGrid: [2, 3, 4, 6],
	},
	{
		id: '3',
		work: 'create',
		faults: LIMITED,
		httpGrid: [
			[100, 1000],
			[50, 500],
			[20, 200],
			[10, 100],
		],
		rawGrid: [2, 3, 4],
	},
	{
		id: '4',
		work: 'read',
		faults: { latencyMs: 300 },
		httpGrid: [null, [50, 10], [100, 10], [250, 10]],
		rawGrid: [50, 100, 250, 500],
	},
	{
		id: '5',
		work: 'read',
		faults: { latencyMs: 25, capacity: { slots: 20, maxInFlight: 60 } },
		httpGrid: [
			[20, 40],
			[20, 25],
			[40, 50],
			[10, 10],
			[20, 10],
			[50, 25],
		],
		rawGrid: [10, 20, 30, 50, 80],
	},
];

export const pathOf = (work: string, who: 'node' | 'http', batching: Batching = null) =>
	`bench-${work}-${who}${batching ? `-b${batching[0]}-${batching[1]}` : ''}`;
export const batchingOptions = (b: Batching) =>
	b ? { batching: { batch: { batchSize: b[0], batchInterval: b[1] } } } : {};
export const batchingName = (b: Batching) =>
	b ? `batching ${b[0]} per ${b[1]} ms` : 'no batching';

/** Every workflow scenarios 1-5 need (the HTTP Request ones carry the sandbox's key); path -> id. */
export function sideWorkflows(sandbox: SandboxInfo): {
	workflows: WorkflowFixture[];
	ids: Map<string, string>;
} {
	const ids = new Map<string, string>();
	const workflows: WorkflowFixture[] = [];
	const add = (path: string, make: (id: string) => WorkflowFixture) => {
		if (ids.has(path)) return;
		const id = `DsBench${String(ids.size + 1).padStart(9, '0')}`;
		ids.set(path, id);
		workflows.push(make(id));
	};
	for (const work of ['read', 'create'] as const) {
		add(pathOf(work, 'node'), (id) =>
			work === 'read'
				? packageReadWorkflow(id, pathOf(work, 'node'))
				: packageTemplateWorkflow(id, pathOf(work, 'node'), {}),
		);
		for (const b of [
			null,
			...SIDE_SCENARIOS.filter((s) => s.work === work).flatMap((s) => s.httpGrid),
		]) {
			const path = pathOf(work, 'http', b);
			add(path, (id) =>
				work === 'read'
					? httpReadWorkflow(id, path, sandbox, batchingOptions(b))
					: httpTemplateWorkflow(id, path, sandbox, batchingOptions(b)),
			);
		}
	}
	return { workflows, ids };
}
