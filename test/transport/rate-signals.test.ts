/**
 * One reading of an answer's rate signals (nodes/shared/pacing/signals.ts): the wait of
 * Retry-After and the budget of RateLimit-* / X-RateLimit-*, as tables; then against the
 * sandbox's own reading of the same headers (test/sandbox/rateLimits.ts), and through the
 * transport: a service whose clock is an hour ahead of ours is waited out by its own clock.
 */
import type { IDataObject } from 'n8n-workflow';

import { RETRY_POLICY, retryAfterMs } from '../../nodes/shared/pacing/retry';
import { type RateSignals, rateSignals } from '../../nodes/shared/pacing/signals';
import { adminPost } from '../sandbox-admin';
import { useProbeHarness } from './setup';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const EPOCH = NOW / 1000;
const DATE_AHEAD = 'Thu, 01 Jan 2026 01:00:00 GMT'; // the service's clock, an hour ahead

describe('rate signals: Retry-After', () => {
	const cases: Array<[string, IDataObject, Partial<RateSignals>]> = [
		['seconds', { 'retry-after': '2' }, { waitMs: 2000, waitForm: 'seconds' }],
		['fractions of a second', { 'Retry-After': ['0.5'] }, { waitMs: 500, waitForm: 'seconds' }],
		['any case of the name', { 'RETRY-AFTER': ' 7 ' }, { waitMs: 7000, waitForm: 'seconds' }],
		['zero', { 'retry-after': '0' }, { waitMs: 0, waitForm: 'seconds' }],
		[
			'an HTTP date, without Date: against our clock',
			{ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' },
			{ waitMs: 3000, waitForm: 'date' },
		],
		[
			'an HTTP date against the answer Date (the service clock an hour ahead)',
			{ 'retry-after': 'Thu, 01 Jan 2026 01:00:03 GMT', date: DATE_AHEAD },
			{ waitMs: 3000, waitForm: 'date' },
		],
		[
			'an HTTP date in the past: no wait',
			{ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' },
			{ waitMs: 0, waitForm: 'date' },
		],
		[
			'an unreadable Date: against our clock',
			{ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT', date: 'yesterday-ish' },
			{ waitMs: 3000, waitForm: 'date' },
		],
		['unreadable', { 'retry-after': 'soon' }, {}],
		['empty', { 'retry-after': '' }, {}],
		['absent', {}, {}],
	];
	it.each(cases)('%s', (_name, headers, expected) => {
		const signals = rateSignals({ status: 429, headers }, NOW);
		expect({ waitMs: signals.waitMs, waitForm: signals.waitForm }).toEqual({
			waitMs: expected.waitMs,
			waitForm: expected.waitForm,
		});
	});

	it('a 429 is a refusal for the rate; other statuses and none are not', () => {
		expect(rateSignals({ status: 429, headers: {} }).refused).toBe(true);
		expect(rateSignals({ status: 503, headers: { 'retry-after': '1' } }).refused).toBe(false);
		expect(rateSignals({ status: 200 }).refused).toBe(false);
		expect(rateSignals({}).refused).toBe(false);
	});

	it('retryAfterMs consumes it: capped, the HTTP date against the answer Date', () => {
		const policy = RETRY_POLICY;
		expect(retryAfterMs({ 'retry-after': '2' }, policy, NOW)).toBe(2000);
		expect(retryAfterMs({ 'retry-after': '3600' }, policy, NOW)).toBe(policy.maxRetryAfterMs);
		expect(
			retryAfterMs(
				{ 'retry-after': 'Thu, 01 Jan 2026 01:00:03 GMT', date: DATE_AHEAD },
				policy,
				NOW,
			),
		).toBe(3000);
		expect(retryAfterMs({ 'retry-after': 'soon' }, policy, NOW)).toBeUndefined();
		expect(retryAfterMs(undefined, policy, NOW)).toBeUndefined();
	});
});

describe('rate signals: the announced budget', () => {
	const cases: Array<[string, IDataObject, RateSignals['budget']]> = [
		[
			'RateLimit-* (IETF draft), reset in seconds',
			{ 'ratelimit-limit': '100', 'ratelimit-remaining': '42', 'ratelimit-reset': '30' },
			{ headers: 'ietf', limit: 100, remaining: 42, resetMs: 30_000, resetForm: 'seconds' },
		],
		[
			'RateLimit-Limit with its policies, and RateLimit-Policy',
			{
				'RateLimit-Limit': '100, 100;w=60, 1000;w=3600',
				'RateLimit-Remaining': '0',
				'RateLimit-Reset': '5',
			},
			{
				headers: 'ietf',
				limit: 100,
				remaining: 0,
				resetMs: 5000,
				resetForm: 'seconds',
				windowMs: 60_000,
			},
		],
		[
			'RateLimit-Policy listing several: the window of the announced limit',
			{ 'ratelimit-limit': '100', 'ratelimit-policy': '1000;w=3600, 100;w=60' },
			{ headers: 'ietf', limit: 100, windowMs: 60_000 },
		],
		[
			'RateLimit-Policy of the older drafts',
			{ 'ratelimit-limit': '10', 'ratelimit-policy': '10;w=1' },
			{ headers: 'ietf', limit: 10, windowMs: 1000 },
		],
		[
			'RateLimit and RateLimit-Policy of the later drafts (structured fields)',
			{ ratelimit: '"default";r=50;t=30', 'ratelimit-policy': '"default";q=100;w=60' },
			{
				headers: 'ietf',
				limit: 100,
				remaining: 50,
				resetMs: 30_000,
				resetForm: 'seconds',
				windowMs: 60_000,
			},
		],
		[
			'X-RateLimit-*, reset as epoch seconds against the answer Date',
			{
				'x-ratelimit-limit': '5000',
				'x-ratelimit-remaining': '4999',
				'x-ratelimit-reset': String(EPOCH + 3600 + 30),
				date: DATE_AHEAD,
			},
			{ headers: 'x', limit: 5000, remaining: 4999, resetMs: 30_000, resetForm: 'epoch' },
		],
		[
			'X-RateLimit-Reset as epoch seconds with a fraction, without Date',
			{ 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': `${EPOCH}.5` },
			{ headers: 'x', remaining: 3, resetMs: 500, resetForm: 'epoch' },
		],
		[
			'X-RateLimit-Reset as epoch milliseconds',
			{ 'x-ratelimit-reset': String(NOW + 1500) },
			{ headers: 'x', resetMs: 1500, resetForm: 'epoch' },
		],
		[
			'X-RateLimit-Reset as seconds from now',
			{ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '12' },
			{ headers: 'x', limit: 60, resetMs: 12_000, resetForm: 'seconds' },
		],
		[
			'an epoch reset already past: no wait',
			{ 'x-ratelimit-reset': String(EPOCH - 10) },
			{ headers: 'x', resetMs: 0, resetForm: 'epoch' },
		],
		[
			'both families: the IETF draft is read',
			{ 'ratelimit-remaining': '1', 'x-ratelimit-remaining': '9' },
			{ headers: 'ietf', remaining: 1 },
		],
		['none', { 'content-type': 'application/json' }, undefined],
		['unreadable values', { 'x-ratelimit-limit': 'lots', 'ratelimit-remaining': '-1' }, undefined],
	];
	it.each(cases)('%s', (_name, headers, budget) => {
		expect(rateSignals({ status: 200, headers }, NOW).budget).toEqual(budget);
	});
});

describe('rate signals of real answers', () => {
	const { h, probe } = useProbeHarness();

	const get = async () => {
		const sandbox = h().sandbox;
		const answer = await fetch(`${sandbox.baseUrl}/envelopes`, {
			headers: { authorization: `Bearer ${sandbox.apiKey}` },
		});
		return { status: answer.status, headers: Object.fromEntries(answer.headers.entries()) };
	};

	it('read as the sandbox meant them: IETF budget, X budget with an epoch reset, a Retry-After date', async () => {
		// the sandbox clock an hour ahead of ours: only its Date makes its times readable
		await adminPost(h().sandbox, 'clock', { advanceSeconds: 3600 });
		const minute = { limit: 2, per: 'minute', window: 'first-request' };
		await h().fault({ rateLimits: [minute], rateLimitHeaders: 'ietf' });
		const ietf = rateSignals(await get());
		expect(ietf.budget).toEqual({
			headers: 'ietf',
			limit: 2,
			remaining: 1,
			resetMs: 60_000,
			resetForm: 'seconds',
			windowMs: 60_000,
		});

		await h().fault({ rateLimits: [minute], rateLimitHeaders: 'x', retryAfterAs: 'date' });
		const x = rateSignals(await get());
		expect(x.budget).toMatchObject({ headers: 'x', limit: 2, remaining: 1, resetForm: 'epoch' });
		// epoch seconds rounded up, against a Date rounded down: up to 2 s over, never under
		expect(x.budget?.resetMs).toBeGreaterThanOrEqual(60_000);
		expect(x.budget?.resetMs).toBeLessThanOrEqual(62_000);
		await get();
		const refused = rateSignals(await get());
		expect(refused).toMatchObject({ refused: true, waitForm: 'date', budget: { remaining: 0 } });
		expect(refused.waitMs).toBeGreaterThanOrEqual(59_000);
		expect(refused.waitMs).toBeLessThanOrEqual(61_000);
	});

	it('the transport waits a Retry-After date by the service clock, not ours', async () => {
		await adminPost(h().sandbox, 'clock', { advanceSeconds: 3600 });
		await h().fault({
			rateLimits: [{ limit: 1, per: 2, window: 'first-request' }],
			retryAfterAs: 'date',
		});
		await h().api('GET', '/envelopes'); // the window's one request
		const started = Date.now();
		const result = await probe('request', { method: 'GET', endpoint: '/envelopes' });
		const elapsed = Date.now() - started;

		expect(result.error).toBeUndefined();
		const log = (await h().requests()).map((entry) => entry.status);
		expect(log).toEqual([200, 429, 200]);
		// read against our clock the date is an hour away (capped at 30 s); the service means ~2 s
		expect(elapsed).toBeGreaterThanOrEqual(1000);
		expect(elapsed).toBeLessThan(10_000);
	});
});
