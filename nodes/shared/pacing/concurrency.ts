import { throwIfStopped } from '../run/cancel';
import { WaitQueue } from '../run/clock';

/** The limit a run's items take a place from: the user's fixed number here, the adaptive one in limiter.ts. */

export type Outcome = 'ok' | 'overload' | 'rateLimited';

/**
 * How many items of a run are in flight at once: a place is taken before an item starts
 * and given back when it ends; answers are observed (a fixed limit ignores them). It counts
 * items, not requests: an item's requests go one after another, so an item never has more
 * than one in flight, and a create's upload never waits behind new creates for a place. The
 * rate window (rateWindow.ts) counts requests, as the service does.
 */
export interface ConcurrencyLimit {
	readonly limit: number;
	readonly running: number;
	/** Takes a place, waiting first come first served; ExecutionStopped when `signal` aborts. */
	acquire(signal?: AbortSignal): Promise<void>;
	release(): void;
	observe(outcome: Outcome, sentAt: number): void;
}

/** The user's "Parallel Requests": a limit that never moves. */
export class FixedLimit implements ConcurrencyLimit {
	private inflight = 0;
	private readonly queue = new WaitQueue();

	constructor(readonly limit: number) {}

	get running(): number {
		return this.inflight;
	}

	async acquire(signal?: AbortSignal): Promise<void> {
		throwIfStopped(signal);
		if (this.queue.length === 0 && this.inflight < this.limit) this.inflight++;
		else await this.queue.wait(signal); // the releasing item hands its place on
	}

	release(): void {
		if (!this.queue.wakeOne()) this.inflight = Math.max(0, this.inflight - 1);
	}

	observe(): void {}
}
