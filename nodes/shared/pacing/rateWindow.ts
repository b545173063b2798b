import { type Clock, realClock, WaitQueue } from '../run/clock';
import { Budget } from './budget';
import { FixedWindows } from './fixedWindow';
import { firstFrom, RATE_POLICY, type RatePolicy, type Ticket } from './ratePolicy';
import type { AnnouncedBudget } from './signals';

/** Whole seconds: the precision of a Retry-After or a reset given in seconds (rounded up by the service). */
const SECOND = 1000;

/**
 * A window measured from our start to the service's reopening after `waitMs`: rounded up to
 * the second when the wait is in whole seconds. A window of the clock began before our first
 * start in it, so the measure falls short of it by less than a second (services count in
 * whole seconds); a window from its first request is then a second long at most.
 */
const measured = (ms: number, waitMs: number) =>
	waitMs % SECOND === 0 ? Math.ceil(ms / SECOND - 0.001) * SECOND : ms;

/**
 * How many requests the service accepts per window, and how long its window is: announced
 * in its answers' budget headers (budget.ts), or learned from its 429s and their
 * Retry-After. Shared by the runs of one credential (see rate.ts).
 */
export class RateWindow {
	/** Requests accepted per window; undefined until announced or learned from a 429. */
	count: number | undefined;
	windowMs: number;
	pausedUntil = 0;
	/** Counts the counts learned: a request of an earlier epoch was sent before the last one. */
	epoch = 0;
	/** Counts the changes of pace: a start planned before the last one is planned again. */
	generation = 0;
	/** Starts not refused, in the order of their times, kept two windows back from now. */
	readonly sends: Ticket[] = [];
	/** The service announces its limit: nothing to learn from 429s, nothing to probe. */
	private announcedLimit = false;
	private readonly budget = new Budget();
	/**
	 * A start that goes alone until answered, since its answer decides the pace: the
	 * credential's first request (it may announce the budget), then the first start in a
	 * window after a count learned on the guess of the clock's windows (accepted: they hold;
	 * refused: one 429 instead of a whole window's count, fixedWindow.ts).
	 */
	private decider: Ticket | undefined;
	private scouted = false;
	/** When the credential's first answer came, and the starts since then on the ramp. */
	private firstAnswerAt: number | undefined;
	private rampStarts = 0;
	/** The guess of the clock's windows is put to the test by the first start from then on. */
	private testGuessFrom: number | undefined;
	/** Since when the windows have been used in full without a 429 (the quiet a raise waits for). */
	private fullSince: number | undefined;
	/** The count before the running probe raised it (what the service is known to accept). */
	private beforeProbe: number | undefined;
	/** The service accepted a request sent a window after the running raise. */
	private raiseHeld = false;
	private probeAfterWindows: number;
	private probeStep: number;
	/** Fastest round trip of an accepted request, ms. */
	private fastestRtt: number | undefined;
	/** When a paced 429 last changed the pace. */
	private lastCut = -Infinity;
	/** The refused request the count was learned from. */
	private learnedFrom: Ticket | undefined;
	/** Starts waiting for the answer that decides their slot, oldest first. */
	private readonly answers = new WaitQueue();
	/** When the timer set for a lost answer fires. */
	private lostAt: number | undefined;
	private readonly fixed: FixedWindows;

	constructor(
		readonly policy: RatePolicy = RATE_POLICY,
		private readonly clock: Clock = realClock,
	) {
		this.windowMs = policy.minWindowMs;
		this.probeAfterWindows = policy.probeAfterWindows;
		this.probeStep = policy.probe;
		this.fixed = new FixedWindows(policy.marginMs, () => this.windowMs);
		this.fixed.holds = policy.fixedWindows;
	}

	/** Whether the service's windows are taken as fixed ones (fixedWindow.ts). */
	get fixedWindowsHold(): boolean {
		return this.fixed.holds;
	}

	/**
	 * The earliest start the window allows from `notBefore` (the spread or the user's pace);
	 * undefined while it waits for the credential's first answer. With a count: at most
	 * `count` starts in any window's length (a sliding window on our side, right for every
	 * kind of window: the service's windows, fixed or sliding, never hold more), or in each
	 * fixed window while they hold. With an announced budget: no more than what is left
	 * before its reset.
	 */
	nextSlot(now: number, notBefore = now): number | undefined {
		if (this.deciding(now)) return undefined;
		let at = Math.max(now, notBefore, this.pausedUntil);
		for (let settled = false; !settled; ) {
			const from = at;
			at = this.budget.allows(this.byCount(at), this.sends);
			settled = at === from;
		}
		return at;
	}

	private byCount(at: number): number {
		if (this.count === undefined) return at;
		const count = Math.max(1, Math.floor(this.count));
		if (this.fixed.holds) {
			const tailMs = (this.fastestRtt ?? 0) + this.policy.marginMs;
			return this.fixed.nextSlot(at, count, this.sends, tailMs);
		}
		// A request may start a window after the one `count` starts earlier: the service counts
		// them on arrival, a like time after their starts (the margin covers the difference).
		const decisive = this.sends[this.sends.length - count];
		return decisive ? Math.max(at, decisive.at + this.windowMs + this.marginMs()) : at;
	}

	/** The slack kept past a window's end (ratePolicy.ts marginMs, marginShare). */
	private marginMs(): number {
		return Math.max(this.policy.marginMs, this.windowMs * this.policy.marginShare);
	}

	/** The deciding start is out and unanswered for less than a window: the others wait for its answer. */
	private deciding(now: number): boolean {
		const decider = this.decider;
		if (!decider || decider.answeredAt !== undefined || decider.refused) return false;
		return now - decider.at < this.policy.minWindowMs;
	}

	/** While nextSlot is undefined: waits for the next answer, or until the deciding start has gone unanswered a window. */
	async untilAnswered(signal?: AbortSignal): Promise<void> {
		const decider = this.decider;
		if (!decider || !this.deciding(this.clock.now())) return;
		const lostAt = decider.at + this.policy.minWindowMs;
		if (this.lostAt === undefined || lostAt < this.lostAt) {
			// One timer for every start waiting on it, not one each.
			this.lostAt = lostAt;
			void this.clock.sleep(Math.max(0, lostAt - this.clock.now())).then(() => {
				if (this.lostAt === lostAt) this.lostAt = undefined;
				this.answered();
			});
		}
		await this.answers.wait(signal);
	}

	/** An answer came (accepted, refused or failed): the starts waiting on one look again. */
	answered(): void {
		this.firstAnswerAt ??= this.clock.now();
		this.answers.wakeAll();
	}

	/**
	 * The least time between starts while nothing says what the service allows (no count
	 * learned, none announced): `rampGapMs` at the first answer, halved every
	 * `rampHalvingMs`. A limit the node was not told is found by the starts sent while its
	 * first 429 is on its way back: spaced, they are few at a low limit (one or two at 5 a
	 * second). Only for the first `rampStarts` (about 90 ms): past them, a limit's first
	 * window overshoots by a small share of it.
	 */
	rampGapMs(now: number): number {
		if (this.count !== undefined || this.firstAnswerAt === undefined) return 0;
		if (this.rampStarts >= this.policy.rampStarts) return 0;
		const gap =
			this.policy.rampGapMs * 2 ** (-(now - this.firstAnswerAt) / this.policy.rampHalvingMs);
		return gap < 0.05 ? 0 : gap;
	}

	record(ticket: Ticket): void {
		if (this.firstAnswerAt !== undefined && this.count === undefined) this.rampStarts++;
		if (!this.scouted) {
			this.scouted = true;
			this.decider = ticket;
		} else if (this.testGuessFrom !== undefined && ticket.at >= this.testGuessFrom) {
			this.testGuessFrom = undefined;
			if (this.fixed.holds && !this.fixed.learned) this.decider = ticket;
		}
		let index = this.sends.length;
		while (index > 0 && this.sends[index - 1].at > ticket.at) index--;
		this.sends.splice(index, 0, ticket);
		// Two windows back from now (starts may be planned ahead).
		const oldest = this.clock.now() - (2 * this.windowMs + this.marginMs());
		let old = 0;
		while (old < this.sends.length && this.sends[old].at <= oldest) old++;
		if (old) this.sends.splice(0, old);
		this.probe(ticket.at);
	}

	/** A start that did not count at the service: refused, or given up before it went. */
	drop(ticket: Ticket): void {
		ticket.refused = true;
		const index = this.sends.lastIndexOf(ticket);
		if (index >= 0) this.sends.splice(index, 1);
	}

	/** Windows in a row used in full without a 429: the service may allow more now (another worker done, a higher plan). */
	private probe(at: number): void {
		if (this.count === undefined || this.announcedLimit) return;
		// A window not used in full says nothing of more (as the limiter's rule): a raise
		// nobody tests would pile up into a burst when the load comes back. Used in full: more
		// than the count in a window and a tenth up to this start (the window before and it).
		const from = at - 1.1 * this.windowMs;
		const used = firstFrom(this.sends, at, true) - firstFrom(this.sends, from, true);
		if (used <= Math.floor(this.count)) {
			if (this.beforeProbe === undefined) this.fullSince = undefined;
			return;
		}
		this.fullSince ??= at;
		const quiet = at - this.fullSince;
		if (this.beforeProbe !== undefined) {
			// Starts are planned ahead of their answers: a raise holds only once the service has
			// accepted a request sent a window after it (a 429 before that takes the raise back).
			if (!this.raiseHeld) return;
			// The raise holds: the next one at once, twice as large.
			this.probeStep = Math.min(1, 2 * this.probeStep);
			this.probeAfterWindows = this.policy.probeAfterWindows;
			this.raise(at);
		} else {
			// At least 1 / probe accepted requests between raises: a raise that finds the limit
			// costs one 429, at most that share of them whatever the count.
			const windows = Math.max(this.probeAfterWindows, 1 / (this.policy.probe * this.count));
			if (quiet >= windows * this.windowMs) this.raise(at);
		}
	}

	private raise(at: number): void {
		this.raiseHeld = false;
		this.beforeProbe = this.count!;
		this.count = this.count! + Math.max(1, this.count! * this.probeStep);
		this.fullSince = at;
	}

	/**
	 * The service accepted `ticket`. One of the first count's burst sent just after the
	 * refused request (within a tenth of the window) reached the service ahead of it
	 * (requests sent at once arrive in any order): the service counted it in that window.
	 * Later ones may belong to its next window and are not counted.
	 */
	accepted(ticket: Ticket): void {
		this.answered();
		if (ticket.answeredAt !== undefined) {
			const rtt = Math.max(0, ticket.answeredAt - ticket.at);
			this.fastestRtt = Math.min(this.fastestRtt ?? rtt, rtt);
		}
		const raisedAt = this.fullSince;
		if (
			this.beforeProbe !== undefined &&
			raisedAt !== undefined &&
			ticket.at >= raisedAt + this.windowMs
		)
			this.raiseHeld = true;
		if (this.count === undefined || !this.learnedFrom || ticket.epoch !== this.epoch - 1) return;
		const after = ticket.at - this.learnedFrom.at;
		if (after > 0 && after <= this.windowMs / 10) this.count++;
	}

	/**
	 * The answer to `ticket` announced the service's budget: its limit is the count, its window
	 * (or the longest reset seen) the window, and what is left holds until the reset. A reset
	 * sooner than a window after our first start in it can only be a fixed window's end: the
	 * windows are fixed, from that reset on.
	 */
	announced(ticket: Ticket, budget: AnnouncedBudget): void {
		if (budget.limit !== undefined && budget.limit > 0) {
			this.count = budget.limit;
			this.announcedLimit = true;
			this.beforeProbe = undefined;
		}
		const windowMs = budget.windowMs ?? budget.resetMs;
		if (windowMs !== undefined) this.windowMs = Math.max(this.windowMs, windowMs);
		if (!this.fixed.learned) this.fixed.holds = false; // the clock's guess gives way to what is announced
		// A budget that says no less than our own count of the window adds only the rounding of
		// its reset (up to a second): kept when others with the key, or earlier runs, used some.
		const ours = this.fixed.holds
			? this.fixed.acceptedIn(ticket.at, this.sends)
			: this.acceptedBefore(ticket);
		const news = this.count === undefined || (budget.remaining ?? Infinity) < this.count - ours;
		const until = this.budget.heard(ticket, budget, this.policy.marginMs, news);
		if (until === undefined || this.fixed.holds) return;
		// Our first start the service may count in its window: a sliding or first-request window
		// reopens a window after it, within the second its reset is rounded to.
		const first = this.sends[firstFrom(this.sends, until - this.windowMs - 2 * SECOND)];
		if (first && until < first.at + this.windowMs - SECOND) {
			this.fixed.startAt(until);
			this.generation++;
		}
	}

	/**
	 * The service answered 429 to `ticket` after `waitMs` (its Retry-After, uncapped); the
	 * run pauses at most `pauseMs`. Learns the count and the window, or corrects them.
	 * Returns whether a count was learned.
	 */
	refused(ticket: Ticket, waitMs: number, now: number, pauseMs = waitMs): boolean {
		this.drop(ticket);
		this.answered();
		if (this.announcedLimit) {
			// Announced, yet refused (another client on the key): nothing left until it may come back.
			this.budget.heard(
				ticket,
				{ headers: 'ietf', remaining: 0, resetMs: waitMs },
				this.policy.marginMs,
			);
			this.generation++;
			return false;
		}
		if (this.count === undefined) return this.learnCount(ticket, waitMs, now, pauseMs);
		if (ticket.epoch === this.epoch) this.refusedWhilePaced(ticket, waitMs, now);
		else if (this.learnedFrom && ticket.at <= this.learnedFrom.at) {
			// Of the first burst, counted as accepted (sent before the refused one) but refused after all: it overtook.
			this.count = Math.max(1, this.count - 1);
		}
		return false;
	}

	/** A 429 to a request sent at the learned pace: the cause that fits first changes the pace. */
	private refusedWhilePaced(ticket: Ticket, waitMs: number, now: number): void {
		const count = this.count as number;
		// Paced, so no window of the service should hold more than `count` of our starts.
		// The refused request waits; the rest go on at the corrected pace. A request sent before the last
		// change of pace is of the overshoot that change answered (TCP's one cut per window of
		// data): the raise's other 429s must not also be read as a service counting late.
		if (ticket.at <= this.lastCut) return;
		this.lastCut = now;
		this.generation++;
		const reopens = this.longerWindow(ticket, waitMs);
		if (this.beforeProbe !== undefined && count > this.beforeProbe) {
			// The raise found the limit: back to what was accepted; the next raise small and later.
			this.count = this.beforeProbe;
			this.probeStep = this.policy.probe;
			this.probeAfterWindows = Math.min(
				this.policy.maxProbeAfterWindows,
				2 * this.probeAfterWindows,
			);
			// The raise's whole window is one event (a burst's last starts may leave after this
			// answer), and it is full: nothing more goes before it ends.
			if (this.fixed.holds) {
				this.lastCut = Math.max(now, this.fixed.windowEnd(ticket.at));
				this.pausedUntil = Math.max(this.pausedUntil, this.lastCut);
			}
		} else if (reopens !== undefined) {
			// The service's window is longer than ours: it reopens a window after our oldest start in it.
			this.windowMs = reopens;
			this.fixed.holds = false;
		} else if (this.fixed.holds) {
			// Not the count: the guess of fixed windows was wrong. Back to the sliding window, the count kept.
			this.fixed.holds = false;
		} else {
			// It allows fewer than the count: the first count was read across two of its
			// windows (a fixed-window service lets a burst across its boundary hold up to twice
			// its count), or it allows less now (another worker with the key, a lower plan).
			// What it accepted in the window before this request is what it allows: at most
			// that, and at least one less. At most halved (TCP's cut): with another worker on the
			// key, what this process sent in that window can be far below its share.
			this.count = Math.max(1, count / 2, Math.min(count - 1, this.acceptedBefore(ticket)));
		}
		this.beforeProbe = undefined;
		this.fullSince = undefined;
	}

	/**
	 * The window's new length when a Retry-After of more than a second says the service
	 * reopens later than a window after the oldest of the last `count` starts (ours, at the
	 * count): its window is longer, by the time from that start to the reopening (rounded up).
	 */
	private longerWindow(ticket: Ticket, waitMs: number): number | undefined {
		if (waitMs <= SECOND || this.count === undefined) return undefined;
		const before = firstFrom(this.sends, ticket.at);
		const oldest = this.sends[before - Math.floor(this.count)];
		if (!oldest) return undefined;
		const reopens = measured(ticket.at + waitMs - oldest.at, waitMs);
		return reopens > this.windowMs + SECOND ? reopens : undefined;
	}

	/** Requests started in the window before `ticket` and not refused (answered or on their way back). */
	private acceptedBefore(ticket: Ticket, windowMs = this.windowMs): number {
		return (
			firstFrom(this.sends, ticket.at, true) - firstFrom(this.sends, ticket.at - windowMs, true)
		);
	}

	/**
	 * The first 429s: the count is what the service accepted in the window before the refused
	 * request, the window (at least a second) what its Retry-After says: the window reopens a
	 * window after the first of them (rounded up to the second). With nothing accepted, every
	 * request pauses for the Retry-After.
	 */
	private learnCount(ticket: Ticket, waitMs: number, now: number, pauseMs: number): boolean {
		const windowMs = Math.max(this.policy.minWindowMs, waitMs);
		// A 429 to a request sent before the last pause only lengthens it.
		const current = ticket.epoch === this.epoch;
		if (current && windowMs > this.policy.minWindowMs) this.fixed.holds = false; // the guess is of one-second windows
		let accepted = current && this.fixed.holds ? this.fixed.acceptedIn(ticket.at, this.sends) : 0;
		// The clock's window before took more of ours than this one before its 429: not the clock's windows.
		if (accepted < this.fixed.acceptedIn(ticket.at - windowMs, this.sends, true))
			this.fixed.holds = false;
		if (current && !this.fixed.holds) accepted = this.acceptedBefore(ticket, windowMs);
		const learned = accepted > 0;
		if (learned) {
			this.count = accepted;
			// A window of the clock's guess: the next window's first start tests it alone, when
			// its answer leaves most of that window (a longer round trip would cost the window).
			const quick = (this.fastestRtt ?? 0) <= this.windowMs / 2;
			if (this.fixed.holds && !this.fixed.learned && quick)
				this.testGuessFrom = this.fixed.windowEnd(ticket.at);
			const first = this.sends[firstFrom(this.sends, ticket.at, true) - accepted];
			this.windowMs =
				waitMs > SECOND
					? Math.max(windowMs, measured(ticket.at + waitMs - first.at, waitMs))
					: windowMs;
			this.learnedFrom = ticket;
		}
		if (current) this.epoch++;
		this.fullSince = undefined;
		// With a count learned, nextSlot paces the next window's starts from the window's own
		// start, not from this 429: Retry-After in whole seconds (rounded up by the service)
		// is then kept only to its precision.
		const precision = learned && waitMs % SECOND === 0 ? SECOND : 0;
		this.pausedUntil = Math.max(
			this.pausedUntil,
			now + Math.max(0, Math.min(pauseMs, waitMs - precision)),
		);
		this.generation++;
		return learned;
	}
}
