import { ExecutionStopped } from '../../nodes/shared/run/cancel';
import { CredentialStates, newCredentialState } from '../../nodes/shared/pacing/credentialState';
import { FixedLimit } from '../../nodes/shared/pacing/concurrency';
import { AdaptiveLimit, LIMIT_POLICY } from '../../nodes/shared/pacing/limiter';
import { RateController } from '../../nodes/shared/pacing/rate';
import { RATE_POLICY, type Ticket } from '../../nodes/shared/pacing/ratePolicy';
import { RETRY_POLICY } from '../../nodes/shared/pacing/retry';
import { FakeClock, settle } from './fake-clock';

/** The order in which waiting acquires got their place. */
function served(
	acquire: (signal?: AbortSignal) => Promise<unknown>,
	names: string[],
	order: string[],
	signal?: AbortSignal,
) {
	return names.map((name) => acquire(signal).then(() => order.push(name)));
}

describe('the limit: waiters woken by answers, first come first served', () => {
	/** An adaptive limit out of slow start at 2 places, on a fake clock. */
	async function limitOfTwo() {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit({ ...LIMIT_POLICY, initial: 2 }, clock);
		limit.observe('rateLimited', clock.now()); // leaves slow start at 2
		for (let k = 0; k < 2; k++) {
			const place = limit.acquire();
			await clock.advance(0);
			await place;
		}
		return { clock, limit };
	}

	it('each release hands the place to the oldest waiter, across runs sharing the credential', async () => {
		const { clock, limit } = await limitOfTwo();
		const order: string[] = [];
		served((s) => limit.acquire(s), ['run A 1', 'run B 1', 'run A 2', 'run B 2'], order);
		await settle();
		expect(order).toEqual([]);
		limit.release();
		await settle();
		expect(order).toEqual(['run A 1']);
		limit.release();
		limit.release();
		await settle();
		expect(order).toEqual(['run A 1', 'run B 1', 'run A 2']);
		expect(limit.running).toBe(2);
		expect(limit.waiting).toBe(1);
		// no timer while waiting: only the lag watch of the requests in flight
		const before = clock.timersSet;
		await clock.advance(100);
		const lagWatch = clock.timersSet - before;
		expect(order).toHaveLength(3);
		served(
			(s) => limit.acquire(s),
			Array.from({ length: 100 }, (_, k) => `more ${k}`),
			order,
		);
		await clock.advance(100);
		// 100 more waiters: the same timers, and one turn given to the event loop (no answer yet)
		expect(clock.timersSet - before - lagWatch).toBeLessThanOrEqual(lagWatch + 1);
	});

	it('a fixed limit never moves, whatever the answers, and serves in order too', async () => {
		const limit = new FixedLimit(2);
		const order: string[] = [];
		await limit.acquire();
		await limit.acquire();
		served((s) => limit.acquire(s), ['a', 'b'], order);
		limit.observe();
		limit.release();
		await settle();
		expect(order).toEqual(['a']);
		expect(limit.limit).toBe(2);
		expect(limit.running).toBe(2);
	});

	it('Stop ends a wait for a place at once, without taking one', async () => {
		const { limit } = await limitOfTwo();
		const stop = new AbortController();
		const waiting = limit.acquire(stop.signal);
		const next = limit.acquire();
		stop.abort();
		await expect(waiting).rejects.toBeInstanceOf(ExecutionStopped);
		limit.release();
		await next; // the place went to the next waiter, not to the stopped one
		expect(limit.running).toBe(2);
		expect(limit.waiting).toBe(0);
	});

	it('before the first answer, the clock raises the limit for the waiters: 10, then 20 after one doubling', async () => {
		const clock = new FakeClock();
		const limit = new AdaptiveLimit(LIMIT_POLICY, clock);
		let started = 0;
		for (let k = 0; k < 40; k++) void limit.acquire().then(() => started++);
		await clock.advance(0);
		expect(started).toBe(10);
		await clock.advance(LIMIT_POLICY.doublingMs);
		expect(started).toBe(20);
		await clock.advance(LIMIT_POLICY.doublingMs);
		expect(started).toBe(40);
	});
});

describe('RateController on a fake clock', () => {
	/** These tests are of the spread and the learned window: starts before a count off the ramp (rampGapMs 0). */
	const controller = (
		settings = {},
		parallel?: number,
		ratePolicy = { ...RATE_POLICY, rampGapMs: 0 },
	) => {
		const clock = new FakeClock();
		const shared = newCredentialState(clock, {
			limit: LIMIT_POLICY,
			rate: ratePolicy,
			retry: RETRY_POLICY,
		});
		const rate = new RateController(
			settings,
			shared,
			parallel === undefined ? shared.limit : new FixedLimit(parallel),
		);
		/** Starts `n` requests one after another; returns when each started. */
		const starts = async (n: number) => {
			const at: number[] = [];
			const run = (async () => {
				for (let k = 0; k < n; k++) {
					await rate.acquire();
					at.push(clock.now());
				}
			})();
			while (at.length < n) await clock.advance(1);
			await run;
			return at;
		};
		return { clock, rate, shared, starts };
	};

	it('starts are spread over the round trip of the requests in flight, never more than spreadMaxMs apart', async () => {
		const { clock, rate, starts } = controller({}, 10);
		const first = await rate.acquire();
		await clock.advance(40);
		rate.succeeded(first); // a 40 ms round trip: starts 0.8 x 40 / 10 = 3.2 ms apart
		const at = await starts(21);
		expect(at[20] - at[0]).toBeCloseTo(20 * 3.2, 0);
		const slow = controller({}, 10);
		const long = await slow.rate.acquire();
		await slow.clock.advance(1000);
		slow.rate.succeeded(long);
		const spread = await slow.starts(3);
		expect(spread[2] - spread[0]).toBe(2 * RATE_POLICY.spreadMaxMs);
	});

	it('before any count is known, starts go on the ramp: rampGapMs apart at the first answer, the gap halved every rampHalvingMs', async () => {
		const { clock, rate, starts } = controller({}, 1, RATE_POLICY);
		const first = await rate.acquire();
		await clock.advance(25);
		rate.succeeded(first);
		const answeredAt = clock.now();
		const at = (await starts(60)).map((t) => t - answeredAt);
		const { rampGapMs: g, rampHalvingMs: h } = RATE_POLICY;
		// starts by time t: h / (g ln 2) x (2^(t / h) - 1), 10 in the first 35 ms, 30 by 70 ms
		const by = (t: number) => at.filter((x) => x < t).length;
		expect(at[1] - at[0]).toBeCloseTo(g, 0);
		expect(by(h)).toBeGreaterThanOrEqual(9);
		expect(by(h)).toBeLessThanOrEqual(11);
		expect(by(2 * h)).toBeGreaterThanOrEqual(28);
		expect(by(2 * h)).toBeLessThanOrEqual(32);
	});

	it('one request at a time is not spread', async () => {
		const { clock, rate, starts } = controller({}, 1);
		const first = await rate.acquire();
		await clock.advance(40);
		rate.succeeded(first);
		const at = await starts(20);
		expect(at[19]).toBe(at[0]);
	});

	it('never above Max Requests per Second: 6 starts at 5 per second take exactly one second', async () => {
		const { clock, rate } = controller({ maxPerSecond: 5 });
		rate.succeeded(await rate.acquire()); // the credential's first answer
		const at = [clock.now()];
		const run = (async () => {
			for (let k = 0; k < 5; k++) {
				rate.succeeded(await rate.acquire());
				at.push(clock.now());
			}
		})();
		while (at.length < 6) await clock.advance(1);
		await run;
		expect(at.map((t) => t - at[0])).toEqual([0, 200, 400, 600, 800, 1000]);
	});

	it("the credential's first request goes alone: the others wait for its answer, woken by it (no polling), at most a window", async () => {
		const { clock, rate } = controller();
		const first = await rate.acquire();
		let startedAt: number | undefined;
		void rate.acquire().then(() => (startedAt = clock.now()));
		const timers = clock.timersSet;
		await clock.advance(500);
		expect(startedAt).toBeUndefined();
		expect(clock.timersSet - timers).toBeLessThanOrEqual(1); // the one for a lost answer
		rate.succeeded(first);
		await clock.advance(0);
		expect(startedAt).toBe(first.at + 500);
		const lost = controller();
		const unanswered = await lost.rate.acquire();
		let next: number | undefined;
		void lost.rate.acquire().then(() => (next = lost.clock.now()));
		await lost.clock.advance(2000);
		expect(next).toBe(unanswered.at + RATE_POLICY.minWindowMs);
	});

	it('a 429 before any request was accepted pauses every request for exactly its Retry-After', async () => {
		const { clock, rate } = controller();
		const refusedAt = clock.now();
		rate.rateLimited(await rate.acquire(), 200);
		expect(rate.shared.window.count).toBeUndefined();
		let startedAt: number | undefined;
		void rate.acquire().then(() => (startedAt = clock.now()));
		await clock.advance(199);
		expect(startedAt).toBeUndefined();
		await clock.advance(1);
		expect(startedAt).toBe(refusedAt + 200);
		expect(rate.stats).toMatchObject({ rateLimited: 1, pauses: 1, pausedMs: 200 });
	});

	it("a 429 teaches the window its count: the next start waits for the clock's next second", async () => {
		const { clock, rate } = controller({}, 1); // one at a time: no spread of starts
		const tickets: Ticket[] = [await rate.acquire()];
		const firstAt = tickets[0].at;
		await clock.advance(20);
		rate.succeeded(tickets[0]);
		for (let i = 1; i < 30; i++) tickets.push(await rate.acquire());
		await clock.advance(20);
		for (const ticket of tickets.slice(1)) rate.succeeded(ticket);
		rate.rateLimited(await rate.acquire(), 1000);
		expect(rate.shared.window.count).toBe(30);
		let startedAt: number | undefined;
		void rate.acquire().then(() => (startedAt = clock.now()));
		await clock.advance(2000);
		expect(startedAt).toBe(firstAt + 1000 + RATE_POLICY.marginMs); // the fake clock starts on a second
	});

	it('a refused request waits its Retry-After, less the second a whole-seconds one is rounded up by; before a count, the pause covers it', async () => {
		const { clock, rate } = controller({}, 1);
		/** The next start, the clock moved until it comes. */
		const next = async () => {
			let ticket: Ticket | undefined;
			void rate.acquire().then((t) => (ticket = t));
			while (!ticket) await clock.advance(10);
			return ticket;
		};
		expect(rate.rateLimited(await next(), 2000)).toBe(0); // nothing accepted: every request pauses
		rate.succeeded(await next());
		expect(rate.rateLimited(await next(), 1000)).toBe(0); // a count is learned: the window paces
		expect(rate.rateLimited(await next(), 3000)).toBe(2000);
		expect(rate.rateLimited(await next(), 250)).toBe(250);
	});

	it("a run that starts after another run's Retry-After pause starts at once", async () => {
		const { clock, rate, shared } = controller();
		rate.rateLimited(await rate.acquire(), 300);
		await clock.advance(300);
		const next = new RateController({}, shared);
		const at = clock.now();
		await next.acquire();
		expect(clock.now()).toBe(at);
		expect(next.stats).toMatchObject({ rateLimited: 0, pauses: 0, pausedMs: 0 });
	});

	it("a run's requests plan their starts one at a time: a pause wakes the first in line, not every one", async () => {
		const { clock, rate } = controller();
		rate.rateLimited(await rate.acquire(), 1000);
		const order: number[] = [];
		const timers = clock.timersSet;
		for (let k = 0; k < 100; k++) void rate.acquire().then(() => order.push(k));
		await clock.advance(999);
		expect(order).toEqual([]);
		expect(clock.timersSet - timers).toBe(1); // the first in line sleeps; the rest wait their turn
		await clock.advance(1);
		expect(order).toEqual(Array.from({ length: 100 }, (_, k) => k));
	});

	it('Stop ends a Retry-After pause and a wait for the first answer at once', async () => {
		const { rate } = controller();
		rate.rateLimited(await rate.acquire(), 30_000);
		const stop = new AbortController();
		const paused = rate.acquire(stop.signal);
		stop.abort();
		await expect(paused).rejects.toBeInstanceOf(ExecutionStopped);
		const fresh = controller();
		await fresh.rate.acquire();
		const halt = new AbortController();
		const waiting = fresh.rate.acquire(halt.signal);
		halt.abort();
		await expect(waiting).rejects.toBeInstanceOf(ExecutionStopped);
	});
});

describe('credential states', () => {
	it('kept while a run holds them (one sleeping out a Retry-After), forgotten once idle for rememberMs', async () => {
		const clock = new FakeClock();
		const states = new CredentialStates(clock);
		const held = states.hold('key');
		await clock.advance(10 * RATE_POLICY.rememberMs);
		expect(states.get('other')).not.toBe(held.state);
		expect(states.get('key')).toBe(held.state);
		held.release();
		await clock.advance(RATE_POLICY.rememberMs - 1);
		expect(states.get('key')).toBe(held.state);
		await clock.advance(RATE_POLICY.rememberMs);
		expect(states.get('key')).not.toBe(held.state);
	});
});
