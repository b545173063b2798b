/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: a macrotask turn lets promise chains settle; not published (package.json "files" is dist/ only) */
/**
 * The poll budget's rules on the test's clock (service-clock.ts): what budget a poll takes
 * from n8n, when a request may still start, that the budget's end aborts what is under way,
 * that reads in order stop at a prefix, and what a poll does while an earlier one still runs.
 */
import { PollContext } from 'n8n-core';

import { inOrder, PollBudget, pollBudgetMs } from '../../nodes/DocumentSigningStatusTrigger/budget';
import { exclusive } from '../../nodes/DocumentSigningStatusTrigger/overlap';
import { windowAbove } from '../../nodes/DocumentSigningStatusTrigger/walk';
import { scheduledPolls } from './scheduler';
import { ServiceClock, type ServiceClockModule, usePollClock } from './service-clock';

jest.mock('../../nodes/DocumentSigningStatusTrigger/pollClock', () =>
	jest.requireActual<ServiceClockModule>('./service-clock').pollClockModule(),
);

let clock: ServiceClock;
beforeEach(() => {
	clock = new ServiceClock(700);
	usePollClock(clock);
});

/** A scheduler whose polls get n8n's budget for a 15 s timeout (10 s). */
const scheduler = () =>
	scheduledPolls({
		credentials: { baseUrl: 'https://service.invalid/api/v1', apiKey: 'k', webhookSecret: '' },
		parameters: { statuses: ['completed'] },
		clock,
		timeoutMs: 15_000,
	});

describe('the budget a poll takes', () => {
	it("is n8n's getPollBudgetMs(): the scheduler's (timeout less its margin), the classic poller's 5 minutes, and 5 minutes where n8n has none (1.x)", () => {
		const scheduled = scheduler().contextOf({});
		expect(pollBudgetMs(scheduled)).toBe(10_000);
		// n8n-core's PollContext without a budget given: what the classic poller passes.
		const classic = new PollContext(
			scheduled.getWorkflow() as never,
			scheduled.getNode(),
			{} as never,
			'trigger',
			'activate',
		);
		expect(pollBudgetMs(classic)).toBe(300_000);
		const n8n1 = Object.create(scheduled) as PollContext;
		Object.defineProperty(n8n1, 'getPollBudgetMs', { value: undefined });
		expect(pollBudgetMs(n8n1)).toBe(300_000);
		const odd = Object.create(scheduled) as PollContext;
		Object.defineProperty(odd, 'getPollBudgetMs', { value: () => Number.NaN });
		expect(pollBudgetMs(odd)).toBe(300_000);
	});

	it('lets a request start only while 1.5 times the longest of its kind and the reserve still fit, and aborts at its end', async () => {
		const budget = new PollBudget(10_000, clock);
		// Before any request of a kind: 2 s is expected (at most a quarter of the budget).
		expect(budget.allows('list')).toBe(true);
		await budget.timed('list', async () => clock.pass(700));
		// 700 ms x 1.5 + 500 ms reserve (5 % of 10 s) must fit: until 8,450 ms.
		clock.pass(8_450 - budget.elapsedMs());
		expect(budget.allows('list')).toBe(true);
		// No file read seen yet: 2 s x 1.5 + 500 ms no longer fits.
		expect(budget.allows('file')).toBe(false);
		clock.pass(1);
		expect(budget.allows('list')).toBe(false);
		expect(budget.signal.aborted).toBe(false);
		clock.pass(10_000 - budget.elapsedMs());
		await new Promise((resolve) => setImmediate(resolve));
		expect(budget.signal.aborted).toBe(true);
		budget.close();
	});

	it('shares what is left between statuses still to read', () => {
		const budget = new PollBudget(10_000, clock);
		const half = budget.share(2);
		// The first of two statuses gets 5 s: 2 s x 1.5 + 500 ms fits until 1,500 ms.
		clock.pass(1_500);
		expect(half.allows('list')).toBe(true);
		clock.pass(1);
		expect(half.allows('list')).toBe(false);
		expect(budget.allows('list')).toBe(true);
		budget.close();
	});
});

describe('reads in order', () => {
	const items = Array.from({ length: 12 }, (_, k) => k);

	it('start while the budget allows, a few at a time, and return a prefix of the items', async () => {
		const budget = new PollBudget(10_000, clock);
		let started = 0;
		const done = await inOrder(
			items,
			budget,
			'file',
			() => true,
			async (k) => {
				started++;
				await new Promise((resolve) => setImmediate(resolve));
				clock.pass(1_000);
				return k;
			},
		);
		expect(done.failure).toBeUndefined();
		expect(done.results).toEqual(items.slice(0, done.results.length));
		expect(done.results.length).toBeGreaterThan(0);
		expect(done.results.length).toBeLessThan(items.length);
		// Whatever started also finished within the budget: nothing is left under way.
		expect(started).toBe(done.results.length);
		expect(budget.elapsedMs()).toBeLessThanOrEqual(10_000);
		budget.close();
	});

	it('stop at a failure: the items before it are the result; those after it that finished come apart', async () => {
		const budget = new PollBudget(300_000, clock);
		const refused = new Error('refused');
		const done = await inOrder(
			items,
			budget,
			'file',
			(k) => k % 2 === 0,
			async (k) => {
				if (k === 4) throw refused;
				// the ones started beside item 4 finish after it failed
				if (k > 4) await new Promise((resolve) => setImmediate(resolve));
				return k;
			},
		);
		expect(done.results).toEqual([0, 1, 2, 3]);
		expect(done.failure).toBe(refused);
		// started with 4 (five at a time), none after it failed
		expect([...done.past]).toEqual([5, 6, 7, 8].map((k) => [k, k]));
		budget.close();
	});
});

describe('a poll while an earlier one of the same trigger still runs', () => {
	function twoPolls() {
		const p = scheduler();
		return { first: p.contextOf({}), second: p.contextOf({}) };
	}

	it('within its budget: the earlier one is doing the work; this one returns null at once', async () => {
		const { first, second } = twoPolls();
		let release: () => void = () => {};
		const earlier = exclusive(
			first,
			new PollBudget(10_000, clock),
			async () => await new Promise<string>((resolve) => (release = () => resolve('earlier'))),
		);
		clock.pass(9_000);
		const ran = jest.fn(async () => 'later');
		expect(await exclusive(second, new PollBudget(10_000, clock), ran)).toBeNull();
		expect(ran).not.toHaveBeenCalled();
		release();
		expect(await earlier).toBe('earlier');
	});

	it('past its budget and still running after 5 s: this poll fails, naming it, so n8n records a failure and backs off', async () => {
		const { first, second } = twoPolls();
		let release: () => void = () => {};
		const earlier = exclusive(
			first,
			new PollBudget(10_000, clock),
			async () => await new Promise<void>((resolve) => (release = resolve)),
		);
		clock.pass(10_000);
		const later = exclusive(second, new PollBudget(10_000, clock), async () => 'later');
		later.catch(() => undefined);
		await Promise.resolve();
		clock.pass(5_000);
		await expect(later).rejects.toThrow(
			'An earlier poll of this trigger is still running 15 s after it started, past its budget of 10 s, so this poll read nothing',
		);
		release();
		await earlier;
		// Once it has ended, polls run again.
		expect(await exclusive(second, new PollBudget(10_000, clock), async () => 'again')).toBe(
			'again',
		);
	});

	it('past its budget but ending within the wait: this poll runs', async () => {
		const { first, second } = twoPolls();
		let release: () => void = () => {};
		const earlier = exclusive(
			first,
			new PollBudget(10_000, clock),
			async () => await new Promise<void>((resolve) => (release = resolve)),
		);
		clock.pass(10_500);
		const later = exclusive(second, new PollBudget(10_000, clock), async () => 'later');
		clock.pass(1_000);
		release();
		await earlier;
		expect(await later).toBe('later');
	});
});

describe('the window above what was read', () => {
	it('holds the last item read and as many above it as one read of at most the page size can', () => {
		let gains = 0;
		for (let top = 100; top < 3_100; top++) {
			const place = windowAbove(top, 0, 100)!;
			const start = (place.page - 1) * place.limit;
			expect(place.limit).toBeLessThanOrEqual(100);
			expect(place.limit).toBeGreaterThanOrEqual(50);
			expect(start).toBeLessThan(top);
			expect(start + place.limit).toBeGreaterThan(top);
			gains += top - start;
		}
		// About 9 of 10 items of each read are new.
		expect(gains / 3_000).toBeGreaterThan(85);
		// Near the top, one page holds everything above.
		expect(windowAbove(40, 3, 100)).toEqual({ page: 1, limit: 100 });
	});
});
