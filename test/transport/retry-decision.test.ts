import { MAYBE_SENT_CODES, NOT_SENT_CODES } from '../../nodes/shared/pacing/failures';
import {
	type AttemptOutcome,
	decideRetry,
	RETRY_POLICY,
	type RetryDecision,
	retryAfterMs,
} from '../../nodes/shared/pacing/retry';

const policy = {
	...RETRY_POLICY,
	baseDelayMs: 100,
	maxDelayMs: 1000,
	maxRetries: 3,
	maxRateLimitedRetries: 10,
};
const first = { attempt: 0, rateLimited: 0 };
const last = { attempt: 3, rateLimited: 0 }; // three retries spent
const retry = (afterMs: number, rateLimited?: true): RetryDecision =>
	rateLimited ? { retry: true, afterMs, rateLimited } : { retry: true, afterMs };
const stop: RetryDecision = { retry: false };

describe('the retry decision (outcome, attempts, resendable, paced -> retry after N ms / return / fail)', () => {
	const table: Array<[string, AttemptOutcome, typeof first, boolean, boolean, RetryDecision]> = [
		// what the attempt got,             outcome,                                   attempts,                         resendable, paced, decision
		['200', { answer: 200 }, first, false, true, stop],
		['404 is the answer', { answer: 404 }, first, true, true, stop],
		[
			'429 paced: Retry-After to the window',
			{ answer: 429, retryAfterMs: 1000 },
			first,
			false,
			true,
			retry(1000, true),
		],
		[
			'429 paced without Retry-After: backoff by 429s',
			{ answer: 429 },
			{ attempt: 2, rateLimited: 2 },
			false,
			true,
			retry(400, true),
		],
		[
			'429 paced: own budget beyond maxRetries, backoff capped',
			{ answer: 429 },
			{ attempt: 9, rateLimited: 9 },
			false,
			true,
			retry(1000, true),
		],
		[
			'429 paced, budget spent: returned',
			{ answer: 429 },
			{ attempt: 10, rateLimited: 10 },
			true,
			true,
			stop,
		],
		[
			'429 unpaced (storage): Retry-After',
			{ answer: 429, retryAfterMs: 300 },
			first,
			true,
			false,
			retry(300),
		],
		['503 for a create: not processed', { answer: 503 }, first, false, true, retry(100)],
		[
			'503 Retry-After wins over backoff',
			{ answer: 503, retryAfterMs: 50 },
			{ attempt: 1, rateLimited: 0 },
			false,
			true,
			retry(50),
		],
		['503 after the budget: returned', { answer: 503 }, last, true, true, stop],
		['500 read: resent', { answer: 500 }, { attempt: 1, rateLimited: 0 }, true, true, retry(200)],
		['500 create: returned, never resent', { answer: 500 }, first, false, true, stop],
		['502 / 504 create: returned', { answer: 504 }, first, false, true, stop],
		[
			'after 429s, other retries keep their own count',
			{ answer: 502 },
			{ attempt: 20, rateLimited: 18 },
			true,
			true,
			retry(400),
		],
		['malformed read: resent', { answer: 200, malformed: true }, first, true, true, retry(100)],
		[
			'malformed create: fails',
			{ answer: 201, malformed: true },
			first,
			false,
			true,
			{ retry: false, fail: 'malformed' },
		],
		[
			'malformed read after the budget: fails',
			{ answer: 200, malformed: true },
			last,
			true,
			true,
			{ retry: false, fail: 'malformed' },
		],
		[
			'refused connection, create: nothing sent',
			{ failure: 'ECONNREFUSED' },
			first,
			false,
			true,
			retry(100),
		],
		[
			'refused connection after the budget',
			{ failure: 'ECONNREFUSED' },
			last,
			false,
			true,
			{ retry: false, fail: 'exhausted' },
		],
		[
			'reset, create: may have arrived',
			{ failure: 'ECONNRESET' },
			first,
			false,
			true,
			{ retry: false, fail: 'mayHaveArrived' },
		],
		['timeout, read: resent', { failure: 'ETIMEDOUT' }, first, true, true, retry(100)],
		[
			'unknown failure: not retried',
			{ failure: undefined },
			first,
			true,
			true,
			{ retry: false, fail: 'exhausted' },
		],
	];
	it.each(table)('%s', (_, outcome, attempts, resendable, paced, expected) => {
		expect(decideRetry(outcome, attempts, resendable, paced, policy)).toEqual(expected);
	});

	it('a create is never sent again after it may have arrived: any maybe-sent failure, 500/502/504, malformed answer', () => {
		const outcomes: AttemptOutcome[] = [
			...[...MAYBE_SENT_CODES].map((failure) => ({ failure })),
			{ failure: undefined },
			...[500, 501, 502, 504, 520].map((answer) => ({ answer })),
			{ answer: 200, malformed: true },
			{ answer: 201, malformed: true },
		];
		for (const outcome of outcomes) {
			for (let attempt = 0; attempt < 5; attempt++) {
				expect(decideRetry(outcome, { attempt, rateLimited: 0 }, false, true, policy).retry).toBe(
					false,
				);
			}
		}
		// what never reached the service or was not processed is sent again, create or not
		for (const failure of NOT_SENT_CODES)
			expect(decideRetry({ failure }, first, false, true, policy).retry).toBe(true);
	});

	it('the default policy is frozen: a run takes its policy from credentialState.ts, nothing changes it', () => {
		expect(Object.isFrozen(RETRY_POLICY)).toBe(true);
		expect(() => Object.assign(RETRY_POLICY, { baseDelayMs: 1 })).toThrow(TypeError);
	});

	it('Retry-After: seconds, an HTTP date against the given now, capped; unreadable is undefined', () => {
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(retryAfterMs({ 'retry-after': '2' }, policy, now)).toBe(2000);
		expect(retryAfterMs({ 'Retry-After': ['0.5'] }, policy, now)).toBe(500);
		expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, policy, now)).toBe(
			3000,
		);
		expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, policy, now)).toBe(0);
		expect(retryAfterMs({ 'retry-after': '3600' }, policy, now)).toBe(policy.maxRetryAfterMs);
		expect(retryAfterMs({ 'retry-after': 'soon' }, policy, now)).toBeUndefined();
		expect(retryAfterMs({}, policy, now)).toBeUndefined();
	});
});
