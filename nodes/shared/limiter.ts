import { sleep } from 'n8n-workflow';

/**
 * How many items of a batch run at once when the user has not fixed "Parallel Requests":
 * one limit per credential and Base URL in this n8n process (credentialState.ts), shared by
 * every node run that uses it at the same time.
 *
 * The design, and why:
 * - **Start: TCP slow start, by the clock until the first answer.** `initial` (10) in
 *   flight. Until the first answer the limit doubles every `doublingMs` of wall time, up to
 *   `blindMax` (CUBIC's point: growth by the clock, so a service answering in 300 ms is not
 *   ramped ten times slower than one answering in 30 ms; n8n's HTTP Request node sends a
 *   whole batch at once). From the first answer on, only answers raise it (the clock would
 *   outrun the delay signal of a service that queues): each answer within `growRtt` x the
 *   fastest round trip adds `growth` (x1.5 per round trip), or one (TCP's doubling) when the
 *   fastest round trip is long (`slowRttMs`: a slow service, not a queue).
 * - **End of slow start: HyStart's delay signal with Vegas's estimate.** The first answer
 *   slower than `exitRtt` x the fastest round trip, or a refusal (429, 503, 5xx, a
 *   connection error), ends slow start. The limit drops to what the service handled without
 *   a queue: limit x fastest / this round trip (Vegas), so the overshoot of the last round
 *   trip does not stay.
 * - **Then: Vegas (as Netflix's concurrency-limits VegasLimit).** The queue the limit builds
 *   at the service is estimated as limit x (1 - fastest / round trip). Below `alpha` it
 *   grows by log10(limit) per round trip; above `beta` it gives back the excess queue
 *   within about a round trip (a service past its knee is relieved quickly). Vegas rather than
 *   Gradient2: its reference is the fastest round trip, so it holds still at the service's
 *   knee; Gradient2 compares with its own running average, which drifts up with a queue.
 *   The same rule holds n8n's own CPU: when n8n is the bottleneck, round trips grow with
 *   the limit and the limit stops where the CPU is busy anyway.
 * - **Refusals: multiplicative decrease**, once per round trip (as TCP: one cut per window),
 *   for 503, 5xx and connection failures. A 429 is about rate, not concurrency: it ends
 *   slow start and leaves the count to the rate window (rate.ts).
 * The limit only grows while it is used (at least half of it in flight), as in Netflix's
 * limiters: a run with few items left teaches nothing about more.
 */

export const LIMIT_POLICY = {
	initial: 10,
	min: 1,
	/** As many as n8n's HTTP Request node sends at once for a large batch; more buys nothing. */
	max: 500,
	/** Until the first answer the limit doubles this often (wall time) ... */
	doublingMs: 30,
	/** ... up to this many: a process too busy to get its first answer back must not start everything. */
	blindMax: 128,
	/** From this fastest round trip on, slow start doubles per round trip (a slow service, not a queue). */
	slowRttMs: 100,
	/** Added per answer in slow start: 0.5 is x1.5 per round trip (1, TCP's doubling, overshoots a service that queues up to 3 x its knee before the delay shows). */
	growth: 0.5,
	/** In slow start, only answers within this many times the fastest round trip raise the limit. */
	growRtt: 1.2,
	/** A round trip this many times the fastest ends slow start. */
	exitRtt: 1.5,
	/** Extra ms of slack on the fastest round trip (timer and event-loop jitter). */
	rttSlackMs: 2,
	/** Share kept on a refusal. */
	decrease: 0.5,
	/** Vegas thresholds, as multiples of log10(limit): grow below alpha, shrink above beta. */
	alpha: 3,
	beta: 6,
	/** Answers after which the fastest round trip is measured again (the service may have slowed for good). */
	rttResetAnswers: 2000,
};

export type Outcome = 'ok' | 'overload' | 'rateLimited';

export class AdaptiveLimit {
	private value = LIMIT_POLICY.initial;
	private inflight = 0;
	private slowStart = true;
	private slowStartFrom: number | undefined;
	private slowStartBase = LIMIT_POLICY.initial;
	/** Fastest round trip of an answered request, ms. */
	private fastest: number | undefined;
	private answers = 0;
	/** No second cut for answers to requests sent before the last one. */
	private lastCutAt = -Infinity;
	private readonly waiting: Array<() => void> = [];

	constructor(private readonly now: () => number = Date.now) {}

	/** Requests (items) allowed in flight now. */
	get limit(): number {
		// The clock ramps only until the first answer: from then on answers pace the growth.
		if (!this.slowStart || this.slowStartFrom === undefined || this.fastest !== undefined) return Math.floor(this.value);
		const byClock = this.slowStartBase * 2 ** ((this.now() - this.slowStartFrom) / LIMIT_POLICY.doublingMs);
		// Blind (no answer yet): never more than blindMax, whatever the clock says.
		return Math.floor(Math.max(this.value, Math.min(LIMIT_POLICY.blindMax, byClock)));
	}

	get inSlowStart(): boolean {
		return this.slowStart;
	}

	get running(): number {
		return this.inflight;
	}

	/** Takes a place; waits while the limit is used up. */
	async acquire(): Promise<void> {
		this.slowStartFrom ??= this.now();
		while (this.inflight >= this.limit) {
			// Woken by a release; in slow start also by the clock, which raises the limit.
			await Promise.race([
				new Promise<void>((resolve) => this.waiting.push(resolve)),
				...(this.slowStart ? [sleep(LIMIT_POLICY.doublingMs / 4)] : []),
			]);
		}
		this.inflight++;
	}

	release(): void {
		this.inflight = Math.max(0, this.inflight - 1);
		if (this.inflight === 0 && this.slowStart) {
			// Idle: the clock's growth stops here and resumes from this limit with the next request.
			this.value = this.slowStartBase = this.limit;
			this.slowStartFrom = undefined;
		}
		this.waiting.splice(0).forEach((wake) => wake());
	}

	/** An answer (or a failure) to one request sent at `sentAt`. */
	observe(outcome: Outcome, sentAt: number): void {
		const now = this.now();
		const rtt = Math.max(0, now - sentAt);
		if (outcome === 'ok') this.answered(rtt);
		else if (outcome === 'rateLimited') this.endSlowStart(this.limit);
		else if (sentAt > this.lastCutAt) {
			// Answers to requests sent before this cut were caused by the old limit: one cut per round trip.
			this.endSlowStart(Math.max(LIMIT_POLICY.min, this.limit * LIMIT_POLICY.decrease));
			this.lastCutAt = now;
		}
		this.waiting.splice(0).forEach((wake) => wake());
	}

	private answered(rtt: number): void {
		if (this.fastest === undefined) this.value = this.limit; // what the clock reached stays
		if (++this.answers >= LIMIT_POLICY.rttResetAnswers) {
			this.answers = 0;
			this.fastest = undefined;
		}
		this.fastest = this.fastest === undefined ? rtt : Math.min(this.fastest, rtt);
		const base = this.fastest + LIMIT_POLICY.rttSlackMs;
		const limit = this.limit;
		// Only a limit in use is judged (Netflix's rule): few items left say nothing about more.
		const used = this.inflight * 2 >= limit;
		if (this.slowStart) {
			if (rtt > base * LIMIT_POLICY.exitRtt) {
				this.endSlowStart(Math.max(LIMIT_POLICY.initial, (limit * base) / rtt));
			} else if (used && rtt <= base * LIMIT_POLICY.growRtt) {
				// A slow service (long round trips, no queue) is ramped by TCP's doubling per round trip.
				const growth = this.fastest >= LIMIT_POLICY.slowRttMs ? 1 : LIMIT_POLICY.growth;
				this.value = Math.min(LIMIT_POLICY.max, Math.max(this.value, limit) + growth);
			}
			return;
		}
		const queue = limit * (1 - Math.min(1, base / Math.max(rtt, 1)));
		const step = Math.max(1, Math.log10(limit));
		// Vegas grows by log10(limit) per round trip (one answer is 1/limit of it) and gives
		// back the queue beyond beta within a round trip.
		if (queue < LIMIT_POLICY.alpha * step && used) this.value += step / limit;
		else if (queue > LIMIT_POLICY.beta * step) this.value -= Math.max(step, queue - LIMIT_POLICY.beta * step) / limit;
		this.value = Math.min(LIMIT_POLICY.max, Math.max(LIMIT_POLICY.min, this.value));
	}

	private endSlowStart(to: number): void {
		this.value = Math.min(LIMIT_POLICY.max, Math.max(LIMIT_POLICY.min, to));
		this.slowStart = false;
	}
}
