import { type CredentialState, newCredentialState } from './credentialState';
import type { ConcurrencyLimit } from './concurrency';
import type { Ticket } from './ratePolicy';

/**
 * The pace of requests with one credential. Three parts:
 * - the user's "Max Requests per Second", when set: starts spaced evenly from the first;
 * - the **rate window** (RateWindow, shared by every run with the credential in this
 *   process): after a 429, at most the number of requests the service accepted in its
 *   window are started in each of the clock's windows, at its start (fixedWindow.ts), or,
 *   once a 429 says the service counts otherwise, in any window's length (a sliding window
 *   on our side). A batch then sends a window's worth at the start of each window, as the
 *   best hand-tuned batching does, instead of pausing and climbing back slowly;
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
	 * request; ends at once with ExecutionStopped when `signal` (n8n's Stop) aborts.
	 */
	async acquire(signal?: AbortSignal): Promise<Ticket> {
		const { window, clock } = this.shared;
		for (;;) {
			const now = clock.now();
			this.shared.lastUsed = now;
			if (window.pausedUntil > now) {
				await clock.sleep(window.pausedUntil - now, signal);
				continue;
			}
			const { epoch, generation } = window;
			const gap = Math.max(
				Number.isFinite(this.ceiling) ? 1000 / this.ceiling : 0,
				this.spreadMs(),
			);
			// The user's pace follows its planned timeline (a late timer does not lower it);
			// after a quiet spell it starts again from now (no burst to catch up).
			const paced = this.nextStart > now - gap ? this.nextStart : now;
			const slot = window.nextSlot(now, paced);
			if (slot === undefined) {
				await window.untilAnswered(signal); // the answer that decides the slot is on its way
				continue;
			}
			const start = Math.max(paced, slot);
			this.nextStart = start + gap;
			const ticket: Ticket = { epoch, at: start };
			window.record(ticket);
			if (start > now) {
				let waited = false;
				try {
					await clock.sleep(start - now, signal);
					waited = true;
				} finally {
					if (!waited) ticket.refused = true; // stopped: it never went
				}
			}
			if (generation !== window.generation || ticket.refused) {
				ticket.refused = true; // given up (a 429 came meanwhile, or the count was lowered): it never went
				continue; // a 429 came meanwhile: queue again behind its pause
			}
			ticket.at = clock.now();
			this.stats.requests++;
			return ticket;
		}
	}

	/** The least time between two starts that spreads the requests in flight over their round trip. */
	private spreadMs(): number {
		const parallel = this.limit.limit;
		const policy = this.shared.window.policy;
		if (parallel < 2 || this.roundTripMs === undefined) return 0;
		return Math.min(policy.spreadMaxMs, (policy.spreadShare * this.roundTripMs) / parallel);
	}

	/** The service answered (not 429, not 5xx). */
	succeeded(ticket?: Ticket): void {
		if (!ticket) return;
		ticket.answeredAt = this.shared.clock.now();
		const took = ticket.answeredAt - ticket.at;
		const weight = this.shared.window.policy.roundTripWeight;
		this.roundTripMs =
			this.roundTripMs === undefined ? took : this.roundTripMs + weight * (took - this.roundTripMs);
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

	/** 429: learns the window; returns how long the refused request itself waits before it queues again (0: the run's pause covers it). */
	rateLimited(ticket: Ticket, retryAfterMs: number): number {
		const now = this.shared.clock.now();
		ticket.answeredAt = now;
		const window = this.shared.window;
		const pausedBefore = Math.max(now, window.pausedUntil);
		const paced = window.count !== undefined;
		this.stats.rateLimited++;
		if (ticket.epoch === window.epoch && !paced) this.stats.pauses++;
		window.refused(ticket, retryAfterMs, now);
		this.stats.pausedMs += Math.max(0, window.pausedUntil - pausedBefore);
		this.limit.observe('rateLimited', ticket.at);
		return paced ? Math.max(0, retryAfterMs) : 0;
	}
}

export { forgetLearnedPaces } from './credentialState';
