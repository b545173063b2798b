import type { IDataObject } from 'n8n-workflow';

import { MAYBE_SENT_CODES, NOT_SENT_CODES } from './failures';
import { type RateSignals, rateSignals } from './signals';

/**
 * When the transport sends a request again: a pure decision from what the last attempt got,
 * the attempts so far and the policy. Only what is safe is retried: 429 and 503 (not
 * processed) and connections that never reached the service, for any request; other server
 * errors, maybe-sent connection failures and malformed answers only for a request that is
 * safe to resend (a read, or one carrying an idempotency key). A create that may have reached
 * the service is never sent again.
 */

/** The defaults; a run takes its policy from credentialState.ts (PacingPolicies) with the others. */
const retryDefaults = {
	/** Further attempts after the first. */
	maxRetries: 3,
	/** Further attempts after 429 answers (the whole run waits out each Retry-After). */
	maxRateLimitedRetries: 10,
	/** First backoff; doubles per attempt. */
	baseDelayMs: 500,
	/** Ceiling of the exponential backoff. */
	maxDelayMs: 10_000,
	/** Ceiling of a server-sent Retry-After. */
	maxRetryAfterMs: 30_000,
	/** Per-request timeout. */
	timeoutMs: 60_000,
	/** A file fetched through the address guard (PDF URL, download): the whole of it, body included. */
	fileDeadlineMs: 180_000,
};

export type RetryPolicy = Readonly<typeof retryDefaults>;

export const RETRY_POLICY: RetryPolicy = Object.freeze(retryDefaults);

/** What one attempt got. */
export type AttemptOutcome =
	| {
			answer: number;
			/** The Retry-After, capped (cappedWait). */
			retryAfterMs?: number;
			malformed?: boolean;
			/** What the answer said about the rate limit, for the pace (signals.ts). */
			signals?: RateSignals;
	  }
	| { failure: string | undefined };

export interface Attempts {
	/** Attempts made before this one (0 for the first). */
	attempt: number;
	/** 429 answers among them, paced by the rate window (they have their own budget). */
	rateLimited: number;
}

export type RetryDecision =
	| { retry: true; afterMs: number; rateLimited?: true }
	| { retry: false; fail?: 'mayHaveArrived' | 'exhausted' | 'malformed' };

/** Statuses that mean "not processed, come back later": safe to resend for any method. */
const RETRY_STATUSES = new Set([429, 503]);

/** Server failures after which a read or an idempotent request is sent again. */
const RESEND_STATUSES = new Set([500, 502, 504]);

/**
 * @param resendable  a read or a request with an idempotency key
 * @param paced  a 429 goes to the run's rate window (API calls): its Retry-After is handed
 *   there (afterMs) and the window decides how long this request waits
 */
export function decideRetry(
	outcome: AttemptOutcome,
	{ attempt, rateLimited }: Attempts,
	resendable: boolean,
	paced: boolean,
	policy: RetryPolicy,
): RetryDecision {
	const canRetry = attempt - rateLimited < policy.maxRetries;
	const backoff = backoffMs(attempt - rateLimited, policy);
	if ('failure' in outcome) {
		const notSent = outcome.failure !== undefined && NOT_SENT_CODES.has(outcome.failure);
		const maybeSent = outcome.failure !== undefined && MAYBE_SENT_CODES.has(outcome.failure);
		if (canRetry && (notSent || (maybeSent && resendable)))
			return { retry: true, afterMs: backoff };
		return { retry: false, fail: maybeSent && !resendable ? 'mayHaveArrived' : 'exhausted' };
	}
	const status = outcome.answer;
	if (status === 429 && paced) {
		if (rateLimited >= policy.maxRateLimitedRetries) return { retry: false };
		return {
			retry: true,
			afterMs: outcome.retryAfterMs ?? backoffMs(rateLimited, policy),
			rateLimited: true,
		};
	}
	if (RETRY_STATUSES.has(status) && canRetry)
		return { retry: true, afterMs: outcome.retryAfterMs ?? backoff };
	if (RESEND_STATUSES.has(status) && canRetry && resendable)
		return { retry: true, afterMs: backoff };
	if (outcome.malformed)
		return canRetry && resendable
			? { retry: true, afterMs: backoff }
			: { retry: false, fail: 'malformed' };
	return { retry: false };
}

export function backoffMs(attempt: number, policy: RetryPolicy): number {
	return Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
}

/**
 * `Retry-After` as seconds or an HTTP date (against the answer's `Date` when it has one),
 * capped; undefined when absent or unreadable. Read by signals.ts with the rest.
 */
export function retryAfterMs(
	headers: IDataObject | undefined,
	policy: RetryPolicy,
	now = Date.now(),
): number | undefined {
	return cappedWait(rateSignals({ headers }, now), policy);
}

/** The wait an answer's signals ask for, at most the policy's longest. */
export function cappedWait({ waitMs }: RateSignals, policy: RetryPolicy): number | undefined {
	return waitMs === undefined ? undefined : Math.min(waitMs, policy.maxRetryAfterMs);
}
