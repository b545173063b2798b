import { firstFrom, type Ticket } from './ratePolicy';
import type { AnnouncedBudget } from './signals';

/**
 * The budget the service announced in its answers (signals.ts: `RateLimit-*`,
 * `X-RateLimit-*`), as the pace keeps it: the requests left after the latest request it
 * answered, and until when. Before that time no more than what is left is started, so a
 * service that announces its budget refuses nothing; after it, the window's count applies
 * (rateWindow.ts).
 */
export class Budget {
	/** `remaining` starts more after the one that started at `after`, until `until` (our clock). */
	private last: { remaining: number; until: number; after: number } | undefined;

	/**
	 * The answer to `ticket` announced `budget` (or a 429 said when to come back: nothing left
	 * until then). Returns when the budget starts again on our clock, at the latest: the
	 * service counted the request when it arrived, after it started, and a reset in whole
	 * seconds is rounded up; the margin covers the way there. Kept only when `keep` (it tells
	 * more than our own count of the window).
	 */
	heard(
		ticket: Ticket,
		budget: AnnouncedBudget,
		marginMs: number,
		keep = true,
	): number | undefined {
		if (budget.remaining === undefined || budget.resetMs === undefined) return undefined;
		const until = ticket.at + budget.resetMs + marginMs;
		if (!keep) return until;
		const last = this.last;
		// The latest request's answer knows the most: the ones started after it are ours.
		const newer =
			!last ||
			ticket.at > last.after ||
			(ticket.at === last.after && budget.remaining < last.remaining);
		if (newer) this.last = { remaining: budget.remaining, until, after: ticket.at };
		return until;
	}

	/** The earliest start from `at` it allows: `at` while some is left before the reset, else the reset. */
	allows(at: number, sends: readonly Ticket[]): number {
		const last = this.last;
		if (!last || at >= last.until) return at;
		const used = sends.length - firstFrom(sends, last.after, true);
		return used < last.remaining ? at : last.until;
	}
}
