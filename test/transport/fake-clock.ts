/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: a macrotask turn lets promise chains settle; not published (package.json "files" is dist/ only) */
import { ExecutionStopped, throwIfStopped } from '../../nodes/shared/run/cancel';
import type { Clock } from '../../nodes/shared/run/clock';

/** Lets every promise chain that can go on without time go on (a macrotask turn). */
export const settle = async (): Promise<void> =>
	await new Promise((resolve) => setImmediate(resolve));

/**
 * A clock the test moves: `sleep` resolves when `advance` reaches its time, each timer at its
 * own moment, in the order set. No wall-clock time passes.
 */
export class FakeClock implements Clock {
	private current: number;
	private readonly timers: Array<{ at: number; fire: () => void }> = [];
	/** Timers set so far (a waiter that polls sets one per turn). */
	timersSet = 0;

	constructor(start = 1_000_000) {
		this.current = start;
	}

	now = (): number => this.current;

	sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
		throwIfStopped(signal);
		this.timersSet++;
		await new Promise<void>((resolve, reject) => {
			const timer = {
				at: this.current + Math.max(0, ms),
				fire: () => {
					signal?.removeEventListener('abort', onAbort);
					resolve();
				},
			};
			const onAbort = () => {
				this.timers.splice(this.timers.indexOf(timer), 1);
				reject(new ExecutionStopped());
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.timers.push(timer);
		});
	};

	/** Timers not yet fired. */
	get pending(): number {
		return this.timers.length;
	}

	/** The process busy for `ms`: the clock moves on, and the timers due meanwhile fire late, at its end. */
	async stall(ms: number): Promise<void> {
		this.current += ms;
		await this.advance(0);
	}

	/** Moves the clock `ms` forward, firing the timers due on the way, each at its time. */
	async advance(ms: number): Promise<void> {
		const until = this.current + ms;
		for (;;) {
			await settle();
			let next: { at: number; fire: () => void } | undefined;
			for (const timer of this.timers)
				if (timer.at <= until && (!next || timer.at < next.at)) next = timer;
			if (!next) break;
			this.timers.splice(this.timers.indexOf(next), 1);
			this.current = Math.max(this.current, next.at);
			next.fire();
		}
		this.current = until;
		await settle();
	}
}

interface Timer {
	at: number;
	seq: number;
	fire: () => void;
}

/**
 * A fake clock for long batches (the rate matrix): timers in a heap, due on whole
 * milliseconds as Node's are (a fraction waits for the next), and every timer of one moment
 * fired together before promise chains settle once. Chains that go on at the same moment may
 * then interleave differently than in Node, which settles between timers. `runWhile` moves
 * the clock until a condition ends.
 */
export class BatchClock implements Clock {
	private current: number;
	private seq = 0;
	private readonly heap: Timer[] = [];

	constructor(start = 1_000_000) {
		this.current = start;
	}

	now = (): number => this.current;

	/** Jumps the clock forward with no timer pending (a new cell of the matrix). */
	set(to: number): void {
		if (this.heap.length) throw new Error(`${this.heap.length} timers still pending`);
		this.current = Math.max(this.current, to);
	}

	get pending(): number {
		return this.heap.length;
	}

	sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
		throwIfStopped(signal);
		await new Promise<void>((resolve, reject) => {
			let live = true;
			const onAbort = () => {
				live = false;
				reject(new ExecutionStopped());
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.push({
				at: Math.ceil(this.current + Math.max(0, ms)),
				seq: this.seq++,
				fire: () => {
					signal?.removeEventListener('abort', onAbort);
					if (live) resolve();
				},
			});
		});
	};

	/** Moves time while `going()` holds; throws when nothing is left to wait for (a deadlock). */
	async runWhile(going: () => boolean): Promise<void> {
		await settle();
		while (going()) {
			const first = this.heap[0];
			if (!first) throw new Error('nothing left to wait for, and the run is not over');
			this.current = Math.max(this.current, first.at);
			while (this.heap.length && this.heap[0].at <= this.current) this.pop().fire();
			await settle();
		}
	}

	private before(a: Timer, b: Timer): boolean {
		return a.at < b.at || (a.at === b.at && a.seq < b.seq);
	}

	private push(timer: Timer): void {
		const h = this.heap;
		h.push(timer);
		for (let i = h.length - 1; i > 0; ) {
			const parent = (i - 1) >> 1;
			if (!this.before(h[i], h[parent])) break;
			[h[i], h[parent]] = [h[parent], h[i]];
			i = parent;
		}
	}

	private pop(): Timer {
		const h = this.heap;
		const top = h[0];
		const last = h.pop()!;
		if (h.length === 0) return top;
		h[0] = last;
		for (let i = 0; ; ) {
			const l = 2 * i + 1;
			const r = l + 1;
			let m = i;
			if (l < h.length && this.before(h[l], h[m])) m = l;
			if (r < h.length && this.before(h[r], h[m])) m = r;
			if (m === i) break;
			[h[i], h[m]] = [h[m], h[i]];
			i = m;
		}
		return top;
	}
}
