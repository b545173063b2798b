import { type CredentialState, newCredentialState } from './credentialState';
import type { ConcurrencyLimit } from './concurrency';
import type { Ticket } from './ratePolicy';
import type { AnnouncedBudget } from './signals';
import { WaitQueue } from '../run/clock';

/**
 * The pace of requests with one credential. Three parts:
 * - the user's "Max Requests per Second", when set: starts spaced evenly from the first;
 * - the **rate window** (RateWindow, shared by every run with the credential in this
 *   process): the credential's first request goes alone, since its answer may announce the
 *   budget; then at most the service's count per window, announced or learned from its 429s,
 *   and no more than an announced budget has left before its reset. A batch then sends a
 *   window's worth at the start of each window, as the best hand-tuned batching does,
 *   instead of pausing and climbing back slowly;
 * - a short spread of starts over the round trip, so answers do not all come back at once.
 * How many run at once is limiter.ts's part.
 */

export interface RateSettings {
	/** Requests started per second from the start; 0 or undefined: no pace of the user's. */
	maxPerSecond?: number;
	/** Items the run keeps in flight when the user fixed it; undefined: adaptive (limiter.ts). */
	parallel?: number;
}

export interface RateStats {
	/** Requests started (every attempt). */
	requests: number;
	/** Attempts sent again after a failure that is safe to resend (429 excluded). */
	retried: number;
	/** 429 answers received. */
	rateLimited: number;
	/** Pauses of the whole run for a Retry-After. */
	pauses: number;
	/** Total time the run was paused. */
	pausedMs: number;
}

export class RateController {
	readonly stats: RateStats = { requests: 0, retried: 0, rateLimited: 0, pauses: 0, pausedMs: 0 };
	/** The user's pace, requests per second; Infinity: none. */
	readonly ceiling: number;
	private nextStart = 0;
	/** Running average of the round trip of answered requests, ms. */
	private roundTripMs: number | undefined;
	/** Requests waiting for their turn to plan a start, first come first served. */
	private readonly line = new WaitQueue();
	private planning = false;

	/**
	 * @param limit  the run's items at once: the credential's adaptive limit, or the user's
	 *   fixed number (answers are fed to it; a fixed one ignores them)
	 */
	constructor(
		settings: RateSettings = {},
		readonly shared: CredentialState = newCredentialState(),
		readonly limit: ConcurrencyLimit = shared.limit,
	) {
		const max = Number(settings.maxPerSecond);
		this.ceiling = Number.isFinite(max) && max > 0 ? max : Infinity;
	}

	/**
	 * Waits until the pause, the user's pace and the service's window allow one more
	 * request; ends at once with ExecutionStopped when `signal` (n8n's Stop) aborts. The run's
	 * requests plan their starts one at a time, in the order they asked: a change of the pace
	 * wakes one of them, not every one.
	 */
	async acquire(signal?: AbortSignal): Promise<Ticket> {
		if (this.planning) await this.line.wait(signal);
		else this.planning = true;
		try {
			return await this.plan(signal);
		} finally {
			if (!this.line.wakeOne()) this.planning = false;
		}
	}

	private async plan(signal?: AbortSignal): Promise<Ticket> {
		const { window, clock } = this.shared;
		for (;;) {
			const now = clock.now();
			this.shared.lastUsed = now;
			if (window.pausedUntil > now) {
				await clock.sleep(window.pausedUntil - now, signal);
				continue;
			}
			const { epoch, generation } = window;
			// The user's pace, or until a limit is known, the ramp's (rateWindow.ts).
			const gap = Math.max(
				Number.isFinite(this.ceiling) ? 1000 / this.ceiling : window.rampGapMs(now),
				this.spreadMs(),
			);
			// The user's pace follows its planned timeline (a late timer does not lower it);
			// after a quiet spell it starts again from now (no burst to catch up).
			const paced = this.nextStart > now - gap ? this.nextStart : now;
			const start = window.nextSlot(now, paced);
			if (start === undefined) {
				await window.untilAnswered(signal); // the answer that decides the slot is on its way
				continue;
			}
			const ticket: Ticket = { epoch, at: start };
			window.record(ticket); // other runs with the credential see it planned
			if (!(await this.waitFor(ticket, now, signal)) || generation !== window.generation) {
				window.drop(ticket); // given up (the pace changed meanwhile): it never went
				continue;
			}
			this.nextStart = start + gap;
			ticket.at = clock.now();
			this.stats.requests++;
			return ticket;
		}
	}

	/** Sleeps until the ticket's start; false when it was given up meanwhile. Stopped: dropped, then thrown. */
	private async waitFor(ticket: Ticket, now: number, signal?: AbortSignal): Promise<boolean> {
		if (ticket.at <= now) return true;
		let waited = false;
		try {
			await this.shared.clock.sleep(ticket.at - now, signal);
			waited = true;
		} finally {
			if (!waited) this.shared.window.drop(ticket); // stopped: it never went
		}
		return !ticket.refused;
	}

	/** The least time between two starts that spreads the requests in flight over their round trip. */
	private spreadMs(): number {
		const parallel = this.limit.limit;
		const policy = this.shared.window.policy;
		if (parallel < 2 || this.roundTripMs === undefined) return 0;
		return Math.min(policy.spreadMaxMs, (policy.spreadShare * this.roundTripMs) / parallel);
	}

	/** The service answered (not 429, not 5xx), with the budget it announced, if any. */
	succeeded(ticket?: Ticket, budget?: AnnouncedBudget): void {
		if (!ticket) return;
		ticket.answeredAt = this.shared.clock.now();
		const took = ticket.answeredAt - ticket.at;
		const weight = this.shared.window.policy.roundTripWeight;
		this.roundTripMs =
			this.roundTripMs === undefined ? took : this.roundTripMs + weight * (took - this.roundTripMs);
		if (budget) this.shared.window.announced(ticket, budget);
		this.shared.window.accepted(ticket);
		this.limit.observe('ok', ticket.at);
	}

	/** 503, another 5xx or a failed connection: fewer at once. */
	overloaded(ticket?: Ticket): void {
		if (!ticket) return;
		ticket.answeredAt = this.shared.clock.now();
		this.shared.window.answered();
		this.limit.observe('overload', ticket.at);
	}

	/**
	 * 429 after `retryAfterMs` (the service's Retry-After, uncapped), with the budget it
	 * announced, if any: the window learns from it. Returns how long the refused request
	 * itself waits before it queues again: its Retry-After, less the second a whole-seconds
	 * one is rounded up by (0 before a count is known: the run's pause covers it).
	 */
	rateLimited(ticket: Ticket, retryAfterMs: number, budget?: AnnouncedBudget): number {
		const now = this.shared.clock.now();
		ticket.answeredAt = now;
		const window = this.shared.window;
		const pausedBefore = Math.max(now, window.pausedUntil);
		const paced = window.count !== undefined;
		this.stats.rateLimited++;
		if (ticket.epoch === window.epoch && !paced) this.stats.pauses++;
		if (budget) window.announced(ticket, budget);
		// A Retry-After longer than the retry policy's is waited out only that long.
		const pauseMs = Math.min(retryAfterMs, this.shared.retry.maxRetryAfterMs);
		window.refused(ticket, retryAfterMs, now, pauseMs);
		this.stats.pausedMs += Math.max(0, window.pausedUntil - pausedBefore);
		this.limit.observe('rateLimited', ticket.at);
		if (!paced) return 0;
		return Math.max(0, pauseMs - (retryAfterMs % 1000 === 0 ? 1000 : 0));
	}
}

export { forgetLearnedPaces } from './credentialState';
