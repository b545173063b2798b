/**
 * The figures of a contender's runs in `npm run bench`: its row (the median run), when it
 * runs again, and the tuned contender chosen from a calibration grid.
 */
import { RUNS } from './side-scenarios';
import { type Kind, median, type Row } from './verdict';

export type Measured = Omit<Row, 'scenario' | 'contender' | 'kind'>;

/** A contender's row: the median of its runs (the median run's counts), the worst failed and twice. */
export function rowOf(
	scenario: string,
	contender: string,
	kind: Kind,
	runs: Measured[],
	note?: string,
): Row {
	const m = runs.map((r) => r.value);
	const mid = [...runs].sort((a, b) => a.value - b.value)[Math.floor((runs.length - 1) / 2)];
	const worst = (key: 'failed' | 'duplicates') => Math.max(...runs.map((r) => r[key]));
	return {
		...mid,
		scenario,
		contender,
		kind,
		value: median(m),
		runs: m,
		failed: worst('failed'),
		duplicates: worst('duplicates'),
		note: [note, mid.note].filter(Boolean).join('; ') || undefined,
	};
}

/** Items a run lost or created twice. */
const lost = (m: Measured) => m.failed + m.duplicates;
export const dirty = (m: Measured) => lost(m) > 0;
/** A contender runs again until it has RUNS runs; one that lost items is not run again (it cannot be the yardstick). */
export const wantsMore = (runs: Measured[], most = RUNS) => runs.length < most && !runs.some(dirty);
export const said = (m: Measured) =>
	`${m.value.toFixed(2)} s${dirty(m) ? ` (${m.failed} failed, ${m.duplicates} twice)` : ''}`;

export interface Calibration<T> {
	first: Array<{ point: T; m: Measured }>;
	searched: string[];
}

/**
 * The tuned contender: the fastest clean point of a calibration, its calibration run the
 * first of its RUNS; a repeat that loses items moves on to the next fastest clean point.
 */
export class Tuned<T> {
	private readonly order: Array<{ point: T; m: Measured }>;
	private at = 0;
	private runs: Measured[];

	constructor(
		private readonly calibration: Calibration<T>,
		private readonly once: (point: T) => Promise<Measured>,
		private readonly name: (point: T) => string,
		private readonly most = RUNS,
	) {
		const cost = (m: Measured) => lost(m) * 1e6 + m.value;
		this.order = [...calibration.first].sort((a, b) => cost(a.m) - cost(b.m));
		this.runs = this.order[0] && !dirty(this.order[0].m) ? [this.order[0].m] : [];
		if (!this.runs.length) this.at = this.order.length;
	}

	/** Whether the current point still needs runs. */
	get wanting(): boolean {
		return this.at < this.order.length && wantsMore(this.runs, this.most);
	}

	async runOnce(): Promise<void> {
		const { point } = this.order[this.at];
		const m = await this.once(point);
		this.runs.push(m);
		if (!dirty(m)) return;
		this.calibration.searched.push(
			`${this.name(point)} again: ${this.runs.slice(1).map(said).join(', ')}, so not kept`,
		);
		this.at++;
		const next = this.order[this.at];
		if (next && !dirty(next.m)) this.runs = [next.m];
		else this.at = this.order.length;
	}

	result(): { best: T; runs: Measured[]; searched: string } {
		const searched = this.calibration.searched.join(', ');
		const current = this.order[this.at];
		if (current && !this.runs.some(dirty))
			return { best: current.point, runs: this.runs, searched };
		return {
			best: this.order[0].point,
			runs: [this.order[0].m],
			searched: `${searched}; no point ended clean every time`,
		};
	}
}

/** `work` for 0..count-1 with at most `limit` at once, results in order. */
export async function pool<T>(
	count: number,
	limit: number,
	work: (n: number) => Promise<T>,
): Promise<T[]> {
	const out: T[] = new Array(count);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, count) }, async () => {
			while (next < count) {
				const n = next++;
				out[n] = await work(n);
			}
		}),
	);
	return out;
}
