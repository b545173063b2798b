/**
 * The rate-limit kinds of the faults route (test/sandbox/rateLimits.ts): per second, minute
 * and hour; windows on the clock, from the first request, and sliding; the budget announced
 * in headers; Retry-After as seconds or as an HTTP date. Windows are moved with the sandbox
 * clock (POST /__sandbox/clock), so an hour's window takes no hour; real time still runs, a
 * few milliseconds per request, which the bounds below allow for.
 */
import type { AxiosResponse } from 'axios';
import { admin, client } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

const setFaults = async (body: Record<string, unknown>) => {
	const res = await admin(sandbox).post('/faults', body);
	expect(res.status).toBe(200);
	return res.data;
};

const sandboxNow = async (): Promise<number> =>
	Date.parse((await admin(sandbox).get('/clock')).data.now);

const advance = async (seconds: number) => {
	expect((await admin(sandbox).post('/clock', { advanceSeconds: seconds })).status).toBe(200);
};

/** Moves the sandbox clock to `intoMs` past the start of the next window of `windowMs`. */
const alignClock = async (windowMs: number, intoMs: number) => {
	const now = await sandboxNow();
	await advance((Math.ceil(now / windowMs) * windowMs + intoMs - now) / 1000);
};

const get = () => client(sandbox).get('/envelopes');
const statuses = async (n: number) => {
	const out: number[] = [];
	for (let i = 0; i < n; i++) out.push((await get()).status);
	return out;
};
const retryAfter = (res: AxiosResponse) => Number(res.headers['retry-after']);

describe('rate limits of every kind', () => {
	test('per minute on the clock: the count starts again at the minute', async () => {
		await setFaults({
			rateLimits: [{ limit: 3, per: 'minute', window: 'clock' }],
			retryAfterAs: 'whole-seconds',
		});
		await alignClock(60_000, 50_000);
		expect(await statuses(3)).toEqual([200, 200, 200]);
		const refused = await get();
		expect(refused.status).toBe(429);
		expect(refused.data).toMatchObject({ code: 'RATE_LIMITED' });
		expect(refused.data.message).toMatch(/3 requests per minute/);
		expect(refused.headers['retry-after']).toMatch(/^\d+$/);
		expect(retryAfter(refused)).toBe(10); // to the minute's end, rounded up
		await advance(10.5);
		expect(await statuses(4)).toEqual([200, 200, 200, 429]);
	});

	test('per minute from the first request: crossing the clock minute does not start it again', async () => {
		await setFaults({
			rateLimits: [{ limit: 3, per: 'minute', window: 'first-request' }],
			retryAfterAs: 'whole-seconds',
		});
		await alignClock(60_000, 50_000);
		expect(await statuses(3)).toEqual([200, 200, 200]);
		await advance(11); // past the clock's minute, 11 s into this window
		const refused = await get();
		expect(refused.status).toBe(429);
		expect(retryAfter(refused)).toBeGreaterThanOrEqual(48);
		expect(retryAfter(refused)).toBeLessThanOrEqual(49);
		await advance(retryAfter(refused));
		expect(await statuses(4)).toEqual([200, 200, 200, 429]);
	});

	test('per minute sliding: a request counts for a minute from when it came', async () => {
		await setFaults({
			rateLimits: [{ limit: 3, per: 'minute', window: 'sliding' }],
			retryAfterAs: 'whole-seconds',
		});
		expect(await statuses(2)).toEqual([200, 200]);
		await advance(30);
		expect(await statuses(1)).toEqual([200]);
		const refused = await get();
		expect(refused.status).toBe(429);
		expect(retryAfter(refused)).toBe(30); // until the first request leaves the window
		await advance(30);
		// the first two have left; the one of 30 s ago still counts
		const [a, b, c] = [await get(), await get(), await get()];
		expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
		expect(retryAfter(c)).toBe(30);
	});

	test('per hour, Retry-After as an HTTP date against the answer Date in the sandbox time', async () => {
		await setFaults({
			rateLimits: [{ limit: 2, per: 'hour', window: 'clock' }],
			retryAfterAs: 'date',
		});
		await alignClock(3_600_000, 1_800_000);
		expect(await statuses(2)).toEqual([200, 200]);
		const refused = await get();
		expect(refused.status).toBe(429);
		const date = Date.parse(refused.headers['date']);
		const until = Date.parse(refused.headers['retry-after']);
		expect(refused.headers['retry-after']).toMatch(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
		expect(Math.abs(date - (await sandboxNow()))).toBeLessThan(2000);
		expect(until - date).toBe(1_800_000);
		await advance(1800);
		expect(await statuses(3)).toEqual([200, 200, 429]);
	});

	test('several limits at once: each counts, the tightest refuses, a window of N seconds too', async () => {
		await setFaults({
			rateLimits: [
				{ limit: 2, per: 'second' },
				{ limit: 3, per: 'hour' },
				{ limit: 100, per: 30, window: 'sliding' },
			],
		});
		await alignClock(3_600_000, 10_005);
		const [a, b, c] = [await get(), await get(), await get()];
		expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
		expect(c.data.message).toMatch(/2 requests per second/);
		// seconds to the millisecond (the default form): the rest of this second
		expect(retryAfter(c)).toBeGreaterThan(0.5);
		expect(retryAfter(c)).toBeLessThanOrEqual(1);
		await advance(1);
		const [d, e] = [await get(), await get()];
		expect([d.status, e.status]).toEqual([200, 429]);
		expect(e.data.message).toMatch(/3 requests per hour/);
		expect(retryAfter(e)).toBeGreaterThan(3588);
		expect(retryAfter(e)).toBeLessThanOrEqual(3589);
	});

	test('budget in RateLimit-* headers (IETF draft): limit, remaining, reset in seconds, policy', async () => {
		await setFaults({
			rateLimits: [{ limit: 3, per: 'minute' }],
			rateLimitHeaders: 'ietf',
		});
		await alignClock(60_000, 30_000);
		const answers = [await get(), await get(), await get(), await get()];
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
		expect(answers.map((a) => a.headers['ratelimit-limit'])).toEqual(['3', '3', '3', '3']);
		expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
		expect(answers.map((a) => a.headers['ratelimit-reset'])).toEqual(['30', '30', '30', '30']);
		expect(answers[0].headers['ratelimit-policy']).toBe('3;w=60');
		expect(answers[0].headers['x-ratelimit-limit']).toBeUndefined();
	});

	test('budget in X-RateLimit-* headers: reset as epoch seconds by default, or as seconds', async () => {
		await setFaults({ rateLimits: [{ limit: 2, per: 'minute' }], rateLimitHeaders: 'x' });
		await alignClock(60_000, 30_000);
		const first = await get();
		expect(first.headers['x-ratelimit-limit']).toBe('2');
		expect(first.headers['x-ratelimit-remaining']).toBe('1');
		const epoch = Number(first.headers['x-ratelimit-reset']);
		expect(epoch * 1000 - Date.parse(first.headers['date'])).toBe(30_000);
		expect(first.headers['ratelimit-limit']).toBeUndefined();

		await setFaults({
			rateLimits: [{ limit: 2, per: 'minute' }],
			rateLimitHeaders: 'x',
			rateLimitReset: 'seconds',
		});
		const again = await get();
		expect(again.headers['x-ratelimit-remaining']).toBe('1'); // new settings count afresh
		expect(Number(again.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(29);
		expect(Number(again.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(30);
	});

	test('no budget headers unless asked; the settings read back with their defaults', async () => {
		const set = await setFaults({ rateLimits: [{ limit: 5, per: 'minute' }] });
		expect(set).toMatchObject({
			rateLimitPerSecond: null,
			rateLimits: [{ limit: 5, per: 'minute', window: 'clock' }],
			rateLimitHeaders: null,
			rateLimitReset: null,
			retryAfterAs: 'seconds',
		});
		const answer = await get();
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.headers).filter((name) => name.includes('ratelimit'))).toEqual([]);
	});

	test('invalid limits -> VALIDATION_ERROR naming the field', async () => {
		const bad = async (body: Record<string, unknown>) => {
			const res = await admin(sandbox).post('/faults', body);
			expect(res.status).toBe(400);
			expect(res.data.code).toBe('VALIDATION_ERROR');
			return res.data.message as string;
		};
		expect(await bad({ rateLimits: [{ limit: 3, per: 'day' }] })).toMatch(/^rateLimits\.0\.per/);
		expect(await bad({ rateLimits: [{ limit: 0, per: 'second' }] })).toMatch(
			/^rateLimits\.0\.limit/,
		);
		expect(await bad({ rateLimits: [{ limit: 1, per: 'second', window: 'leaky' }] })).toMatch(
			/^rateLimits\.0\.window/,
		);
		expect(await bad({ rateLimitHeaders: 'draft' })).toMatch(/^rateLimitHeaders/);
		expect(await bad({ retryAfterAs: 'minutes' })).toMatch(/^retryAfterAs/);
	});
});
