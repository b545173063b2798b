/**
 * Scenarios 1-5 and 12-15 of `npm run bench`: the same items (500 unless the scenario
 * says), side by side in one real n8n, by
 *   - this node with default settings,
 *   - n8n's HTTP Request node with defaults,
 *   - the HTTP Request node tuned by hand: the fastest of a grid of Batching settings
 *     (items per batch, ms between batches; "none" is no batching) that ends clean,
 *   - a raw `fetch` loop in the bench process at the fastest concurrency of a grid that
 *     ends clean (it waits Retry-After on 429 and 503, as a careful hand-written loop would).
 * Each grid point runs once (the calibration); the chosen point, this node and the HTTP
 * Request defaults then run until they have RUNS runs, and the figure is their median.
 * A contender that loses items is not run again (it cannot be the yardstick).
 * Counts come from the sandbox's request log; n8n's times are the execution times n8n
 * records for the API-calling nodes, the raw loop's its wall time.
 */
import axios from 'axios';

import { type SandboxInfo, type Stack, sleep } from '../../scripts/lib/stack';
import { prepareExampleData } from '../../scripts/lib/example-data';
import { documentBody, TEMPLATE_ID } from './contenders';
import { latestCallSeconds, logged, outcome, timeline, untilPaceForgotten } from './outcome';
import { type Calibration, type Measured, pool, rowOf, said, Tuned, wantsMore } from './runs';
import {
	type Batching,
	batchingName,
	itemsOf,
	NODE_ONLY,
	pathOf,
	requestsPerItem,
	runsOf,
	type Scenario,
} from './side-scenarios';
import { admin } from '../sandbox-admin';
import { type Kind, rateFloorS, type Row } from './verdict';

/** How a batch starts: after the pace is forgotten (this node's runs by default), or `afterMs` after the batch before. */
export interface BatchStart {
	fresh?: boolean;
	afterMs?: number;
}

export class SideBySide {
	private envelopeIds: string[] = [];
	/** When the last batch's webhook answered (ms since epoch), and when the batch after it started. */
	lastBatchEnd = 0;
	lastBatchStart = 0;
	private batchNo = 0;
	/** The tuned HTTP Request point each scenario chose (scenario 10 reuses scenario 2's). */
	readonly tunedPoints = new Map<string, Batching>();

	constructor(
		private readonly stack: Stack,
		private readonly ids: Map<string, string>,
		private readonly log: (line: string) => void,
	) {}

	private get sandbox(): SandboxInfo {
		return this.stack.sandbox;
	}

	/** A reset sandbox, with the envelopes to read when the scenario reads. */
	async ready(scenario: Scenario): Promise<void> {
		await admin(this.sandbox).post('/reset');
		if (scenario.work === 'read') await this.seed(scenario);
	}

	/**
	 * Unmeasured runs first: a fresh n8n compiles its code paths over the first thousand
	 * items or so (the first measured reads were up to 1.6 x slower than the later ones),
	 * and the contender measured first would pay for it.
	 */
	async warmUp(scenario: Scenario): Promise<void> {
		if (scenario.noWarmUp) return;
		const node = () => this.n8nBatch(scenario, pathOf(scenario.work, 'node'));
		const http = () => this.n8nBatch(scenario, pathOf(scenario.work, 'http'));
		const warmUps = scenario.work === 'read' ? [node, node, node, http] : [node, http];
		for (const warmUp of warmUps) await warmUp();
	}

	async run(scenario: Scenario): Promise<Row[]> {
		const rows: Row[] = [];
		await this.ready(scenario);
		const most = runsOf(scenario);
		// At a limit, each n8n row carries the rate floor of the requests it had accepted.
		const row = (contender: string, kind: Kind, runs: Measured[], note?: string): Row => {
			const r = rowOf(scenario.id, contender, kind, runs, note);
			return scenario.limit && kind !== 'raw' ? { ...r, floor: this.floorOf(scenario, r) } : r;
		};
		const nodeRow = (runs: Measured[]): Row => row('this node, defaults', 'node', runs);
		const n8n = (b: Batching | 'node') => () =>
			this.n8nBatch(
				scenario,
				b === 'node' ? pathOf(scenario.work, 'node') : pathOf(scenario.work, 'http', b),
			);

		// The HTTP Request node's tuned point runs after its whole grid.
		await this.warmUp(scenario);
		if (NODE_ONLY) {
			rows.push(nodeRow(await this.repeat(n8n('node'), [], most)));
			return rows;
		}
		// The HTTP Request node's grid once each, then the measured runs in rounds: this node,
		// the HTTP Request defaults and the tuned point one after another, so that a slow spell
		// of the machine (a shared host's CPU varies by tens of percent within minutes) falls on
		// all of them, not on whichever ran then.
		const tuned = new Tuned(
			await this.calibration(scenario.httpGrid, (b) => n8n(b)(), batchingName),
			(b) => n8n(b)(),
			batchingName,
			most,
		);
		const lanes = { node: [] as Measured[], defaults: [] as Measured[] };
		for (let more = true; more; ) {
			more = false;
			for (const [runs, once] of [
				[lanes.node, n8n('node')],
				[lanes.defaults, n8n(null)],
			] as const) {
				if (!wantsMore(runs, most)) continue;
				runs.push(await once());
				more = true;
			}
			if (tuned.wanting) {
				await tuned.runOnce();
				more = true;
			}
		}
		rows.push(nodeRow(lanes.node));
		rows.push(row('HTTP Request, defaults', 'httpDefault', lanes.defaults));
		const http = tuned.result();
		this.tunedPoints.set(scenario.id, http.best);
		rows.push(
			row(
				`HTTP Request, ${batchingName(http.best)}`,
				'httpTuned',
				http.runs,
				`tuned: ${http.searched}`,
			),
		);
		if (scenario.rawGrid.length) {
			const raw = await this.calibrate(
				scenario.rawGrid,
				(c) => this.rawBatch(scenario, c),
				(c) => `${c} at once`,
				most,
			);
			rows.push(
				row(`raw fetch loop, ${raw.best} at once`, 'raw', raw.runs, `tuned: ${raw.searched}`),
			);
		}
		await admin(this.sandbox).post('/faults', {});
		return rows;
	}

	/** Runs `once` until there are `most` runs, or once more only while it ends clean. */
	private async repeat(
		once: () => Promise<Measured>,
		runs: Measured[],
		most: number,
	): Promise<Measured[]> {
		while (wantsMore(runs, most)) runs.push(await once());
		return runs;
	}

	/**
	 * The rate floor of a row's batch at the scenario's limit (verdict.ts): the API requests it
	 * had accepted (this node reads a template once per run before its creates, to check every
	 * item's mapping first: one request more than the HTTP Request workflow makes).
	 */
	private floorOf(scenario: Scenario, r: Row): number {
		const { perWindow, windowS } = scenario.limit!;
		const requests = Math.max(
			itemsOf(scenario) * requestsPerItem(scenario),
			r.requests - r.rateLimited,
		);
		const latencyMs = Number(scenario.faults.latencyMs ?? 0);
		return rateFloorS(requests, perWindow, latencyMs, windowS);
	}

	/** Each grid point once (the calibration). */
	async calibration<T>(
		grid: T[],
		once: (point: T) => Promise<Measured>,
		name: (point: T) => string,
	): Promise<Calibration<T>> {
		const first: Array<{ point: T; m: Measured }> = [];
		for (const point of grid) first.push({ point, m: await once(point) });
		return { first, searched: first.map((x) => `${name(x.point)} ${said(x.m)}`) };
	}

	/**
	 * The fastest grid point that ends clean, repeated to RUNS runs. A point that loses items
	 * in a repeat is not reliable at its best: the next fastest clean point is tried. When
	 * none holds, the one that lost least stands, marked.
	 */
	private async calibrate<T>(
		grid: T[],
		once: (point: T) => Promise<Measured>,
		name: (point: T) => string,
		most: number,
	) {
		const tuned = new Tuned(await this.calibration(grid, once, name), once, name, most);
		while (tuned.wanting) await tuned.runOnce();
		return tuned.result();
	}

	/** The envelopes to read, created through the API (not measured). */
	private async seed(scenario: Scenario): Promise<void> {
		const headers = {
			authorization: `Bearer ${this.sandbox.apiKey}`,
			'content-type': 'application/json',
		};
		this.envelopeIds = await pool(itemsOf(scenario), 20, async (n) => {
			const r = await fetch(`${this.sandbox.baseUrl}/envelopes`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ fileName: 'bench.pdf', title: `Read ${n}` }),
			});
			return ((await r.json()) as { id: string }).id;
		});
	}

	/**
	 * Faults on, the template back after a reset (creates), and the start of a new second of
	 * the per-second limit. Before a run of this node, the credential's pace learned by the
	 * batch before is forgotten (RATE_POLICY.rememberMs idle), so every run starts as a
	 * scheduled batch does, not from what the previous run (or scenario) taught it.
	 */
	private async prepare(scenario: Scenario, start: BatchStart): Promise<number> {
		if (start.fresh) await untilPaceForgotten(this.lastBatchEnd);
		if (scenario.work === 'create') {
			await admin(this.sandbox).post('/reset');
			await prepareExampleData(this.stack);
		}
		await admin(this.sandbox).post('/faults', scenario.faults);
		// Counted from here: the template set up after the reset is not the batch's work.
		const from = await logged(this.sandbox);
		if (start.afterMs !== undefined)
			await sleep(Math.max(0, this.lastBatchEnd + start.afterMs - Date.now()));
		await sleep(1000 - (Date.now() % 1000) + 5);
		this.lastBatchStart = Date.now();
		return from;
	}

	private items(scenario: Scenario): Array<Record<string, string>> {
		const batch = ++this.batchNo;
		return scenario.work === 'read'
			? this.envelopeIds.map((envelopeId) => ({ envelopeId }))
			: Array.from({ length: itemsOf(scenario) }, (_, n) => ({ title: `Bench ${batch} ${n}` }));
	}

	/** One batch of the workflow at `path`; by default this node's batches start with the pace forgotten. */
	async n8nBatch(
		scenario: Scenario,
		path: string,
		start: BatchStart = { fresh: path === pathOf(scenario.work, 'node') },
	): Promise<Measured> {
		const from = await this.prepare(scenario, start);
		const t0 = performance.now();
		const answer = await axios.post(
			`${this.stack.n8nUrl}/webhook/${path}`,
			{ items: this.items(scenario) },
			{ validateStatus: () => true, timeout: 600_000 },
		);
		const wallS = (performance.now() - t0) / 1000;
		this.lastBatchEnd = Date.now();
		const nodeS = await latestCallSeconds(this.stack, this.ids.get(path));
		const figures = await this.count(scenario, from);
		this.log(
			`  ${scenario.id} ${path}: ${(nodeS ?? wallS).toFixed(2)} s, ${figures.failed} failed, ${figures.duplicates} twice, ${figures.rateLimited} 429s, ${figures.serverErrors} 5xx`,
		);
		if (NODE_ONLY) this.log(await timeline(this.sandbox, from));
		return {
			...figures,
			value: nodeS ?? wallS,
			note:
				answer.status === 200
					? undefined
					: `the workflow failed (webhook answered ${answer.status})`,
		};
	}

	private async count(scenario: Scenario, from: number): Promise<Omit<Measured, 'value'>> {
		await admin(this.sandbox).post('/faults', {});
		const o = await outcome(this.sandbox, from);
		return {
			failed: itemsOf(scenario) - o.completed,
			duplicates: o.duplicates,
			rateLimited: o.rateLimited,
			serverErrors: o.serverErrors,
			requests: o.requests,
		};
	}

	/** The raw loop: `concurrency` workers over the items; 429 and 503 wait their Retry-After and go again. */
	private async rawBatch(scenario: Scenario, concurrency: number): Promise<Measured> {
		const from = await this.prepare(scenario, {});
		const { baseUrl, apiKey } = this.sandbox;
		const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
		const call = async (
			url: string,
			init: RequestInit,
		): Promise<Record<string, string> | undefined> => {
			for (let attempt = 0; attempt < 20; attempt++) {
				const r = await fetch(url, { ...init, headers });
				if (r.status === 429 || r.status === 503) {
					await r.arrayBuffer();
					await sleep(1000 * Number(r.headers.get('retry-after') ?? 1));
					continue;
				}
				const body = (await r.json()) as Record<string, string>;
				return r.ok ? body : undefined;
			}
			return undefined;
		};
		const items = this.items(scenario);
		const t0 = performance.now();
		await pool(items.length, concurrency, async (n) => {
			if (scenario.work === 'read')
				return await call(`${baseUrl}/envelopes/${items[n].envelopeId}/status`, { method: 'GET' });
			const created = await call(`${baseUrl}/templates/${TEMPLATE_ID}/documents`, {
				method: 'POST',
				body: JSON.stringify(documentBody(items[n].title)),
			});
			return (
				created &&
				(await call(`${baseUrl}/documents/${created.envelopeId}/send`, {
					method: 'POST',
					body: '{}',
				}))
			);
		});
		const value = (performance.now() - t0) / 1000;
		const figures = await this.count(scenario, from);
		this.log(
			`  ${scenario.id} raw ${concurrency} at once: ${value.toFixed(2)} s, ${figures.failed} failed, ${figures.rateLimited} 429s, ${figures.serverErrors} 5xx`,
		);
		return { ...figures, value };
	}
}
