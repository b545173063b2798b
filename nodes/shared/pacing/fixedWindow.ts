import type { Ticket } from './ratePolicy';

/**
 * The guess that the service counts requests in fixed windows that start on whole multiples
 * of the window on the clock (a counter per second: the commonest kind; the specification
 * does not show the kind). While it holds, each window's count goes at the window's start,
 * as fast as n8n sends it, so no window inherits the spread or the lateness of the one
 * before, which a sliding window does (about 16 ms a window on average here, the first
 * window's whole spread to the last window).
 *
 * The first 429 it does not explain ends it for the credential's state: the pace goes back
 * to the sliding window (rateWindow.ts), which is right for every kind of window. A raise of
 * the count that finds the limit is explained; anything else is not (a sliding window, a
 * service whose clock is behind ours, another process on the key).
 */
export class FixedWindowGuess {
	holds = true;

	constructor(
		private readonly marginMs: number,
		private readonly windowMs: () => number,
	) {}

	/**
	 * The earliest start the guess allows now: `now` while our window holds fewer than
	 * `count` starts not refused, else the next window's start. A start in a window's last
	 * `tailMs` (the fastest round trip and the margin) could reach the service in its next
	 * window: it waits for that window instead.
	 */
	nextSlot(now: number, count: number, sends: readonly Ticket[], tailMs: number): number {
		const w = this.windowMs();
		// At most half a window: a round trip as long as the window would leave no time to send in.
		const tail = Math.min(tailMs, w / 2);
		for (let from = this.startOf(now, w); ; from += w) {
			// Counted by the clock's window, as the service counts; sent from its start plus the margin.
			const open = Math.max(now, from + this.marginMs);
			const used = sends.filter((t) => !t.refused && t.at >= from && t.at < from + w).length;
			if (used < count && open < from + w - tail) return open;
		}
	}

	/** Start of the clock's window (of `w`) that holds `t`. */
	private startOf(t: number, w: number): number {
		return Math.floor(t / w) * w;
	}

	/** End of the clock's window that holds `t`. */
	windowEnd(t: number): number {
		const w = this.windowMs();
		return this.startOf(t, w) + w;
	}

	/** The count was lowered: starts planned beyond it in a window not yet over are given up (rate.ts plans them again). */
	giveUpBeyond(count: number, now: number, sends: readonly Ticket[]): void {
		const w = this.windowMs();
		const used = new Map<number, number>();
		for (const t of sends) {
			const from = this.startOf(t.at, w);
			if (t.refused || from + w <= now) continue;
			const n = (used.get(from) ?? 0) + 1;
			used.set(from, n);
			if (n > count && t.at > now) t.refused = true;
		}
	}

	/** Starts not refused in our window (of `w`) that holds `at`, up to `at` (a count learned from a 429 at `at`). */
	acceptedIn(at: number, sends: readonly Ticket[], w: number): number {
		const start = this.startOf(at, w);
		return sends.filter((t) => !t.refused && t.at >= start && t.at <= at).length;
	}
}
