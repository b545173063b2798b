import { AdaptiveLimit, LIMIT_POLICY } from '../../nodes/shared/pacing/limiter';
import { FakeClock } from './fake-clock';

/**
 * The limiter against modelled services, on a 1 ms clock the test moves: `servers`
 * requests are handled at once in `serviceMs` each, the rest wait in a queue (latency grows
 * with it), and more than `refuseAbove` in the service answer 503 at once.
 */
async function simulate(options: {
	items: number;
	servers: number;
	serviceMs: number;
	refuseAbove: number;
	fixed?: number;
	gradual?: boolean;
}) {
	const clock = new FakeClock(0);
	const limit = new AdaptiveLimit(LIMIT_POLICY, clock);
	let now = 0;
	const busyUntil: number[] = Array.from({ length: options.servers }, () => 0);
	const answers: Array<{ at: number; sentAt: number; ok: boolean }> = [];
	let inService = 0;
	let next = 0;
	let done = 0;
	let refused = 0;
	let maxInService = 0;
	const retry: number[] = [];
	while (done < options.items && now < 60_000) {
		for (const answer of answers.filter((a) => a.at === now)) {
			inService--;
			if (options.fixed === undefined) {
				limit.observe(answer.ok ? 'ok' : 'overload', answer.sentAt);
				limit.release();
			}
			if (answer.ok) done++;
			else retry.push(now + 1000); // Retry-After: 1
		}
		const allowed = options.fixed ?? limit.limit;
		const running = options.fixed === undefined ? limit.running : inService;
		for (let free = allowed - running; free > 0; free--) {
			const due = retry.findIndex((at) => at <= now);
			if (due < 0 && next >= options.items) break;
			if (due >= 0) retry.splice(due, 1);
			else next++;
			if (options.fixed === undefined) {
				const place = limit.acquire();
				await clock.advance(0); // it gives way to the event loop before the first answer
				await place;
			}
			inService++;
			maxInService = Math.max(maxInService, inService);
			if (inService > options.refuseAbove) {
				refused++;
				answers.push({ at: now + 1, sentAt: now, ok: false });
				continue;
			}
			if (options.gradual) {
				// latency grows with the requests in the service beyond `servers`
				const at = now + Math.round(options.serviceMs * Math.max(1, inService / options.servers));
				answers.push({ at, sentAt: now, ok: true });
				continue;
			}
			const server = busyUntil.indexOf(Math.min(...busyUntil));
			const start = Math.max(now, busyUntil[server]);
			busyUntil[server] = start + options.serviceMs;
			answers.push({ at: busyUntil[server], sentAt: now, ok: true });
		}
		await clock.advance(1);
		now = clock.now();
	}
	return { ms: now, refused, maxInService, limit: limit.limit };
}

describe('AdaptiveLimit against modelled services', () => {
	it('capacity 20 (queue beyond, 503 past 60): never refused, within 1.1 x of 20 at once', async () => {
		const service = { items: 500, servers: 20, serviceMs: 25, refuseAbove: 60 };
		const best = await simulate({ ...service, fixed: 20 });
		const ours = await simulate(service);
		expect(ours.refused).toBe(0);
		expect(ours.maxInService).toBeLessThanOrEqual(50);
		expect(ours.ms).toBeLessThanOrEqual(best.ms * 1.1);
	});

	it('capacity 20 with latency growing in proportion beyond it, 503 past 60: never refused, within 1.1 x of 20 at once', async () => {
		const service = { items: 500, servers: 20, serviceMs: 25, refuseAbove: 60, gradual: true };
		const best = await simulate({ ...service, fixed: 20 });
		const ours = await simulate(service);
		expect(ours.refused).toBe(0);
		expect(ours.maxInService).toBeLessThanOrEqual(50);
		expect(ours.ms).toBeLessThanOrEqual(best.ms * 1.1);
	});

	it('no capacity limit, 300 ms: 500 done in about three round trips (128 blind, then doubling per round trip)', async () => {
		const service = { items: 500, servers: 1000, serviceMs: 300, refuseAbove: Infinity };
		const ours = await simulate(service);
		expect(ours.refused).toBe(0);
		expect(ours.ms).toBeLessThanOrEqual(3 * 300 + 100);
	});
});
