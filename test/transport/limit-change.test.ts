import { newCredentialState } from '../../nodes/shared/credentialState';
import { RateController } from '../../nodes/shared/rate';
import { FakeClock } from './fake-clock';

/**
 * A batch on the fake clock as the router and the transport run it (a place, then a start
 * from the rate controller, a 429 queued again) against a service that accepts `perWindow`
 * requests in each fixed second of its clock and answers the rest 429 with Retry-After in
 * whole seconds, `latencyMs` after the start.
 */
async function batch(
	clock: FakeClock,
	shared: ReturnType<typeof newCredentialState>,
	items: number,
	perWindow: number,
	latencyMs = 20,
) {
	const rate = new RateController({}, shared);
	const accepted = new Map<number, number>();
	let refused = 0;
	let done = 0;
	const from = clock.now();
	const item = async () => {
		for (;;) {
			const ticket = await rate.acquire();
			const window = Math.floor(clock.now() / 1000);
			const ok = (accepted.get(window) ?? 0) < perWindow;
			if (ok) accepted.set(window, (accepted.get(window) ?? 0) + 1);
			const retryAfterMs = (window + 1) * 1000 - clock.now();
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
		// 40 windows: the count is raised (probed) every few windows and each raise meets a 429.
		expect(long.refused).toBeGreaterThan(65);
		// Before: the raise's later 429s were read as the service counting late or as a lower
		// limit, and windows fell to 83-94 for several seconds.
		expect(long.windows.slice(0, -1).every((count) => count === 100)).toBe(true);
		expect(long.ms).toBeLessThanOrEqual(long.floor * 1.02);
	});
});
