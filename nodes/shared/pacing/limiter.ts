import { throwIfStopped } from '../run/cancel';
import { type Clock, realClock, WaitQueue } from '../run/clock';
import type { ConcurrencyLimit, Outcome } from './concurrency';

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
 * - **End of slow start: HyStart's delay signal with Vegas's estimate.** The last `samples`
 *   answers all slower than `exitRtt` x the fastest round trip, or a refusal (429, 503, 5xx, a
 *   connection error), ends slow start. The limit drops to what the service handled without
 *   a queue: limit x fastest / this round trip (Vegas), so the overshoot of the last round
 *   trip does not stay, but at most to half (TCP's cut).
 * - **Then: Vegas (as Netflix's concurrency-limits VegasLimit).** The queue the limit builds
 *   at the service is estimated as limit x (1 - fastest / round trip). Below `alpha` it
 *   grows by log10(limit) per round trip; above `beta` it gives back the excess queue
 *   within about a round trip (a service past its knee is relieved quickly), but at most
 *   `maxCut` of the limit per round trip: a pause of n8n's own (a garbage collection) makes
 *   every answer of a round trip late at once, which is no queue at the service. Vegas rather than
 *   Gradient2: its reference is the fastest round trip, so it holds still at the service's
 *   knee; Gradient2 compares with its own running average, which drifts up with a queue.
 *   The same rule holds n8n's own CPU: when n8n is the bottleneck, round trips grow with
 *   the limit and the limit stops where the CPU is busy anyway.
 * - **Refusals: multiplicative decrease**, once per round trip (as TCP: one cut per window),
 *   for 503, 5xx and connection failures. A 429 is about rate, not concurrency: it ends
 *   slow start and leaves the count to the rate window (rate.ts).
 * - **n8n's own delay is not a queue.** The delay signal is the fastest of the last
 *   `samples` round trips (HyStart's filter against jitter), less how late a 0 ms timer
 *   fires in this process (watchLag): when n8n itself is busy, answers wait for it after
 *   they arrive, and a limit cut for that would leave n8n's CPU idle between answers.
 * The limit only grows while it is used (at least half of it in flight), as in Netflix's
 * limiters: a run with few items left teaches nothing about more.
 */

/** The tuning of the adaptive limit; a test passes its own to AdaptiveLimit. */
const limitDefaults = {
	initial: 10,
	min: 1,
	/** As many as n8n's HTTP Request node sends at once for a large batch; more buys nothing. */
	max: 500,
	/** Until the first answer the limit doubles this often (wall time) ... */
	doublingMs: 30,
	/** ... up to this many: a process too busy to get its first answer back must not start everything. */
	blindMax: 500,
	/** From this fastest round trip on, slow start doubles per round trip (a slow service, not a queue). */
	slowRttMs: 100,
	/** Added per answer in slow start: 0.5 is x1.5 per round trip (1, TCP's doubling, overshoots a service that queues up to 3 x its knee before the delay shows). */
	growth: 0.5,
	/** In slow start, only answers within this many times the fastest round trip raise the limit. */
	growRtt: 1.2,
	/** The event loop's lateness is measured this often (ms) while requests are in flight ... */
	lagEveryMs: 10,
	/** ... and the largest of this many measurements is taken off round trips. */
	lagSamples: 4,
	/** Answers whose fastest round trip is the delay signal (HyStart takes 8). */
	samples: 8,
	/** A round trip this many times the fastest ends slow start. */
	exitRtt: 1.5,
	/** Extra ms of slack on the fastest round trip (timer and event-loop jitter). */
	rttSlackMs: 2,
	/** Share kept on a refusal. */
	decrease: 0.5,
	/** Vegas thresholds, as multiples of log10(limit): grow below alpha, shrink above beta. */
	alpha: 3,
	beta: 6,
	/** Most of the limit Vegas gives back in one round trip (503s and failed connections cut by `decrease`). */
	maxCut: 0.25,
	/**
	 * Until the first answer, the loop that starts items gives way to the event loop at least
	 * this often (ms), so that the first answer (or 429) is read when it comes: a loop that
	 * starts items faster than the clock raises the limit would otherwise start the whole
	 * batch blind. After it, starting has the event loop first (a batch sent sooner ends sooner).
	 */
	yieldEveryMs: 10,
	/** Answers after which the fastest round trip is measured again (the service may have slowed for good). */
	rttResetAnswers: 2000,
	/**
	 * Idle this long (nothing in flight), the next request starts slow start again, from the
	 * limit halved for every such spell of idle, not below `initial` (TCP's congestion window
	 * validation, RFC 2861): the service may refuse now what it took before, and what it took
	 * seconds ago is a better first guess than a cold start.
	 */
	restartAfterIdleMs: 1000,
};

export type LimitPolicy = Readonly<typeof limitDefaults>;

export const LIMIT_POLICY: LimitPolicy = Object.freeze(limitDefaults);

export class AdaptiveLimit implements ConcurrencyLimit {
	private value: number;
	private inflight = 0;
	private slowStart = true;
	private slowStartFrom: number | undefined;
	private slowStartBase: number;
	/** Fastest round trip of an answered request, ms. */
	private fastest: number | undefined;
	private answers = 0;
	/** No second cut for answers to requests sent before the last one. */
	private lastCutAt = -Infinity;
	/** Items waiting for a place, from every run sharing the limit, oldest first. */
	private readonly queue = new WaitQueue();
	/** A timer is set for the place the clock adds next (slow start before the first answer). */
	private growing = false;
	private lastYield = -Infinity;
	/** When the last request in flight ended (restart after idle). */
	private idleSince = Infinity;
	/** Round trips of the last answers, ms (the delay signal). */
	private readonly recent: number[] = [];
	/** How late the last 0 ms timers fired, ms (watchLag). */
	private readonly lags: number[] = [];
	private watchingLag = false;

	constructor(
		private readonly policy: LimitPolicy = LIMIT_POLICY,
		private readonly clock: Clock = realClock,
	) {
		this.value = this.slowStartBase = policy.initial;
	}

	/** Requests (items) allowed in flight now. */
	get limit(): number {
		// The clock ramps only until the first answer: from then on answers pace the growth.
		if (!this.slowStart || this.slowStartFrom === undefined || this.fastest !== undefined)
			return Math.floor(this.value);
		const byClock =
			this.slowStartBase * 2 ** ((this.clock.now() - this.slowStartFrom) / this.policy.doublingMs);
		// Blind (no answer yet): never more than blindMax, whatever the clock says.
		return Math.floor(Math.max(this.value, Math.min(this.policy.blindMax, byClock)));
	}

	get inSlowStart(): boolean {
		return this.slowStart;
	}

	get running(): number {
		return this.inflight;
	}

	/** Items waiting for a place. */
	get waiting(): number {
		return this.queue.length;
	}

	/** Takes a place; while the limit is used up, waits behind the items that came first. */
	async acquire(signal?: AbortSignal): Promise<void> {
		throwIfStopped(signal);
		const idleMs = this.clock.now() - this.idleSince;
		if (this.inflight === 0 && idleMs >= this.policy.restartAfterIdleMs) this.restart(idleMs);
		this.slowStartFrom ??= this.clock.now();
		if (
			this.fastest === undefined &&
			this.clock.now() - this.lastYield >= this.policy.yieldEveryMs
		) {
			this.lastYield = this.clock.now(); // one turn given per interval, however many start at once
			await this.clock.sleep(0, signal);
			this.stalled(this.clock.now() - this.lastYield);
		}
		if (this.queue.length === 0 && this.inflight < this.limit) {
			this.take();
			return;
		}
		// Woken with its place taken (grant): by a release, an answer, or the clock in slow start.
		const turn = this.queue.wait(signal);
		this.growByClock();
		await turn;
		this.lastYield = this.clock.now();
	}

	private take(): void {
		this.inflight++;
		this.watchLag();
	}

	/** Gives the free places to the oldest waiters. */
	private grant(): void {
		while (this.queue.length > 0 && this.inflight < this.limit) {
			this.take();
			this.queue.wakeOne();
		}
		this.growByClock();
	}

	/**
	 * Before the first answer the limit rises with the clock: one timer for the moment it
	 * allows one more in flight, set only while an item waits (no polling).
	 */
	private growByClock(): void {
		if (this.growing || this.queue.length === 0 || !this.slowStart || this.fastest !== undefined)
			return;
		if (this.slowStartFrom === undefined || this.inflight + 1 > this.policy.blindMax) return;
		const at =
			this.slowStartFrom +
			this.policy.doublingMs * Math.log2((this.inflight + 1) / this.slowStartBase);
		this.growing = true;
		const wait = Math.max(1, Math.ceil(at - this.clock.now()));
		const due = this.clock.now() + wait;
		void this.clock.sleep(wait).then(() => {
			this.growing = false;
			this.stalled(this.clock.now() - due);
			this.grant();
		});
	}

	/**
	 * A timer fired `lateMs` late: n8n was busy (saving the execution before, a garbage
	 * collection). Before the first answer that time is not time the service had to answer
	 * in (the first requests may not even have left), so the clock's ramp leaves it out;
	 * otherwise one busy spell lets the ramp reach blindMax and start the whole batch before
	 * the first answer (or 429) is read.
	 */
	private stalled(lateMs: number): void {
		if (lateMs > 0 && this.fastest === undefined && this.slowStartFrom !== undefined)
			this.slowStartFrom += lateMs;
	}

	/**
	 * While requests are in flight, measures how late a 0 ms timer fires in this process:
	 * how long an answer that has arrived waits for n8n (its own work, a garbage collection)
	 * before the node reads it. That part of a round trip is no queue at the service.
	 */
	private watchLag(): void {
		if (this.watchingLag) return;
		this.watchingLag = true;
		const { clock, policy } = this;
		void (async () => {
			// Stops when idle, or after half a second without an answer (a run that stopped reading them).
			for (let quiet = 0; this.inflight > 0 && quiet < 500 / policy.lagEveryMs; quiet++) {
				const answers = this.answers;
				const from = clock.now();
				await clock.sleep(0);
				this.lags.push(Math.max(0, clock.now() - from - 1));
				if (this.lags.length > policy.lagSamples) this.lags.shift();
				await clock.sleep(policy.lagEveryMs);
				if (this.answers !== answers) quiet = -1;
			}
		})().finally(() => {
			this.watchingLag = false;
			this.lags.length = 0;
		});
	}

	/**
	 * Slow start again from the limit halved per restartAfterIdleMs idle (RFC 2861), by
	 * answers: the fastest round trip is kept, so the ramp is not blind.
	 */
	private restart(idleMs: number): void {
		const halved = this.limit / 2 ** (idleMs / this.policy.restartAfterIdleMs);
		this.value = this.slowStartBase = Math.max(Math.min(this.limit, this.policy.initial), halved);
		this.slowStart = true;
		this.slowStartFrom = undefined;
		this.recent.length = 0;
	}

	release(): void {
		this.inflight = Math.max(0, this.inflight - 1);
		if (this.inflight === 0) this.idleSince = this.clock.now();
		if (this.inflight === 0 && this.slowStart) {
			// Idle: the clock's growth stops here and resumes from this limit with the next request.
			this.value = this.slowStartBase = this.limit;
			this.slowStartFrom = undefined;
		}
		this.grant();
	}

	/** An answer (or a failure) to one request sent at `sentAt`. */
	observe(outcome: Outcome, sentAt: number): void {
		const now = this.clock.now();
		const rtt = Math.max(0, now - sentAt);
		if (outcome === 'ok') this.answered(rtt);
		else if (outcome === 'rateLimited') this.endSlowStart(this.limit);
		else if (sentAt > this.lastCutAt) {
			// Answers to requests sent before this cut were caused by the old limit: one cut per round trip.
			this.endSlowStart(Math.max(this.policy.min, this.limit * this.policy.decrease));
			this.lastCutAt = now;
		}
		this.grant();
	}

	private answered(rtt: number): void {
		if (this.fastest === undefined) this.value = this.limit; // what the clock reached stays
		if (++this.answers >= this.policy.rttResetAnswers) {
			this.answers = 0;
			this.fastest = undefined;
		}
		this.fastest = this.fastest === undefined ? rtt : Math.min(this.fastest, rtt);
		const base = this.fastest + this.policy.rttSlackMs;
		const limit = this.limit;
		// The delay signal is the fastest of the last few answers (HyStart's filter): one late
		// answer is n8n's own jitter; a queue at the service makes them all late.
		this.recent.push(rtt);
		if (this.recent.length > this.policy.samples) this.recent.shift();
		// Less the event loop's lateness of late (watchLag): n8n's own delay.
		const lag = this.lags.length ? Math.max(...this.lags) : 0;
		const delay = Math.max(this.fastest, Math.min(...this.recent) - lag);
		// Only a limit in use is judged (Netflix's rule): few items left say nothing about more.
		const used = this.inflight * 2 >= limit;
		if (this.slowStart) {
			if (delay > base * this.policy.exitRtt) {
				// At most halved (TCP's cut): the last answers may all have waited on n8n itself.
				this.endSlowStart(
					Math.max(this.policy.initial, limit * this.policy.decrease, (limit * base) / delay),
				);
			} else if (used && rtt <= base * this.policy.growRtt) {
				// A slow service (long round trips, no queue) is ramped by TCP's doubling per round trip.
				const growth = this.fastest >= this.policy.slowRttMs ? 1 : this.policy.growth;
				this.value = Math.min(this.policy.max, Math.max(this.value, limit) + growth);
			}
			return;
		}
		const queue = limit * (1 - Math.min(1, base / Math.max(delay, 1)));
		const step = Math.max(1, Math.log10(limit));
		// Vegas grows by log10(limit) per round trip (one answer is 1/limit of it) and gives
		// back the queue beyond beta within a round trip.
		if (queue < this.policy.alpha * step && used) this.value += step / limit;
		else if (queue > this.policy.beta * step) {
			const excess = Math.max(step, queue - this.policy.beta * step);
			this.value -= Math.min(excess, this.policy.maxCut * limit) / limit;
		}
		this.value = Math.min(this.policy.max, Math.max(this.policy.min, this.value));
	}

	private endSlowStart(to: number): void {
		this.value = Math.min(this.policy.max, Math.max(this.policy.min, to));
		this.slowStart = false;
	}
}
