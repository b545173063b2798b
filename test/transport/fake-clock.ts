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
