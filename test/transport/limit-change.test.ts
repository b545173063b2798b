import { newCredentialState } from '../../nodes/shared/pacing/credentialState';
import { LIMIT_POLICY } from '../../nodes/shared/pacing/limiter';
import { RETRY_POLICY } from '../../nodes/shared/pacing/retry';
import { RATE_POLICY } from '../../nodes/shared/pacing/ratePolicy';
import { RateController } from '../../nodes/shared/pacing/rate';
import { FakeClock } from './fake-clock';

/** How the service counts: fixed windows of its clock (`offsetMs` after ours), or a sliding log. */
type Service = { kind: 'fixed'; offsetMs?: number } | { kind: 'sliding' };

/**
 * A batch on the fake clock as the router and the transport run it (a place, then a start
 * from the rate controller, a 429 queued again) against a service that accepts `perWindow`
 * requests a second (by default in each fixed second of its clock) and answers the rest 429
 * with Retry-After in whole seconds, `latencyMs` after the start.
 */
async function batch(
	clock: FakeClock,
	shared: ReturnType<typeof newCredentialState>,
	items: number,
	perWindow: number,
	latencyMs = 20,
	service: Service = { kind: 'fixed' },
) {
	const rate = new RateController({}, shared);
	const accepted = new Map<number, number>();
	const log: number[] = [];
	let refused = 0;
	let done = 0;
	const from = clock.now();
	const offsetMs = service.kind === 'fixed' ? (service.offsetMs ?? 0) : 0;
	const item = async () => {
		for (;;) {
			const ticket = await rate.acquire();
			const now = clock.now();
			const window = Math.floor((now - offsetMs) / 1000);
			const inLog = log.filter((t) => t > now - 1000).length;
			const ok =
				service.kind === 'sliding' ? inLog < perWindow : (accepted.get(window) ?? 0) < perWindow;
			if (ok) accepted.set(window, (accepted.get(window) ?? 0) + 1);
			if (ok) log.push(now);
			const retryAfterMs = (window + 1) * 1000 + offsetMs - now;
			await clock.sleep(latencyMs);
			if (ok) return rate.succeeded(ticket);
			refused++;
			const wait = rate.rateLimited(ticket, Math.ceil(retryAfterMs / 1000) * 1000);
			if (wait) await clock.sleep(wait);
		}
	};
	const run = (async () => {
		const running: Array<Promise<void>> = [];
		for (let k = 0; k < items; k++) {
			await shared.limit.acquire();
			running.push(item().finally(() => (done++, shared.limit.release())));
		}
		await Promise.all(running);
	})();
	while (done < items) await clock.advance(1);
	await run;
	// The floor: a window's count at once from the start, the last in the window that completes the batch.
	const floor =
		(Math.floor(from / 1000) + Math.ceil(items / perWindow) - 1) * 1000 + latencyMs - from;
	return {
		ms: clock.now() - from,
		floor: Number.isFinite(perWindow) ? floor : latencyMs,
		refused,
		windows: [...accepted.values()],
	};
}

describe('the first batch after the service lowers its limit (fake clock)', () => {
	it('a batch 2 s after an unlimited one starts from the 500 learned halved per idle second (125), not all 500 nor 10: fewer 429s than a fresh start, at the count from the second window, nearer the floor', async () => {
		const clock = new FakeClock(1_000_000);
		const shared = newCredentialState(clock);
		const unlimited = await batch(clock, shared, 2000, Infinity);
		expect(shared.limit.limit).toBe(500); // what the unlimited service allowed
		await clock.advance(2000);
		const limited = await batch(clock, shared, 500, 100);
		const fresh = await batch(clock, newCredentialState(clock), 500, 100);
		expect(unlimited.refused).toBe(0);
		// learned 500 at once would send them all before the first 429: 400 refused; 125 at
		// once overshoots by 25 (from 10, the ramp overshot by 60 as a fresh start does)
		expect(limited.refused).toBeLessThanOrEqual(30);
		expect(limited.refused).toBeLessThan(fresh.refused);
		expect(limited.windows.slice(1, -1).every((count) => count === 100)).toBe(true);
		// Each later window repeats the first one's starts a window on (our sliding window): a
		// first window sent late in the service's window keeps that lag, so the first window
		// sent at once ends the batch nearer the floor (from 10 it was 391 ms after it).
		expect(limited.ms).toBeLessThanOrEqual(limited.floor + 300);
		expect(limited.ms - limited.floor).toBeLessThan(fresh.ms - fresh.floor);
	});
});

describe('a long batch at the service limit (fake clock)', () => {
	it("raises that find the limit cost only their own 429s: every full window holds the service's count and the batch ends within 2 % of the floor", async () => {
		const clock = new FakeClock(1_000_000);
		await clock.advance(1000 - (clock.now() % 1000)); // a scheduled batch starts on the second
		const long = await batch(clock, newCredentialState(clock), 4000, 100);
		// 40 windows: the count is raised (probed) every few windows and each raise meets a 429,
		// at most 2 % of the accepted requests with the first window's.
		expect(long.refused).toBeGreaterThan(20);
		expect(long.refused).toBeLessThanOrEqual(0.02 * 4000);
		// Before: the raise's later 429s were read as the service counting late or as a lower
		// limit, and windows fell to 83-94 for several seconds.
		expect(long.windows.slice(0, -1).every((count) => count === 100)).toBe(true);
		expect(long.ms).toBeLessThanOrEqual(long.floor * 1.02);
	});
});

describe('the guess of windows that start on the clock (fake clock)', () => {
	/** A credential's state with the guess on (the default) or off (the sliding window alone). */
	const state = (clock: FakeClock, fixedWindows: boolean) =>
		newCredentialState(clock, {
			limit: LIMIT_POLICY,
			rate: { ...RATE_POLICY, fixedWindows },
			retry: RETRY_POLICY,
		});
	const onTheSecond = async (clock: FakeClock) => await clock.advance(1000 - (clock.now() % 1000));

	it("a service counting in its clock's seconds: each window's count goes at the window's start, and 4 000 requests end within 50 ms of the floor, where the sliding window alone drifts", async () => {
		const clock = new FakeClock(1_000_000);
		await onTheSecond(clock);
		const guessed = await batch(clock, state(clock, true), 4000, 100);
		await clock.advance(10_000);
		await onTheSecond(clock);
		const sliding = await batch(clock, state(clock, false), 4000, 100);
		expect(guessed.windows.slice(0, -1).every((count) => count === 100)).toBe(true);
		expect(guessed.ms - guessed.floor).toBeLessThanOrEqual(50);
		expect(sliding.ms - sliding.floor).toBeGreaterThan(guessed.ms - guessed.floor + 100);
	});

	it('a sliding-window service: the first 429 the guess does not explain ends it, and the batch goes on paced by the sliding window, nothing lost, about one window of extra 429s', async () => {
		const clock = new FakeClock(1_000_000);
		await onTheSecond(clock);
		const shared = state(clock, true);
		const guessed = await batch(clock, shared, 2000, 100, 20, { kind: 'sliding' });
		await clock.advance(10_000);
		await onTheSecond(clock);
		const sliding = await batch(clock, state(clock, false), 2000, 100, 20, { kind: 'sliding' });
		expect(guessed.ms).toBeLessThanOrEqual(sliding.ms + 1000);
		expect(guessed.refused).toBeLessThanOrEqual(sliding.refused + 100);
	});

	it("a service whose seconds start 300 ms after ours: each window's burst still falls in one of its windows, each of its windows but the first and the last holds its count", async () => {
		const clock = new FakeClock(1_000_000);
		await onTheSecond(clock);
		const late = await batch(clock, state(clock, true), 2000, 100, 20, {
			kind: 'fixed',
			offsetMs: 300,
		});
		expect(late.windows.slice(1, -1).every((count) => count === 100)).toBe(true);
		expect(late.ms - late.floor).toBeLessThanOrEqual(400);
	});

	it('a service that answers in 700 ms (a round trip over half its window): the guess holds, starts held back by the spread stay out of full windows, no more 429s than the sliding window', async () => {
		const clock = new FakeClock(1_000_000);
		await onTheSecond(clock);
		const shared = state(clock, true);
		const slow = await batch(clock, shared, 1000, 100, 700);
		await clock.advance(10_000);
		await onTheSecond(clock);
		const sliding = await batch(clock, state(clock, false), 1000, 100, 700);
		expect(shared.window.count).toBe(100);
		expect(shared.window.fixedWindowsHold).toBe(true);
		expect(slow.windows.every((count) => count <= 100)).toBe(true);
		// The second window is short: the first burst's 429s come back 700 ms late, and their
		// retries fall in its second half, kept free (a start there could arrive in the next).
		expect(slow.windows.slice(2, -1).every((count) => count === 100)).toBe(true);
		// Before: a start the spread held back past the window it was given went into the next
		// one whatever that one held (300 more starts in one window, 775 429s against 480);
		// and a start planned two windows ahead dropped the record of the current window's
		// starts (the guess failed, 949 429s).
		expect(slow.refused).toBeLessThanOrEqual(sliding.refused + 10);
		expect(slow.ms).toBeLessThanOrEqual(sliding.ms + 500);
	});
});
