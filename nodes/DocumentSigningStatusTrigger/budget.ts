import type { IPollFunctions } from 'n8n-workflow';

import { ExecutionStopped } from '../shared/run/cancel';
import type { Clock } from '../shared/run/clock';
import { POLL_CLOCK } from './pollClock';
import { STATUS_POLL } from './pollPolicy';

/** What the list walk and the reads in order need of a budget. */
export interface Budget {
	allows(kind: string): boolean;
	/** How many requests of `kind` a quarter of the time left pays for. */
	affordable(kind: string): number;
	timed<T>(kind: string, request: () => Promise<T>): Promise<T>;
	/** Whether `error` is only the budget's end aborting a request. */
	cut(error: unknown): boolean;
}

/**
 * How long one poll may work.
 *
 * n8n 2.41's scheduler (N8N_SCHEDULER_ENABLED with N8N_SCHEDULER_POLL_TRIGGERS_ENABLED)
 * abandons a poll that runs past N8N_SCHEDULER_POLL_TIMEOUT: nothing it found is emitted,
 * its cursor is not committed, and its promise is not cancelled. It gives the node
 * `getPollBudgetMs()`, the timeout less a margin (36 s of the default 45 s; n8n
 * trigger-execution-context.factory.js getExecutePollFunctions), and 5 minutes on the classic
 * poller (n8n-core poll-context.js). n8n 1.x has neither: STATUS_POLL.classicBudgetMs then.
 *
 * A poll starts a request only when it should end within the budget (the longest request of
 * its kind so far, with a margin), and at the budget's end every request still under way is
 * aborted, so an abandoned poll cannot go on reading and downloading unseen.
 */
export class PollBudget implements Budget {
	readonly startedAt: number;
	readonly endsAt: number;
	private readonly reserveMs: number;
	private readonly firstMs: number;
	private readonly ended = new AbortController();
	private readonly timer = new AbortController();
	private readonly longest = new Map<string, number>();

	constructor(
		readonly ms: number,
		private readonly clock: Clock = POLL_CLOCK,
	) {
		this.startedAt = clock.now();
		this.endsAt = this.startedAt + ms;
		this.reserveMs = Math.min(STATUS_POLL.reserveMs, ms * 0.05);
		this.firstMs = Math.min(STATUS_POLL.firstRequestMs, ms / 4);
		clock.sleep(ms, this.timer.signal).then(
			() => this.ended.abort(),
			() => undefined,
		);
	}

	/** Aborted when the budget has run out: the poll's requests take it as their cancel signal. */
	get signal(): AbortSignal {
		return this.ended.signal;
	}

	get spent(): boolean {
		return this.ended.signal.aborted || this.clock.now() >= this.endsAt;
	}

	elapsedMs(): number {
		return this.clock.now() - this.startedAt;
	}

	/** Whether a request of `kind` ('list', 'file', 'progress') can start and still end in time. */
	allows(kind: string, until = this.endsAt): boolean {
		const expected = this.longest.get(kind) ?? this.firstMs;
		const end = this.clock.now() + expected * STATUS_POLL.requestMargin + this.reserveMs;
		return !this.spent && end <= Math.min(until, this.endsAt);
	}

	affordable(kind: string, until = this.endsAt): number {
		const left = Math.min(until, this.endsAt) - this.clock.now() - this.reserveMs;
		return Math.max(0, Math.floor(left / 4 / (this.longest.get(kind) ?? this.firstMs)));
	}

	/** The budget with an earlier end: `1 / parts` of the time left (one share per status still to read). */
	share(parts: number): Budget {
		const until = this.clock.now() + (this.endsAt - this.clock.now()) / Math.max(1, parts);
		return {
			allows: (kind) => this.allows(kind, until),
			affordable: (kind) => this.affordable(kind, until),
			timed: async (kind, request) => await this.timed(kind, request),
			cut: (error) => this.cut(error),
		};
	}

	/** Runs one request of `kind`, remembering how long it took. */
	async timed<T>(kind: string, request: () => Promise<T>): Promise<T> {
		const start = this.clock.now();
		try {
			return await request();
		} finally {
			const took = this.clock.now() - start;
			this.longest.set(kind, Math.max(this.longest.get(kind) ?? 0, took));
		}
	}

	/** Whether `error` is only the budget's end aborting a request. */
	cut(error: unknown): boolean {
		return this.ended.signal.aborted || (error instanceof ExecutionStopped && this.spent);
	}

	/** The poll is over: its timer is dropped. */
	close(): void {
		this.timer.abort();
	}
}

/** The budget n8n gives this poll (`getPollBudgetMs`), or the classic one where it gives none. */
export function pollBudgetMs(context: IPollFunctions): number {
	const read = (context as { getPollBudgetMs?: () => unknown }).getPollBudgetMs;
	if (typeof read !== 'function') return STATUS_POLL.classicBudgetMs;
	const ms = Number(read.call(context));
	return Number.isFinite(ms) && ms > 0 ? ms : STATUS_POLL.classicBudgetMs;
}

/**
 * The poll context whose cancel signal is the budget's end: the transport, the address guard
 * and every wait of nodes/shared read it (cancel.ts), so all of them stop there. n8n gives a
 * poll no cancel signal of its own (n8n-core 2.41 PollContext has no getExecutionCancelSignal).
 */
export function withinBudget<C extends object>(context: C, budget: PollBudget): C {
	const bounded = Object.create(context) as C & { getExecutionCancelSignal(): AbortSignal };
	bounded.getExecutionCancelSignal = () => budget.signal;
	return bounded;
}

/** What `inOrder` got done: the results of a prefix of the items, and the error that ended it. */
export interface InOrder<R> {
	results: R[];
	/** Why the prefix ended before the last item, when a request failed (not the budget). */
	failure?: unknown;
	/** Results of items past the prefix that finished all the same (by item index). */
	past: Map<number, R>;
}

/**
 * Runs `work` on the items in their order, a few at a time; an item for which `costly` holds
 * sends a request and starts only while the budget allows one of `kind`. Once one cannot start
 * or fails, none starts after it. Returns the results of the longest prefix that completed, so
 * the caller emits changes in order and the next poll begins at the first one left.
 */
export async function inOrder<T, R>(
	items: T[],
	budget: Budget,
	kind: string,
	costly: (item: T) => boolean,
	work: (item: T) => Promise<R>,
): Promise<InOrder<R>> {
	const results: R[] = [];
	const done: boolean[] = [];
	const failures = new Map<number, unknown>();
	let next = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < items.length) {
			const k = next;
			const request = costly(items[k]);
			if (request && !budget.allows(kind)) break;
			next++;
			try {
				results[k] = request
					? await budget.timed(kind, () => work(items[k]))
					: await work(items[k]);
				done[k] = true;
			} catch (error) {
				failures.set(k, error);
				stopped = true;
			}
		}
		stopped = true;
	};
	await Promise.all(
		Array.from({ length: Math.min(STATUS_POLL.readsAtOnce, items.length) }, worker),
	);
	let prefix = 0;
	while (prefix < items.length && done[prefix]) prefix++;
	const past = new Map<number, R>();
	for (let k = prefix + 1; k < items.length; k++) if (done[k]) past.set(k, results[k]);
	return { results: results.slice(0, prefix), failure: failures.get(prefix), past };
}
