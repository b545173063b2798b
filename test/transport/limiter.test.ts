import { sleep } from 'n8n-workflow';

import { AdaptiveLimit, LIMIT_POLICY } from '../../nodes/shared/pacing/limiter';
import { RATE_POLICY, type Ticket } from '../../nodes/shared/pacing/ratePolicy';
import { RateWindow } from '../../nodes/shared/pacing/rateWindow';
import { FakeClock } from './fake-clock';

/** The sliding window alone (the guess of fixed windows off): what these tests are about. */
const SLIDING = { ...RATE_POLICY, fixedWindows: false };
/** A RateWindow on the sliding window alone; its clock stays at 0 (the tests pass their own times, and keep every start). */
const slidingWindow = () => new RateWindow(SLIDING, new FakeClock(0));

/** The limiter's own decisions, on a clock the test moves. */
function limiterAt(start = 1_000_000) {
	const clock = new FakeClock(start);
	const limit = new AdaptiveLimit(LIMIT_POLICY, clock);
	return {
		limit,
		clock,
		tick: async (ms: number) => await clock.advance(ms),
		/** Takes `n` places (each must be free now). */
		fill: async (n: number) => {
			for (let k = 0; k < n; k++) {
				const place = limit.acquire();
				await clock.advance(0); // before the first answer it gives way to the event loop
				await place;
			}
		},
		/** One answer to a request sent `rtt` ms ago; its place is given back. */
		answer: (rtt: number, outcome: 'ok' | 'overload' | 'rateLimited' = 'ok') => {
			limit.observe(outcome, clock.now() - rtt);
			limit.release();
		},
	};
}

describe('AdaptiveLimit: slow start', () => {
	it('starts at 10, by the clock until the first answer, then by half a place per answer as fast as the fastest', async () => {
		const l = limiterAt();
		expect(l.limit.limit).toBe(LIMIT_POLICY.initial);
		await l.fill(10);
		await l.tick(25);
		// as the router does: every answer frees a place and the next item takes it
		for (let k = 0; k < 10; k++) {
			l.answer(25);
			await l.fill(Math.max(0, l.limit.limit - l.limit.running));
		}
		expect(l.limit.inSlowStart).toBe(true);
		expect(l.limit.limit).toBeGreaterThanOrEqual(20);
	});

	it('rises with the clock while no answer has come: a slow service is ramped as fast as a quick one', async () => {
		const l = limiterAt();
		await l.fill(10);
		await l.tick(3 * LIMIT_POLICY.doublingMs);
		expect(l.limit.limit).toBe(80);
		await l.tick(20 * LIMIT_POLICY.doublingMs);
		expect(l.limit.limit).toBe(LIMIT_POLICY.blindMax); // the clock stops at blindMax before an answer
	});

	it('a busy spell of n8n before the first answer does not count as ramp time: the limit stays where it was, not blindMax', async () => {
		const l = limiterAt();
		await l.fill(10);
		// the next item waits for the place the clock adds next (a timer) ...
		const waiting = l.limit.acquire();
		// ... and n8n is busy for 300 ms (saving the execution before): 10 doublings by the clock
		await l.clock.stall(300);
		await waiting;
		expect(l.limit.limit).toBeLessThanOrEqual(2 * LIMIT_POLICY.initial);
		// a yield that comes back late is left out too
		const l2 = limiterAt();
		const first = l2.limit.acquire(); // gives way to the event loop first
		await l2.clock.stall(300);
		await first;
		expect(l2.limit.limit).toBe(LIMIT_POLICY.initial);
		// time that passes with timers firing on time still ramps
		await l2.tick(3 * LIMIT_POLICY.doublingMs);
		expect(l2.limit.limit).toBe(8 * LIMIT_POLICY.initial);
	});

	it('clearly slower answers end slow start at what was handled without a queue (Vegas); one late answer among fast ones does not', async () => {
		const l = limiterAt();
		await l.fill(10);
		await l.tick(25);
		for (let k = 0; k < 10; k++) l.answer(25);
		const before = l.limit.limit;
		const slow = 2 * 27 + 10; // more than 1.5 x (fastest + slack)
		l.answer(slow); // jitter of n8n's own
		expect(l.limit.inSlowStart).toBe(true);
		for (let k = 1; k < LIMIT_POLICY.samples; k++) l.answer(slow); // all late: a queue
		expect(l.limit.inSlowStart).toBe(false);
		expect(l.limit.limit).toBeLessThan(before);
		expect(l.limit.limit).toBeGreaterThanOrEqual(LIMIT_POLICY.initial);
	});

	it('a 429 ends slow start and keeps the limit (the rate window handles rate)', async () => {
		const l = limiterAt();
		await l.fill(10);
		await l.tick(25);
		for (let k = 0; k < 5; k++) l.answer(25);
		const before = l.limit.limit;
		l.answer(25, 'rateLimited');
		expect(l.limit.inSlowStart).toBe(false);
		expect(l.limit.limit).toBe(before);
	});

	it('before the first answer, a loop that starts items faster than the clock raises the limit still lets answers in', async () => {
		const limit = new AdaptiveLimit();
		let answerSeenAt: number | undefined;
		let started = 0;
		// real time: the limiter's own clock and event loop are what this test is about
		const busy = (ms: number) => {
			for (const until = Date.now() + ms; Date.now() < until; );
		};
		for (; started < 100; started++) {
			await limit.acquire();
			if (started === 0) {
				void sleep(0).then(() => (answerSeenAt = started)); // the first answer, waiting in the event loop
				busy(100); // a slow first item (n8n compiling, decrypting the credential): the clock says 100 by now
			} else busy(0.1);
		}
		// without giving way the loop would start the ~100 the clock allows before it reads the answer
		expect(answerSeenAt).toBeDefined();
		expect(answerSeenAt!).toBeLessThan(5);
	});

	it('an idle limiter does not grow by the clock', async () => {
		const l = limiterAt();
		await l.fill(2);
		l.answer(5);
		l.answer(5);
		await l.tick(1000);
		expect(l.limit.limit).toBeLessThanOrEqual(LIMIT_POLICY.initial + 2);
	});
});

describe('AdaptiveLimit: after slow start (Vegas)', () => {
	/** A limiter out of slow start at about `at`, its fastest round trip 20 ms. */
	async function steady(at: number) {
		const l = limiterAt();
		await l.fill(10);
		await l.tick(20);
		for (let k = 0; k < 10; k++) l.answer(20);
		l.answer(20, 'rateLimited'); // leaves slow start, keeps the limit
		// bring it to `at`: fill and answer at the fastest round trip until it gets there
		while (l.limit.limit < at) {
			await l.fill(l.limit.limit - l.limit.running);
			l.answer(20);
		}
		return l;
	}

	it('rises while answers come back as fast as the fastest and the limit is in use', async () => {
		const l = await steady(20);
		const before = l.limit.limit;
		for (let round = 0; round < 5; round++) {
			await l.fill(l.limit.limit - l.limit.running);
			for (let k = 0; k < before; k++) {
				l.answer(22);
				await l.fill(Math.max(0, l.limit.limit - l.limit.running));
			}
		}
		expect(l.limit.limit).toBeGreaterThan(before);
	});

	it('holds when the queue it builds is between alpha and beta', async () => {
		const l = await steady(40);
		const limit = l.limit.limit;
		// queue = limit x (1 - base / rtt) = 4.5 x log10(40): between 3 and 6 x log10(40)
		const base = 20 + LIMIT_POLICY.rttSlackMs;
		const queue = 4.5 * Math.log10(limit);
		const rtt = base / (1 - queue / limit);
		for (let k = 0; k < 200; k++) {
			await l.fill(Math.max(0, l.limit.limit - l.limit.running));
			l.answer(rtt);
		}
		expect(l.limit.limit).toBe(limit);
	});

	it('falls when the round trip grows with the queue', async () => {
		const l = await steady(40);
		for (let k = 0; k < 200; k++) {
			await l.fill(Math.max(0, l.limit.limit - l.limit.running));
			l.answer(60); // three times the fastest: a queue of two thirds of the limit
		}
		expect(l.limit.limit).toBeLessThan(30);
	});

	it('a round trip of late answers (a pause of n8n itself) gives back at most a quarter of the limit', async () => {
		const l = await steady(80);
		const before = l.limit.limit;
		await l.fill(before - l.limit.running);
		for (let k = 0; k < before; k++) l.answer(200); // every answer of the round trip 10 x the fastest
		expect(l.limit.limit).toBeGreaterThanOrEqual(Math.floor(before * 0.75) - 1);
		expect(l.limit.limit).toBeLessThan(before);
	});

	it('halves on 503 or a failed connection, once per round trip', async () => {
		const l = await steady(40);
		const before = l.limit.limit;
		await l.tick(5);
		l.answer(20, 'overload');
		expect(l.limit.limit).toBe(Math.floor(before * LIMIT_POLICY.decrease));
		// an answer to a request sent before that cut does not cut again
		l.answer(20, 'overload');
		expect(l.limit.limit).toBe(Math.floor(before * LIMIT_POLICY.decrease));
		await l.tick(30);
		l.answer(10, 'overload');
		expect(l.limit.limit).toBe(
			Math.floor(Math.floor(before * LIMIT_POLICY.decrease) * LIMIT_POLICY.decrease),
		);
	});
});

describe('RateWindow: the service window learned from 429s', () => {
	/** One start at `at` or the window's next slot, answered `rtt` ms later (every answer is in before the next start). */
	const RTT = 20;
	const send = (window: RateWindow, at: number, rtt = RTT): Ticket => {
		const slot = window.nextSlot(at);
		if (slot === undefined) throw new Error('waiting for an answer');
		const ticket: Ticket = { epoch: window.epoch, at: Math.max(at, slot) };
		window.record(ticket);
		ticket.answeredAt = ticket.at + rtt;
		return ticket;
	};
	/** The same, accepted by the service (a raise holds only once a request a window after it is accepted). */
	const sendAccepted = (window: RateWindow, at: number): Ticket => {
		const ticket = send(window, at);
		window.accepted(ticket);
		return ticket;
	};
	/** A window that learned `count` from a 429 to the request after `count` accepted ones (sent 1 ms apart); returns when. */
	const learned = (window: RateWindow, count: number): number => {
		for (let k = 0; k < count; k++) send(window, k);
		window.refused(send(window, count), 1000, count + 5);
		expect(window.count).toBe(count);
		return count + 5;
	};

	it('free before the first 429; any accepted request teaches a count, none pauses every request for the Retry-After', () => {
		const window = slidingWindow();
		expect(window.nextSlot(5)).toBe(5);
		const tickets = [send(window, 0), send(window, 1)];
		window.refused(tickets[1], 1000, 2);
		expect(window.count).toBe(1); // a limit of one a second is a limit too
		expect(window.pausedUntil).toBe(2); // whole seconds: the window paces the next start
		expect(window.nextSlot(3)).toBe(1000 + RATE_POLICY.marginMs);
		const refusedFirst = slidingWindow();
		refusedFirst.refused(send(refusedFirst, 0), 1000, 2);
		expect(refusedFirst.count).toBeUndefined();
		expect(refusedFirst.pausedUntil).toBe(1002);
	});

	it('after a 429: the count accepted in the window before it, sent at the start of each window', () => {
		const window = slidingWindow();
		for (let k = 0; k < 100; k++) send(window, 100 + k); // accepted
		const refused = send(window, 200);
		expect(window.refused(refused, 1000, 210)).toBe(true);
		expect(window.count).toBe(100);
		// Retry-After: 1 is whole seconds, rounded up: the learned window paces the restart, not 210 + 1000
		expect(window.pausedUntil).toBe(210);
		// the next window's worth goes at once: a window after the first accepted one started
		// (the service counts a request on arrival, a like time after each start)
		const next = Array.from({ length: 100 }, () => send(window, 210).at);
		expect(next[0]).toBe(100 + 1000 + RATE_POLICY.marginMs);
		expect(next[99]).toBe(199 + 1000 + RATE_POLICY.marginMs);
		// and no more than the count in any window's length
		const after = send(window, 1300).at;
		expect(after).toBe(next[0] + 1000 + RATE_POLICY.marginMs);
	});

	it('a Retry-After of more than a second: the window reopens that long after the first accepted start, to the second; a later one that says it is longer lengthens it', () => {
		const window = slidingWindow();
		for (let k = 0; k < 60; k++) send(window, 22_370 + k); // 60 a minute, 22.37 s into the clock's minute
		const refused = send(window, 22_430);
		window.refused(refused, 38_000, 22_432); // the minute ends in 37.6 s: rounded up
		expect(window.count).toBe(60);
		expect(window.windowMs).toBe(39_000); // 22.43 + 38 - 22.37 s, rounded up to the second
		const next = send(window, 22_433).at;
		// the margin past a window that long is its share of it (39 ms), not the 5 ms of a second's
		expect(next).toBe(22_370 + 39_000 + 39_000 * RATE_POLICY.marginShare);
		for (let k = 1; k < 60; k++) send(window, next);
		// 39 s on, the service's minute is still full until 120 s: it is a minute long
		const early = send(window, next + 39_000);
		window.refused(early, 22_000, early.at + 2);
		expect(window.windowMs).toBe(Math.ceil((early.at + 22_000 - next) / 1000) * 1000);
		expect(window.windowMs).toBeGreaterThanOrEqual(60_000);
	});

	it('a 429 at the learned count lowers it to what the service accepted in the window before, at most halved, once per window, without pausing the other requests', () => {
		const window = slidingWindow();
		for (let k = 0; k < 50; k++) send(window, k);
		const first = send(window, 60);
		window.refused(first, 950, 70);
		expect(window.count).toBe(50);
		expect(window.pausedUntil).toBe(1020); // a Retry-After in ms is precise: kept whole
		// sent after the refused one, in the same epoch: nothing more (the count is known: no new pause)
		const late: Ticket = { epoch: first.epoch, at: first.at + 1 };
		window.refused(late, 1000, 80);
		expect(window.count).toBe(50);
		expect(window.pausedUntil).toBe(1020);
		// sent before it and counted as accepted, but refused after all (it overtook): one less
		const overtaken: Ticket = { epoch: first.epoch, at: first.at - 1 };
		window.refused(overtaken, 1000, 81);
		expect(window.count).toBe(49);
		window.refused({ epoch: first.epoch, at: first.at - 2 }, 1000, 82);
		expect(window.count).toBe(48);
		// sent just after it and accepted (it overtook the other way): counted; much later: not
		window.accepted({ epoch: first.epoch, at: first.at + 2 });
		window.accepted({ epoch: first.epoch, at: first.at + 500 });
		expect(window.count).toBe(49);
		window.refused({ epoch: first.epoch, at: first.at - 3 }, 1000, 83);
		expect(window.count).toBe(48);
		// next window: 48 go, the service refuses the 48th (it allows 47 now)
		const sent = Array.from({ length: 48 }, () => send(window, 1081));
		const generation = window.generation;
		window.refused(sent[47], 1000, sent[47].at + 5);
		expect(window.count).toBe(47);
		window.refused(sent[46], 1000, sent[47].at + 6); // the same window: one event
		expect(window.count).toBe(47);
		expect(window.generation).toBe(generation + 1); // a start planned at the old count plans again
		// a window on, it allows 30 (another worker with the key): the 31st is refused, and the
		// count is what the service took in the window before it, not 10 % or one less
		const next = Array.from({ length: 31 }, () => send(window, 2200));
		window.refused(next[30], 1000, next[30].at + 5);
		expect(window.count).toBe(30);
		// a window on, this process sent 10 when the service refused (another worker sent the
		// rest): halved, not cut to 10, so that it is not left far below its share
		const few = Array.from({ length: 11 }, () => send(window, 3400));
		window.refused(few[10], 1000, few[10].at + 5);
		expect(window.count).toBe(15);
	});

	it('the credential’s first request goes alone until its answer (or a window), and an announced budget paces from there: never more than is left before its reset', () => {
		const window = slidingWindow();
		const scout: Ticket = { epoch: 0, at: 0 };
		window.record(scout);
		expect(window.nextSlot(10)).toBeUndefined();
		expect(window.nextSlot(1000)).toBe(1000); // unanswered for a window: the others go
		scout.answeredAt = 30;
		window.announced(scout, {
			headers: 'ietf',
			limit: 5,
			remaining: 1,
			resetMs: 1000,
			windowMs: 1000,
		});
		expect(window.count).toBe(5);
		// one left (others with the key used three): one now, the rest after the reset
		expect(window.nextSlot(30)).toBe(30);
		window.record({ epoch: 0, at: 30 });
		expect(window.nextSlot(31)).toBe(1000 + RATE_POLICY.marginMs);
		// a budget that says what our own count says adds nothing (its reset is rounded to the second)
		const plain = slidingWindow();
		const first: Ticket = { epoch: 0, at: 0, answeredAt: 30 };
		plain.record(first);
		plain.announced(first, { headers: 'x', limit: 5, remaining: 4, resetMs: 1000 });
		for (let k = 0; k < 4; k++) expect(send(plain, 31).at).toBe(31);
		expect(plain.nextSlot(32)).toBe(1000 + RATE_POLICY.marginMs);
	});

	it('a budget that starts again sooner than a window after our first start in it is a fixed window: the next one goes at that reset, whole', () => {
		const window = slidingWindow();
		const first: Ticket = { epoch: 0, at: 22_370, answeredAt: 22_400 };
		window.record(first);
		// 60 a minute on the clock's minutes: 37.63 s left, rounded up
		const policy = { headers: 'ietf' as const, limit: 60, resetMs: 38_000, windowMs: 60_000 };
		window.announced(first, { ...policy, remaining: 59 });
		for (let k = 0; k < 59; k++) send(window, 22_400);
		const reset = 22_370 + 38_000 + RATE_POLICY.marginMs;
		expect(window.fixedWindowsHold).toBe(true);
		expect(window.nextSlot(22_401)).toBe(reset + RATE_POLICY.marginMs);
	});

	it('raises that hold grow twice as large each time: a worker whose partner on the key is done reclaims the whole limit within a few windows', () => {
		const window = slidingWindow();
		let at = 1000 + learned(window, 50);
		const seen = [50];
		while (at < 1055 + 12_000) {
			at = sendAccepted(window, at).at;
			if (window.count !== seen[seen.length - 1]) seen.push(window.count!);
		}
		// 2 %, 4 %, 8 %, ... up to 100 %: from 50 past 100 in under 12 windows
		const p = RATE_POLICY.probe;
		const raises = [
			50,
			50 * (1 + p),
			50 * (1 + p) * (1 + 2 * p),
			50 * (1 + p) * (1 + 2 * p) * (1 + 4 * p),
		];
		expect(seen.slice(0, 4).map((c) => c.toFixed(6))).toEqual(raises.map((c) => c.toFixed(6)));
		expect(Math.max(...seen)).toBeGreaterThan(100);
	});

	it('windows used in full without a 429 raise the count a little (another client may be done)', () => {
		const window = slidingWindow();
		let at = 1000 + learned(window, 20);
		for (let k = 0; k < 20 * (RATE_POLICY.probeAfterWindows + 2); k++)
			at = sendAccepted(window, at).at;
		expect(window.count).toBeGreaterThan(20);
	});

	it('windows not used in full raise nothing: a raise nobody tests would pile up into a burst when the load comes back', () => {
		const window = slidingWindow();
		let at = 1000 + learned(window, 20);
		for (let k = 0; k < 10 * 20; k++) at = sendAccepted(window, Math.max(at, 1100 + k * 100)).at; // 10 a window
		expect(window.count).toBe(20);
	});

	it('a raise met by a 429 in a fixed window closes that window: nothing more goes before it ends', () => {
		const window = new RateWindow(RATE_POLICY, new FakeClock(0));
		let at = 1000 + learned(window, 100);
		while (window.count === 100) at = sendAccepted(window, at).at;
		const refused = send(window, at);
		window.refused(refused, 1000, refused.at + 2);
		expect(window.count).toBe(100);
		expect(window.pausedUntil).toBe(Math.floor(refused.at / 1000) * 1000 + 1000);
	});

	it('a probe met by a 429 goes back to the count the service accepted (not 10 % below it), and the next probe waits twice as long', () => {
		const window = slidingWindow();
		let at = 1000 + learned(window, 100);
		const windowsUntilProbe = () => {
			const from = at;
			const count = window.count;
			for (let n = 0; window.count === count && n < 100_000; n++) at = sendAccepted(window, at).at;
			return Math.round((at - from) / 1000);
		};
		expect(windowsUntilProbe()).toBeGreaterThanOrEqual(RATE_POLICY.probeAfterWindows);
		expect(window.count).toBe(100 * (1 + RATE_POLICY.probe));
		// the service still allows 100: the probe's first extra request is refused
		const refused = send(window, at);
		window.refused(refused, 1000, refused.at + 1);
		expect(window.count).toBe(100);
		const second = windowsUntilProbe();
		expect(second).toBeGreaterThanOrEqual(2 * RATE_POLICY.probeAfterWindows);
		// a probe that holds: the next comes after the first interval again
		expect(window.count).toBe(100 * (1 + RATE_POLICY.probe));
		expect(windowsUntilProbe()).toBeLessThan(second);
	});
	it("a raise holds only once the service accepted a request sent a window after it; the raise's later 429s are one event", () => {
		// Raises of 5 %: a raise's window then holds several starts past the service's count.
		const window = new RateWindow({ ...SLIDING, probe: 0.05 }, new FakeClock(0));
		let at = 1000 + learned(window, 100);
		while (window.count === 100) at = sendAccepted(window, at).at;
		expect(window.count).toBe(105);
		// Starts planned ahead of their answers (none answered yet): no second raise on them.
		const planned = Array.from({ length: 300 }, () => send(window, at));
		expect(window.count).toBe(105);
		// The service allows 100: the raise's first 429 takes it back ...
		window.refused(planned[100], 1000, planned[100].at + 20);
		expect(window.count).toBe(100);
		// ... and its other 429s (the rest of that window's burst, sent before the first 429
		// came back) neither cut nor switch the pace.
		const burst = planned.filter((t) => t.at === planned[100].at).slice(101);
		expect(burst.length).toBeGreaterThan(1);
		for (const ticket of burst) window.refused(ticket, 1000, planned[100].at + 21);
		expect(window.count).toBe(100);
		// A 429 to a request sent after it is news: the service allows fewer, one less at least.
		const later = planned.find((t) => t.at > planned[100].at + 21)!;
		window.refused(later, 1000, later.at + 20);
		expect(window.count).toBe(99);
		expect(window.nextSlot(later.at + 21)).toBeGreaterThan(later.at + 21);
	});
});
