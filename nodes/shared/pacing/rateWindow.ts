import { type Clock, realClock, WaitQueue } from '../run/clock';
import { FixedWindowGuess } from './fixedWindow';
import { RATE_POLICY, type RatePolicy, type Ticket } from './ratePolicy';

/** The service's rate window as learned from its 429 answers (see rate.ts). */

/** What the service accepts per window, learned from 429s; shared by the runs of one credential. */
export class RateWindow {
	/** Requests accepted per window; undefined before the first 429 with a sample. */
	count: number | undefined;
	windowMs: number;
	pausedUntil = 0;
	/** Counts the counts learned: a request of an earlier epoch was sent before the last one. */
	epoch = 0;
	/** Counts 429s: a slot reserved before the last one is given up and queued again. */
	generation = 0;
	/** Starts in the order planned (some windows ahead), kept two windows back from now. */
	readonly sends: Ticket[] = [];
	private fullSince: number | undefined;
	/** The count before the running probe raised it (what the service is known to accept). */
	private beforeProbe: number | undefined;
	/** The service accepted a request sent a window after the running raise. */
	private raiseHeld = false;
	private probeAfterWindows: number;
	private probeStep: number;
	/** Fastest round trip of an accepted request, ms. */
	private fastestRtt: number | undefined;
	/** When a paced 429 last lowered the count. */
	private lastCut = -Infinity;
	/** The refused request the count was learned from. */
	private learnedFrom: Ticket | undefined;
	/** Starts waiting for the answer that decides their slot, oldest first. */
	private readonly answers = new WaitQueue();
	/** When the timer set for a lost answer fires. */
	private lostAt: number | undefined;
	/** Windows that start on the clock's whole windows, until a 429 it does not explain (fixedWindow.ts). */
	private readonly fixed: FixedWindowGuess;

	constructor(
		readonly policy: RatePolicy = RATE_POLICY,
		private readonly clock: Clock = realClock,
	) {
		this.windowMs = policy.minWindowMs;
		this.probeAfterWindows = policy.probeAfterWindows;
		this.probeStep = policy.probe;
		this.fixed = new FixedWindowGuess(policy.marginMs, () => this.windowMs);
		this.fixed.holds = policy.fixedWindows;
	}

	/** Whether the guess of the clock's windows still holds (fixedWindow.ts). */
	get fixedWindowsHold(): boolean {
		return this.fixed.holds;
	}

	/**
	 * The earliest start the window allows now (`now` itself when free); undefined while it
	 * waits for the answer that decides it. A request may start a window's length after the
	 * service counted the request `count` starts earlier, so that no window of the service
	 * holds more than `count` of them. When it counted is known only from our side: its
	 * answer less the fastest round trip. The part of a round trip every request takes is
	 * taken as spent after the count (a service counts a request when it arrives); what this
	 * one took beyond the fastest may have been spent before. A service that counts a request
	 * only once it has done the work is covered too: the fastest round trip holds that work,
	 * so the next start is still a window after the count. Pacing by the answer itself would
	 * lengthen every window by a round trip (5 % at 50 ms). A start held back to `notBefore`
	 * stays allowed in a sliding window, not always in a fixed one.
	 */
	nextSlot(now: number, notBefore = now): number | undefined {
		if (this.count !== undefined && this.fixed.holds) {
			const tailMs = (this.fastestRtt ?? 0) + this.policy.marginMs;
			// From `notBefore` (the spread or the user's pace): a later start may fall in a full window.
			const from = Math.max(now, notBefore);
			return this.fixed.nextSlot(from, Math.floor(this.count), this.sends, tailMs);
		}
		const decisive = this.decisive();
		if (!decisive) return now;
		// Unanswered for a window's length (a lost answer): counted as answered now.
		const answeredAt =
			decisive.answeredAt ?? (now - decisive.at >= this.windowMs ? now : undefined);
		if (answeredAt === undefined) return undefined;
		const countedAt = this.countedEstimate(decisive) ?? answeredAt;
		return Math.max(now, countedAt + this.windowMs + this.policy.marginMs);
	}

	/** The start `count` starts back, whose answer decides the next slot; undefined when the window is free. */
	private decisive(): Ticket | undefined {
		if (this.count === undefined) return undefined;
		const n = Math.floor(this.count);
		const counted = this.sends.filter((t) => !t.refused);
		return counted.length < n ? undefined : counted[counted.length - n];
	}

	/**
	 * While nextSlot is undefined: waits for the next answer, or until the deciding request
	 * has gone unanswered a window's length (then counted as answered).
	 */
	async untilAnswered(signal?: AbortSignal): Promise<void> {
		const decisive = this.decisive();
		if (!decisive || decisive.answeredAt !== undefined) return;
		const lostAt = decisive.at + this.windowMs;
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
		this.answers.wakeAll();
	}

	record(ticket: Ticket): void {
		this.sends.push(ticket);
		// Two windows back from now, not from this start: starts are planned windows ahead.
		const oldest = this.clock.now() - (2 * this.windowMs + this.policy.marginMs);
		while (this.sends.length && this.sends[0].at <= oldest) this.sends.shift();
		this.probe(ticket.at);
	}

	/** Windows in a row without a 429 while sending: the service may allow more now (another worker done, a higher plan). */
	private probe(at: number): void {
		if (this.count === undefined) return;
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
		} else if (quiet >= this.probeAfterWindows * this.windowMs) this.raise(at);
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
		const heldAfter = this.policy.probeHoldsAfterWindows * this.windowMs;
		if (
			this.beforeProbe !== undefined &&
			raisedAt !== undefined &&
			ticket.at >= raisedAt + heldAfter
		)
			this.raiseHeld = true;
		if (this.count === undefined || !this.learnedFrom || ticket.epoch !== this.epoch - 1) return;
		const after = ticket.at - this.learnedFrom.at;
		if (after > 0 && after <= this.windowMs / 10) this.count++;
	}

	/** When the service counted an answered request: its answer less the fastest round trip (see nextSlot). */
	private countedEstimate(t: Ticket): number | undefined {
		if (t.answeredAt === undefined || this.fastestRtt === undefined) return undefined;
		return Math.max(t.at, t.answeredAt - this.fastestRtt);
	}

	/** Requests not refused that the service counted in the window before `ticket` reached it, as nextSlot estimates when. */
	private countedBefore(ticket: Ticket): number {
		return this.sends.filter(
			(t) =>
				!t.refused &&
				t.at <= ticket.at &&
				(this.countedEstimate(t) ?? t.at) > ticket.at - this.windowMs,
		).length;
	}

	/** Requests started in the window before `ticket` and not refused (answered or on their way back). */
	private acceptedBefore(ticket: Ticket, windowMs = this.windowMs): number {
		return this.sends.filter((t) => t.at > ticket.at - windowMs && t.at <= ticket.at && !t.refused)
			.length;
	}

	/**
	 * The service answered 429 to `ticket`: learn its count per window; before a count is
	 * known, every request pauses for Retry-After. Returns whether a count was learned.
	 */
	refused(ticket: Ticket, retryAfterMs: number, now: number): boolean {
		ticket.refused = true;
		this.answered();
		if (this.count === undefined) return this.learnCount(ticket, retryAfterMs, now);
		if (ticket.epoch === this.epoch) this.refusedWhilePaced(ticket, now);
		else if (this.learnedFrom && ticket.at <= this.learnedFrom.at) {
			// Of the first burst, counted as accepted (sent before the refused one) but refused after all: it overtook.
			this.count = Math.max(1, this.count - 1);
		}
		return false;
	}

	/** A 429 to a request sent at the learned pace: the cause that fits first changes the pace. */
	private refusedWhilePaced(ticket: Ticket, now: number): void {
		const count = this.count as number;
		// Paced, so no window of the service should hold more than `count` of our starts.
		// Only the refused request waits; the rest go on. A request sent before the last
		// change of pace is of the overshoot that change answered (TCP's one cut per window of
		// data): the raise's other 429s must not also be read as a service counting late.
		if (ticket.at < this.lastCut) return;
		if (this.beforeProbe !== undefined && count > this.beforeProbe) {
			// The raise found the limit: back to what was accepted; the next raise small and later.
			this.count = this.beforeProbe;
			this.probeStep = this.policy.probe;
			this.probeAfterWindows = Math.min(
				this.policy.maxProbeAfterWindows,
				2 * this.probeAfterWindows,
			);
			this.lastCut = now;
			if (this.fixed.holds) {
				// The raise's whole window is one event (a burst's last starts may leave after this
				// answer); starts planned ahead at the raised count are planned again.
				this.lastCut = Math.max(now, this.fixed.windowEnd(ticket.at));
				this.fixed.giveUpBeyond(this.count, now, this.sends);
			}
		} else if (this.fixed.holds) {
			// Not the count: the guess of fixed windows was wrong. Back to the sliding window,
			// the count kept; the starts planned by the guess are planned again.
			this.fixed.holds = false;
			this.fixed.giveUpBeyond(0, now, this.sends);
			this.lastCut = now;
			this.generation++;
		} else {
			// It allows fewer than the count: the first count was read across two of its
			// windows (a fixed-window service lets a burst across its boundary hold up to twice
			// its count), or it allows less now (another worker with the key, a lower plan).
			// What it accepted in the window before this request is what it allows: at most
			// that, and at least one less. The 429s of one window are one event (lastCut).
			// At most halved (TCP's cut): with another worker on the key, what this process
			// sent in that window can be far below its share (a few items left, a pause), and
			// a count cut to it climbs back slowly once the other is done.
			this.count = Math.max(1, count / 2, Math.min(count - 1, this.countedBefore(ticket)));
			this.lastCut = now;
		}
		this.beforeProbe = undefined;
		this.fullSince = undefined;
	}

	/** The first 429s: every request pauses for Retry-After; the count is learned from the window before. */
	private learnCount(ticket: Ticket, retryAfterMs: number, now: number): boolean {
		const windowMs = Math.min(
			this.policy.maxWindowMs,
			Math.max(this.policy.minWindowMs, retryAfterMs),
		);
		// Accepted: the requests let go in the window before the refused one (the service
		// counted them ahead of it), answered or still on their way back.
		// A 429 to a request sent before the last pause only lengthens it.
		const current = ticket.epoch === this.epoch;
		let accepted = 0;
		if (current && this.fixed.holds) {
			accepted = this.fixed.acceptedIn(ticket.at, this.sends, windowMs);
			// Too few of ours in the guessed window to have filled it: not windows of the clock.
			if (accepted < this.policy.minSample) this.fixed.holds = false;
		}
		if (current && !this.fixed.holds) accepted = this.acceptedBefore(ticket, windowMs);
		const learned = accepted >= this.policy.minSample;
		if (learned) {
			this.count = accepted;
			this.windowMs = windowMs;
			this.learnedFrom = ticket;
		}
		if (current) this.epoch++;
		this.fullSince = undefined;
		// With a count learned, nextSlot paces the next window's starts from the window's own
		// start, not from this 429: Retry-After in whole seconds (rounded up by the service)
		// is then kept only to its precision.
		const precision = learned && retryAfterMs % 1000 === 0 ? 1000 : 0;
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, retryAfterMs - precision));
		this.generation++;
		return learned;
	}
}
