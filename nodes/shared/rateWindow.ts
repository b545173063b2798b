/** The service's rate window as learned from its 429 answers (see rate.ts). */

/** Tuning; a test may change it, node code does not. */
export const RATE_POLICY = {
	/** Shortest window assumed behind a Retry-After (a service tells the time left, not its window). */
	minWindowMs: 1000,
	maxWindowMs: 60_000,
	/** Added to the window between an answer and the start `count` later (timer slack). */
	marginMs: 5,
	/** Fewest accepted requests in a window from which a count is learned. */
	minSample: 10,
	/** Share taken off the count by a 429 once it is known (at most once per window). */
	cut: 0.1,
	/** After windows without a 429, the count grows by this share (a service may allow more now). */
	probe: 0.05,
	/** Windows in a row without a 429 before that (each probe that finds the limit costs a 429). */
	probeAfterWindows: 3,
	/** What a credential's runs learned is forgotten after this long without a request. */
	rememberMs: 5000,
	/** Starts are spread at least this share of (round trip / requests in flight), at most spreadMaxMs. */
	spreadShare: 0.8,
	spreadMaxMs: 5,
	/** Weight of the newest round trip in the running average. */
	roundTripWeight: 0.2,
};

/** A permit to send one request. */
export interface Ticket {
	epoch: number;
	/** When the request may go / went (ms since epoch). */
	at: number;
	/** Set when the service answered 429. */
	refused?: boolean;
	/** When the answer (or the failure) came. */
	answeredAt?: number;
}

/** What the service accepts per window, learned from 429s; shared by the runs of one credential. */
export class RateWindow {
	/** Requests accepted per window; undefined before the first 429 with a sample. */
	count: number | undefined;
	windowMs = RATE_POLICY.minWindowMs;
	pausedUntil = 0;
	/** Counts the counts learned: a request of an earlier epoch was sent before the last one. */
	epoch = 0;
	/** Counts 429s: a slot reserved before the last one is given up and queued again. */
	generation = 0;
	/** Starts, oldest first, kept for two windows. */
	readonly sends: Ticket[] = [];
	private fullSince: number | undefined;
	/** When a paced 429 last lowered the count. */
	private lastCut = -Infinity;
	/** The refused request the count was learned from. */
	private learnedFrom: Ticket | undefined;

	/**
	 * The earliest start the window allows now (`now` itself when free); undefined while it
	 * waits for the answer that decides it. A request may start a window's length after the
	 * answer to the request `count` starts earlier: that answer came after the service counted
	 * it, so however late either is sent or arrives, no fixed window of the service holds
	 * more than `count` of them.
	 */
	nextSlot(now: number): number | undefined {
		if (this.count === undefined) return now;
		const n = Math.floor(this.count);
		const counted = this.sends.filter((t) => !t.refused);
		if (counted.length < n) return now;
		const decisive = counted[counted.length - n];
		// Unanswered for a window's length (a lost answer): counted as answered now.
		const answeredAt = decisive.answeredAt ?? (now - decisive.at >= this.windowMs ? now : undefined);
		if (answeredAt === undefined) return undefined;
		return Math.max(now, answeredAt + this.windowMs + RATE_POLICY.marginMs);
	}

	record(ticket: Ticket): void {
		this.sends.push(ticket);
		const keep = 2 * this.windowMs + RATE_POLICY.marginMs;
		while (this.sends.length && this.sends[0].at <= ticket.at - keep) this.sends.shift();
		this.probe(ticket.at);
	}

	/** Windows in a row without a 429 while sending: the service may allow more now (another worker done, a higher plan). */
	private probe(at: number): void {
		if (this.count === undefined) return;
		this.fullSince ??= at;
		if (at - this.fullSince >= RATE_POLICY.probeAfterWindows * this.windowMs) {
			this.count += Math.max(1, this.count * RATE_POLICY.probe);
			this.fullSince = at;
		}
	}

	/**
	 * The service accepted `ticket`. One of the first count's burst sent just after the
	 * refused request (within a tenth of the window) reached the service ahead of it
	 * (requests sent at once arrive in any order): the service counted it in that window.
	 * Later ones may belong to its next window and are not counted.
	 */
	accepted(ticket: Ticket): void {
		if (this.count === undefined || !this.learnedFrom || ticket.epoch !== this.epoch - 1) return;
		const after = ticket.at - this.learnedFrom.at;
		if (after > 0 && after <= this.windowMs / 10) this.count++;
	}

	/**
	 * The service answered 429 to `ticket`: learn its count per window; before a count is
	 * known, every request pauses for Retry-After. Returns whether a count was learned.
	 */
	refused(ticket: Ticket, retryAfterMs: number, now: number): boolean {
		ticket.refused = true;
		if (this.count !== undefined) {
			if (ticket.epoch === this.epoch) {
				// Paced: no fixed window of the service holds more than `count` of our starts (the
				// sliding window), so a 429 means it allows less now (another worker with the key,
				// a lower plan): 10 % less, once per window (the 429s of one window are one event;
				// one less per 429 let a worker sharing the key with another fall to nothing).
				// Only the refused request waits; the rest go on.
				if (now - this.lastCut >= this.windowMs) {
					this.count = Math.max(1, this.count - Math.max(1, this.count * RATE_POLICY.cut));
					this.lastCut = now;
				}
				this.fullSince = undefined;
			} else if (this.learnedFrom && ticket.at <= this.learnedFrom.at) {
				// Of the first burst, counted as accepted (sent before the refused one) but refused after all: it overtook.
				this.count = Math.max(1, this.count - 1);
			}
			return false;
		}
		const windowMs = Math.min(RATE_POLICY.maxWindowMs, Math.max(RATE_POLICY.minWindowMs, retryAfterMs));
		// Accepted: the requests let go in the window before the refused one (the service
		// counted them ahead of it), answered or still on their way back.
		// A 429 to a request sent before the last pause only lengthens it.
		const current = ticket.epoch === this.epoch;
		const accepted = current ? this.sends.filter((t) => t.at > ticket.at - windowMs && t.at <= ticket.at && !t.refused).length : 0;
		const learned = accepted >= RATE_POLICY.minSample;
		if (learned) {
			this.count = accepted;
			this.windowMs = windowMs;
			this.learnedFrom = ticket;
		}
		if (current) this.epoch++;
		this.fullSince = undefined;
		this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, retryAfterMs));
		this.generation++;
		return learned;
	}
}

