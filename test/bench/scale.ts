/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: drives n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * Scenario 11 of `npm run bench`: the scheduled batch at users' size. SCALE_DOCS documents
 * (BENCH_SCALE_DOCS, 10 000 by default) from the template, created and sent at 100 requests
 * per second (2 requests each), their rows read from a CSV the way a user's workflow reads
 * one: Read/Write Files from Disk, then Extract From File (CSV), as the example
 * "create and send documents from a CSV" does; each row names the document and its tenant.
 * Contenders: this node with defaults (Create Document with Send Immediately, as scenario 3),
 * and n8n's HTTP Request node batched 100 items per 1000 ms with Retry On Fail, the best
 * hand setting at this size. One run each unless BENCH_RUNS says otherwise (each takes 200 s
 * and more at 10 000). Besides the figures of scenarios 1-5: n8n's peak RSS during the run
 * (VmHWM of the n8n process, reset through /proc/<pid>/clear_refs just before the batch and
 * read once n8n has recorded the execution) over its RSS just before.
 */
import axios from 'axios';
import { promises as fs } from 'fs';
import * as path from 'path';

import { prepareExampleData } from '../../scripts/lib/example-data';
import { type SandboxInfo, sleep, type Stack, type WorkflowFixture } from '../../scripts/lib/stack';
import { httpTemplateWorkflow, packageTemplateWorkflow } from './contenders';
import { MB } from './measure';
import { kb } from './memory';
import { admin } from '../sandbox-admin';
import { callSeconds, logged, outcome, timeline, untilPaceForgotten } from './outcome';
import { type Measured, rowOf, wantsMore } from './runs';
import { batchingOptions, LIMITED, NODE_ONLY } from './side-scenarios';
import { type Kind, rateFloorS, type Row } from './verdict';

export const SCALE_DOCS = Math.max(1, Number(process.env.BENCH_SCALE_DOCS ?? 10_000));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const WARM_UP_DOCS = 200;
const CSV = 'bench-scale.csv';

/**
 * The most n8n's peak RSS may grow by in a run of `docs` documents, MB. What n8n keeps grows
 * with the batch (every node's output items until the execution ends, then the execution
 * written as one string), but little of the growth is live data: at 1 000 documents the
 * execution's data was 1.1 MB as JSON and RSS grew by 127-132 MB (this node) and 177 MB
 * (HTTP Request), mostly the heap V8 grows to keep up with the run's garbage; an earlier
 * 10 000-document batch of creates grew it by 368 and 387 MB. 200 MB plus 50 KB per
 * document (688 MB at 10 000) leaves room for a collector that runs late and still catches
 * a node that keeps a copy of every request or answer.
 */
export const memoryBoundMb = (docs: number) => 200 + (50 * docs) / 1024;

interface Contender {
	id: string;
	path: string;
	name: string;
	kind: Kind;
}

const CONTENDERS: Contender[] = [
	{ id: 'DsBenchScaleNode', path: 'bench-scale-node', name: 'this node, defaults', kind: 'node' },
	{
		id: 'DsBenchScaleHttp',
		path: 'bench-scale-http',
		name: 'HTTP Request, 100 per 1000 ms, Retry On Fail',
		kind: 'httpTuned',
	},
];

/** The two workflows, each reading the CSV in the stack's files folder. */
export function scaleWorkflows(sandbox: SandboxInfo, filesDir: string): WorkflowFixture[] {
	const source = { csv: path.join(filesDir, CSV) };
	const [node, http] = CONTENDERS;
	return [
		packageTemplateWorkflow(node.id, node.path, {}, undefined, source),
		httpTemplateWorkflow(
			http.id,
			http.path,
			sandbox,
			batchingOptions([100, 1000]),
			{ retryOnFail: true },
			source,
		),
	];
}

const csvOf = (docs: number, tag: string) =>
	[
		'title,name,email',
		...Array.from({ length: docs }, (_, n) => `${tag} ${n},Tenant ${n},tenant${n}@example.com`),
	].join('\n') + '\n';

type Figures = Measured & { memoryMb: number; peakMb: number; csvS: number; executionMb: number };

export class Scale {
	private lastEnd = 0;
	private batch = 0;

	constructor(
		private readonly stack: Stack,
		private readonly log: (line: string) => void,
	) {}

	async run(): Promise<Row[]> {
		const contenders = NODE_ONLY ? CONTENDERS.slice(0, 1) : CONTENDERS;
		for (const c of contenders) await this.once(c, Math.min(WARM_UP_DOCS, SCALE_DOCS)); // unmeasured
		const lanes = contenders.map(() => [] as Figures[]);
		for (let more = true; more; ) {
			more = false;
			for (const [k, c] of contenders.entries()) {
				if (!wantsMore(lanes[k]) || lanes[k].length >= RUNS) continue;
				lanes[k].push(await this.once(c, SCALE_DOCS));
				more = true;
			}
		}
		const floor = rateFloorS(2 * SCALE_DOCS, LIMITED.rateLimitPerSecond, LIMITED.latencyMs);
		return contenders.map((c, k) => {
			const runs = lanes[k];
			const worst = Math.max(...runs.map((r) => r.memoryMb));
			const row = rowOf(
				'11',
				c.name,
				c.kind,
				runs,
				`${SCALE_DOCS} documents; n8n's peak RSS ${list(runs, (r) => r.peakMb.toFixed(0))} MB; the execution's data ${list(runs, (r) => r.executionMb.toFixed(1))} MB as JSON; reading the CSV ${list(runs, (r) => r.csvS.toFixed(2))} s`,
			);
			return {
				...row,
				memoryMb: worst,
				...(c.kind === 'node' ? { floor, memoryLimitMb: memoryBoundMb(SCALE_DOCS) } : {}),
			};
		});
	}

	/** One batch of `docs` documents through a contender's workflow. */
	private async once(c: Contender, docs: number): Promise<Figures> {
		const { stack } = this;
		const sandbox = stack.sandbox;
		if (c.kind === 'node') await untilPaceForgotten(this.lastEnd);
		await admin(sandbox).post('/reset');
		await prepareExampleData(stack);
		await fs.writeFile(path.join(stack.filesDir, CSV), csvOf(docs, `Scale ${++this.batch}`));
		const from = await logged(sandbox);
		const before = await lastExecution(stack, c.id);
		const pid = stack.processes.pidOf('n8n');
		if (!pid) throw new Error('n8n is not running');
		await admin(sandbox).post('/faults', LIMITED);
		await sleep(1000 - (Date.now() % 1000) - 20);
		const rssBefore = await kb(pid, 'VmRSS');
		await fs.writeFile(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
		await sleep(1000 - (Date.now() % 1000) + 5);
		const answer = await axios.post(
			`${stack.n8nUrl}/webhook/${c.path}`,
			{},
			{ validateStatus: () => true, timeout: 3_600_000 },
		);
		this.lastEnd = Date.now();
		// The peak once n8n has recorded the execution (writing it is part of the run's memory).
		const execution = await recorded(stack, c.id, before);
		const peak = await kb(pid, 'VmHWM');
		await admin(sandbox).post('/faults', {});
		const runData = await runDataOf(stack, execution);
		const o = await outcome(sandbox, from);
		const figures: Figures = {
			value: callSeconds(runData),
			failed: docs - o.completed,
			duplicates: o.duplicates,
			rateLimited: o.rateLimited,
			serverErrors: o.serverErrors,
			requests: o.requests,
			memoryMb: (peak - rssBefore) / MB,
			peakMb: peak / MB,
			executionMb: JSON.stringify(runData ?? {}).length / MB,
			csvS: ['Read CSV', 'Rows'].reduce(
				(s, name) => s + (runData?.[name]?.[0]?.executionTime ?? 0) / 1000,
				0,
			),
			note:
				answer.status === 200
					? undefined
					: `the workflow failed (webhook answered ${answer.status})`,
		};
		this.log(
			`  11 ${c.path} ${docs} documents: ${figures.value.toFixed(2)} s, ${figures.failed} failed, ${figures.duplicates} twice, ${figures.rateLimited} 429s, n8n's RSS ${(rssBefore / MB).toFixed(0)} MB before, peak ${figures.peakMb.toFixed(0)} MB (+${figures.memoryMb.toFixed(0)}), execution data ${figures.executionMb.toFixed(1)} MB as JSON, CSV ${figures.csvS.toFixed(2)} s`,
		);
		if (NODE_ONLY) this.log(await timeline(sandbox, from));
		return figures;
	}
}

const list = (runs: Figures[], f: (r: Figures) => string) => runs.map(f).join(' / ');

type RunData = Record<string, Array<{ executionTime?: number }>>;

/** The id of the newest execution of a workflow (undefined when none). */
async function lastExecution(stack: Stack, workflowId: string): Promise<string | undefined> {
	const response = await stack.api.get('/executions', { params: { workflowId, limit: 1 } });
	return response.data?.data?.[0]?.id as string | undefined;
}

/** The id of the execution after `before`, once n8n has recorded its end. */
async function recorded(
	stack: Stack,
	workflowId: string,
	before: string | undefined,
): Promise<string> {
	for (let attempt = 0; attempt < 240; attempt++) {
		const response = await stack.api.get('/executions', { params: { workflowId, limit: 1 } });
		const execution = response.data?.data?.[0];
		if (execution && execution.id !== before && execution.stoppedAt) return execution.id as string;
		await sleep(250);
	}
	throw new Error(`no recorded execution of ${workflowId} after the batch`);
}

async function runDataOf(stack: Stack, executionId: string): Promise<RunData | undefined> {
	const response = await stack.api.get(`/executions/${executionId}`, {
		params: { includeData: true },
	});
	return response.data?.data?.resultData?.runData as RunData | undefined;
}
