import { firstFrom, type Ticket } from './ratePolicy';

/**
 * Fixed windows of the service: windows of one length one after another from a known start
 * (`phase`), each with the whole count. Two ways to know them:
 * - the guess, before anything says otherwise, that a one-second limit counts in the clock's
 *   seconds (the commonest counter; the specification does not show the kind);
 * - a budget the service announced that started again sooner than a window after our first
 *   request in it (budget.ts): its windows are fixed, and that reset is one of their starts.
 * While they hold, each window's count goes at the window's start, as fast as n8n sends it,
 * so no window inherits the spread or the lateness of the one before, which a sliding window
 * does (about 16 ms a window on average here, the first window's whole spread to the last).
 *
 * The first 429 they do not explain ends them for the credential's state: the pace goes back
 * to the sliding window (rateWindow.ts), which is right for every kind of window.
 */
export class FixedWindows {
	holds = true;
	/** A start of one of the windows (0: the clock's). */
	phase = 0;
	/** The windows are known from an announced reset, not guessed. */
	learned = false;

	constructor(
		private readonly marginMs: number,
		private readonly windowMs: () => number,
	) {}

	/** The windows start at `phase` (a reset the service announced), one window long each. */
	startAt(phase: number): void {
		this.holds = true;
		this.learned = true;
		this.phase = phase;
	}

	/**
	 * The earliest start the windows allow from `now`: `now` while its window holds fewer than
	 * `count` of `sends` (those not refused, in order), else the next window's start. A start in
	 * a window's last `tailMs` (the fastest round trip and the margin) could reach the service
	 * in its next window: it waits for that window instead.
	 */
	nextSlot(now: number, count: number, sends: readonly Ticket[], tailMs: number): number {
		const w = this.windowMs();
		// At most half a window: a round trip as long as the window would leave no time to send in.
		const tail = Math.min(tailMs, w / 2);
		for (let from = this.startOf(now); ; from += w) {
			// Counted by the service's window; sent from its start plus the margin.
			const open = Math.max(now, from + this.marginMs);
			const used = firstFrom(sends, from + w) - firstFrom(sends, from);
			if (used < count && open < from + w - tail) return open;
		}
	}

	/** Start of the window that holds `t`. */
	private startOf(t: number): number {
		const w = this.windowMs();
		return Math.floor((t - this.phase) / w) * w + this.phase;
	}

	/** End of the window that holds `t`. */
	windowEnd(t: number): number {
		return this.startOf(t) + this.windowMs();
	}

	/**
	 * Starts of `sends` in the window that holds `at`, up to `at` (a count learned from a 429
	 * at `at`), or in the whole of it (`whole`).
	 */
	acceptedIn(at: number, sends: readonly Ticket[], whole = false): number {
		const end = whole ? firstFrom(sends, this.windowEnd(at)) : firstFrom(sends, at, true);
		return end - firstFrom(sends, this.startOf(at));
	}
}
