import { ExecutionStopped, pause, throwIfStopped } from './cancel';

/**
 * Time as the pacing sees it (limiter.ts, rateWindow.ts, rate.ts): n8n's clock and timers in
 * the node, a clock the test moves in tests, so that pacing is tested without waiting.
 */
export interface Clock {
	now(): number;
	/** Waits `ms`; ends at once with ExecutionStopped when `signal` (n8n's Stop) aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await pause(ms, signal),
};

/**
 * Waiters served first come, first served: each wake resolves the oldest. A waiter whose
 * run is stopped leaves the queue at once with ExecutionStopped.
 */
export class WaitQueue {
	private readonly waiting: Array<() => void> = [];

	get length(): number {
		return this.waiting.length;
	}

	wait(signal?: AbortSignal): Promise<void> {
		throwIfStopped(signal);
		return new Promise<void>((resolve, reject) => {
			const onAbort = () => {
				const index = this.waiting.indexOf(entry);
				if (index >= 0) this.waiting.splice(index, 1);
				reject(new ExecutionStopped());
			};
			const entry = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waiting.push(entry);
		});
	}

	/** Wakes the oldest waiter; false when none waits. */
	wakeOne(): boolean {
		const next = this.waiting.shift();
		next?.();
		return next !== undefined;
	}

	/** Wakes every waiter, oldest first (their turns resume in that order). */
	wakeAll(): void {
		for (const next of this.waiting.splice(0)) next();
	}
}
