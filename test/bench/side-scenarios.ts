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
	/** Empty: no raw loop (a scenario of minutes, where it adds nothing the others do not show). */
	rawGrid: number[];
	/** Items of the batch (ITEMS unless set). */
	items?: number;
	/** Runs per contender (RUNS unless set; BENCH_RUNS lowers it, never raises it). */
	runs?: number;
	/** The limit, for the rate floor of this node's row (the target is its factor x the floor). */
	limit?: { perWindow: number; windowS: number };
	/** Paced by the limit, not n8n's CPU: no warm-up runs (they would take minutes). */
	noWarmUp?: true;
}

export const itemsOf = (s: Scenario) => s.items ?? ITEMS;
export const runsOf = (s: Scenario) => Math.min(RUNS, s.runs ?? RUNS);
/** API requests per item: a read, or a create from the template and its send. */
export const requestsPerItem = (s: Scenario) => (s.work === 'read' ? 1 : 2);

export const LIMITED = { latencyMs: 25, rateLimitPerSecond: 100 };
/** 50 items at 5 requests/s (scenarios 12 and 13): paced by the limit, 3 runs each. */
const FIVE_PER_SECOND: Omit<Scenario, 'id' | 'work'> = {
	faults: { latencyMs: 25, rateLimitPerSecond: 5 },
	httpGrid: [
		[5, 1000],
		[1, 200],
	],
	rawGrid: [1, 2],
	items: 50,
	runs: 3,
	limit: { perWindow: 5, windowS: 1 },
	noWarmUp: true,
};
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
	// Polite at low and high limits, beside HTTP Request batched at the limit.
	{ id: '12', work: 'read', ...FIVE_PER_SECOND },
	{ id: '13', work: 'create', ...FIVE_PER_SECOND },
	{
		id: '14',
		work: 'read',
		faults: { latencyMs: 25, rateLimits: [{ limit: 60, per: 'minute', window: 'sliding' }] },
		httpGrid: [[60, 60_000]],
		rawGrid: [],
		items: 200,
		runs: 1,
		limit: { perWindow: 60, windowS: 60 },
		noWarmUp: true,
	},
	{
		id: '15',
		work: 'read',
		faults: { latencyMs: 25, rateLimitPerSecond: 1000 },
		httpGrid: [null, [250, 10], [500, 1000]],
		rawGrid: [50, 100, 250],
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
