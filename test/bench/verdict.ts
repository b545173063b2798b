/**
 * The results of `npm run bench` and what they must show, as plain data and pure functions
 * (unit-tested in verdict.test.ts): one row per contender per scenario, the target of each
 * scenario, the problems (missed targets) and the markdown table.
 */

/** Who a row is: this node with defaults, n8n's HTTP Request node (defaults or tuned), a raw fetch loop, or another figure. */
export type Kind = 'node' | 'httpDefault' | 'httpTuned' | 'raw' | 'other';

export interface Row {
	/** '1' to '21' (see SCENARIOS). */
	scenario: string;
	contender: string;
	kind: Kind;
	/** The figure: seconds (scenarios 1-7, 10-15), MB (8), ms per call (9) or ms per delivery (16-21). */
	value: number;
	/** Every measured run's figure when there were several (value is their median). */
	runs?: number[];
	failed: number;
	duplicates: number;
	rateLimited: number;
	serverErrors: number;
	requests: number;
	/** A fixed limit for this row's figure (scenarios 6, 8: floor x 1.5, 2 x the file; 16-21: from the other rows). */
	limit?: number;
	/** What `limit` comes from, when it is not a fixed figure. */
	limitAgainst?: string;
	/** The 95th percentile answer time, ms, and the most it may be (16-21). */
	p95Ms?: number;
	p95LimitMs?: number;
	/** The rate floor of the row's batch in seconds (rateFloorS; 10, 11): the target is the scenario's factor x this. */
	floor?: number;
	/** What n8n's peak RSS grew by during the run, MB (11), and the most it may. */
	memoryMb?: number;
	memoryLimitMb?: number;
	note?: string;
}

export interface ScenarioInfo {
	title: string;
	unit: 's' | 'MB' | 'ms' | 'ms/delivery';
	/**
	 * Side by side (1-5): this node's defaults at most `factor` x the best other contender that
	 * ends clean; 7 and 9: x the raw yardstick; rows with a `floor` (10, 11): x that floor.
	 */
	factor?: number;
	/** The factor is of the raw row (7, 9): no n8n contender does the same work. */
	againstRaw?: true;
	/** Besides its factor x the rate floor, this node may take no longer than the best HTTP Request contender (12-14). */
	atMostBest?: true;
	/** A limited scenario: this node's 429s at most this share of its accepted requests. */
	refusedShare?: number;
}

/** What a polite client spends on finding a limit it was not told. */
const POLITE = 0.05;

export const SCENARIOS: Record<string, ScenarioInfo> = {
	'1': { title: '500 reads, no limit, 25 ms', unit: 's', factor: 1.05 },
	'2': { title: '500 reads at 100 requests/s', unit: 's', factor: 1.05, refusedShare: POLITE },
	'3': {
		title: '500 template documents created and sent at 100 requests/s',
		unit: 's',
		factor: 1.05,
		refusedShare: POLITE,
	},
	'4': { title: '500 reads, slow service (300 ms)', unit: 's', factor: 1.05 },
	'5': {
		title: '500 reads, service with a capacity (20 at once, 503 past 60)',
		unit: 's',
		factor: 1.1,
	},
	'6': { title: 'queue mode: scenario 3 as 4 executions over 2 workers', unit: 's' },
	'7': {
		title: 'Get Many, Return All, 10 000 envelopes',
		unit: 's',
		factor: 1.2,
		againstRaw: true,
	},
	'8': { title: "memory: MB a 10 MB upload adds to n8n's peak", unit: 'MB' },
	'9': { title: 'trigger signature check, 64 KB', unit: 'ms', factor: 1.25, againstRaw: true },
	'10': {
		title: '500 reads at 100 requests/s, seconds after 500 without a limit',
		unit: 's',
		factor: 1.05,
		refusedShare: POLITE,
	},
	'11': {
		title: "documents from a CSV, created and sent at 100 requests/s (users' size)",
		unit: 's',
		factor: 1.05,
		refusedShare: POLITE,
	},
	'12': {
		title: '50 reads at 5 requests/s',
		unit: 's',
		factor: 1.05,
		atMostBest: true,
		refusedShare: POLITE,
	},
	'13': {
		title: '50 template documents created and sent at 5 requests/s',
		unit: 's',
		factor: 1.05,
		atMostBest: true,
		refusedShare: POLITE,
	},
	'14': {
		title: '200 reads at 60 requests a minute (sliding window)',
		unit: 's',
		factor: 1.05,
		atMostBest: true,
		refusedShare: POLITE,
	},
	'15': {
		title: '500 reads at 1 000 requests/s',
		unit: 's',
		factor: 1.05,
		refusedShare: POLITE,
	},
	...deliveryScenarios(16, "signed deliveries to the trigger, n8n's defaults"),
	...deliveryScenarios(19, "queue mode: signed deliveries to the webhook process, n8n's defaults"),
	...deliveryScenarios(22, 'signed deliveries to the trigger, lazy isolates'),
	...deliveryScenarios(25, 'queue mode: signed deliveries to the webhook process, lazy isolates'),
};

/** Three scenarios of signed deliveries (delivery-scenario.ts): 1, 8 and 25 at once. Lazy isolates: n8n with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. */
function deliveryScenarios(first: number, title: string): Record<string, ScenarioInfo> {
	return Object.fromEntries(
		[1, 8, 25].map((concurrency, n) => [
			String(first + n),
			{ title: `${title}, ${concurrency} at once`, unit: 'ms/delivery' },
		]),
	);
}

/**
 * The least time `requests` can take at `perWindow` requests per window (a second unless
 * `windowS` says otherwise), the first sent at a window's start: the last window's requests go
 * ceil(requests / perWindow) - 1 windows after the first, and their answers take one round
 * trip. 500 reads at 100/s with 25 ms latency: 4 windows later plus 25 ms, 4.025 s; 20 000
 * requests: 199.025 s; 200 at 60 a minute: 180.025 s.
 * Requests that depend on an earlier answer (a send after its create) add nothing as long as
 * the last window still holds both.
 */
export function rateFloorS(
	requests: number,
	perWindow: number,
	roundTripMs: number,
	windowS = 1,
): number {
	return (Math.ceil(requests / perWindow) - 1) * windowS + roundTripMs / 1000;
}

/**
 * The contenders this node's defaults are held against in scenarios 1-5: the best of n8n's
 * HTTP Request node (defaults or tuned) that ends clean. The raw fetch loop runs in the bench
 * process, outside n8n: it pays none of n8n's cost per item (expressions, item copies, the
 * execution record), so it shows the wire's speed; its ratio is in the table, without a
 * target. BENCH_YARDSTICK=all (yardstick('all')) holds the node against the raw loop too.
 */
export const YARDSTICK: Kind[] = ['httpDefault', 'httpTuned'];
export const yardstick = (setting: string | undefined): Kind[] =>
	setting === 'all' ? [...YARDSTICK, 'raw'] : YARDSTICK;

export const clean = (r: Row): boolean => r.failed === 0 && r.duplicates === 0;

/** Median of a non-empty list. */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Target {
	/** The most this node's row may show. */
	limit: number;
	/** What the limit comes from, for the table and the chart. */
	against: string;
}

/** The target of a scenario's node row, from the rows (undefined when there is nothing to compare with). */
export function targetOf(
	rows: Row[],
	scenario: string,
	yardstick: Kind[] = YARDSTICK,
): Target | undefined {
	const mine = rows.filter((r) => r.scenario === scenario);
	const node = mine.find((r) => r.kind === 'node');
	if (!node) return undefined;
	if (node.limit !== undefined)
		return { limit: node.limit, against: node.limitAgainst ?? 'fixed limit' };
	const info = SCENARIOS[scenario];
	const factor = info?.factor;
	const againstRaw = info?.againstRaw === true;
	const others = mine.filter(
		(r) => (againstRaw ? r.kind === 'raw' : yardstick.includes(r.kind)) && clean(r),
	);
	const best = others.length ? others.reduce((a, b) => (b.value < a.value ? b : a)) : undefined;
	if (node.floor !== undefined && factor) {
		const floor: Target = {
			limit: factor * node.floor,
			against: `${factor} x the rate floor ${fmt(node.floor, 's')} s`,
		};
		if (!info?.atMostBest || !best) return floor;
		// No slower than the best HTTP Request contender, but for the windows the requests this
		// node makes beyond its work take at the limit (a template read before a batch of creates).
		const extra = Math.max(0, node.floor - (best.floor ?? node.floor));
		const beside: Target = {
			limit: best.value + extra,
			against: extra
				? `${best.contender} + ${fmt(extra, 's')} s for this node's requests beyond its`
				: best.contender,
		};
		return beside.limit < floor.limit ? beside : floor;
	}
	if (!factor || !best) return undefined;
	return { limit: factor * best.value, against: `${factor} x ${best.contender}` };
}

/** This node's 429s against its accepted requests, when the scenario holds it to a share. */
export function refusedProblem(node: Row): string | undefined {
	const share = SCENARIOS[node.scenario]?.refusedShare;
	if (share === undefined) return undefined;
	const accepted = node.requests - node.rateLimited;
	if (node.rateLimited <= share * accepted) return undefined;
	return `${node.scenario}: ${node.contender} had ${node.rateLimited} requests refused (429) for ${accepted} accepted, over ${share * 100} %`;
}

/** Every missed target, one line each; empty when all hold. */
export function problems(rows: Row[], against: Kind[] = YARDSTICK): string[] {
	const out: string[] = [];
	const scenarios = [...new Set(rows.map((r) => r.scenario))];
	for (const scenario of scenarios) {
		const unit = SCENARIOS[scenario]?.unit ?? '';
		for (const node of rows.filter((r) => r.scenario === scenario && r.kind === 'node')) {
			if (!clean(node))
				out.push(
					`${scenario}: ${node.contender} ended with ${node.failed} items failed and ${node.duplicates} created twice`,
				);
			if (node.memoryMb !== undefined && node.memoryLimitMb !== undefined)
				if (node.memoryMb > node.memoryLimitMb)
					out.push(
						`${scenario}: ${node.contender} grew n8n's peak RSS by ${fmt(node.memoryMb, 'MB')} MB, over the bound ${fmt(node.memoryLimitMb, 'MB')} MB`,
					);
			if (node.p95Ms !== undefined && node.p95LimitMs !== undefined)
				if (node.p95Ms > node.p95LimitMs)
					out.push(
						`${scenario}: ${node.contender} answered 95 % within ${fmt(node.p95Ms, 'ms/delivery')} ms, over the bound ${fmt(node.p95LimitMs, 'ms/delivery')} ms`,
					);
			const refused = refusedProblem(node);
			if (refused) out.push(refused);
			const target = targetOf(rows, scenario, against);
			if (target && node.value > target.limit) {
				out.push(
					`${scenario}: ${node.contender} ${fmt(node.value, unit)} ${unit}, over the target ${fmt(target.limit, unit)} ${unit} (${target.against})`,
				);
			}
		}
	}
	return out;
}

/** n8n's peak RSS growth of a row, with its bound when it has one (empty when not measured). */
export function memoryText(r: Row): string {
	if (r.memoryMb === undefined) return '';
	const bound = r.memoryLimitMb === undefined ? '' : ` (bound ${fmt(r.memoryLimitMb, 'MB')} MB)`;
	return `n8n's peak RSS +${fmt(r.memoryMb, 'MB')} MB${bound}`;
}

export function fmt(value: number, unit: string): string {
	return value.toFixed(unit === 'ms' ? 4 : unit === 'MB' || unit === 'ms/delivery' ? 1 : 2);
}

/** The markdown table of a run: one line per row, with the target of the node rows. */
export function markdownTable(rows: Row[], against: Kind[] = YARDSTICK): string {
	const lines = [
		'| Scenario | Contender | Figure | Target | x raw loop | Items failed | Created twice | 429s | 5xx | Requests | Runs / note |',
		'|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
	];
	for (const r of rows) {
		const info = SCENARIOS[r.scenario];
		const unit = info?.unit ?? '';
		const target = r.kind === 'node' ? targetOf(rows, r.scenario, against) : undefined;
		const verdict = target
			? `${r.value <= target.limit && clean(r) ? '≤' : 'MISSED'} ${fmt(target.limit, unit)}`
			: '';
		const raw = rows.find((x) => x.scenario === r.scenario && x.kind === 'raw' && clean(x));
		const xRaw = raw && r !== raw ? (r.value / raw.value).toFixed(2) : '';
		const runs =
			r.runs && r.runs.length > 1 ? `median of ${r.runs.map((v) => fmt(v, unit)).join(' / ')}` : '';
		const note = [runs, memoryText(r), r.note].filter(Boolean).join('; ');
		lines.push(
			`| ${r.scenario} ${info?.title ?? ''} | ${r.contender} | ${fmt(r.value, unit)} ${unit} | ${verdict} | ${xRaw} | ${r.failed} | ${r.duplicates} | ${r.rateLimited} | ${r.serverErrors} | ${r.requests || ''} | ${note} |`,
		);
	}
	return lines.join('\n');
}

/** The rows of the latest run of each scenario: `fresh` replaces the scenarios it has, the others stay. */
export function mergeRows(previous: Row[], fresh: Row[]): Row[] {
	const replaced = new Set(fresh.map((r) => r.scenario));
	return [...previous.filter((r) => !replaced.has(r.scenario)), ...fresh].sort(
		(a, b) => Number(a.scenario) - Number(b.scenario),
	);
}
