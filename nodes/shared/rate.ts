import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

/**
 * One pace for all requests a node run sends with one credential. A 429 pauses every
 * request of the run until its Retry-After has passed; the pace then resumes below the
 * rate the service accepted and climbs back (additive increase, multiplicative decrease),
 * so a batch settles at the service's limit instead of bursting into it again.
 */

export interface RateSettings {
	/** Requests started per second from the start; 0 or undefined: unpaced until a 429. */
	maxPerSecond?: number;
	/** Requests the run keeps in flight (its items run at once); starts are spread over their round trip. */
	parallel?: number;
}

export interface RateStats {
	/** Requests started (every attempt). */
	requests: number;
	/** Attempts sent again after a failure that is safe to resend (429 excluded). */
	retried: number;
	/** 429 answers received. */
	rateLimited: number;
	/** Pauses of the whole run for a Retry-After. */
	pauses: number;
	/** Total time the run was paused. */
	pausedMs: number;
}

/** Tuning of the controller; a test may change it, node code does not. */
export const RATE_POLICY = {
	/** The pace after a 429, as a share of the rate the service accepted in the last second. */
	decrease: 0.95,
	/** Lowest pace after repeated 429s, requests per second. */
	minPerSecond: 0.5,
	/** Climb per second while below `settle` x the rate accepted before the last 429 (share of it). */
	recover: 0.02,
	/** Where the quick climb ends: just under the rate that met the limit. */
	settle: 0.97,
	/** Climb per second beyond that: slow probing for a higher limit (share of it). */
	probe: 0.002,
	/** Fewest accepted requests in the window from which a rate is taken. */
	minSample: 10,
	/** The window before a refused request in which the requests the service accepted are counted. */
	windowMs: 1000,
	/** How long a learned pace is kept for the later nodes of the same execution. */
	rememberMs: 30 * 60_000,
	/**
	 * Unpaced starts are spread: at least this share of (round trip / parallel requests)
	 * apart, at most `spreadMaxMs`. Requests started together come back together and wait
	 * for each other's processing; spread, each is handled as it arrives. The share is
	 * below 1, so the spread never holds requests below what the parallel slots allow.
	 */
	spreadShare: 0.8,
	spreadMaxMs: 5,
	/** Weight of the newest round trip in the running average. */
	roundTripWeight: 0.2,
};

/** The pace a node run settled at after the service answered 429, kept for the later nodes of its execution. */
export interface LearnedPace {
	/** The rate the service accepted when it answered 429. */
	accepted: number;
	perSecond: number;
	/** The next start slot on the earlier node's timeline: the pace goes on from there. */
	nextStart: number;
}

/** A permit to send one request; tells the controller which pace it was sent under. */
export interface Ticket {
	epoch: number;
	/** When the request was let go (ms since epoch). */
	at: number;
	/** Set when the service answered 429. */
	refused?: boolean;
}

export class RateController {
	readonly stats: RateStats = { requests: 0, retried: 0, rateLimited: 0, pauses: 0, pausedMs: 0 };

	/** Current pace in requests per second; Infinity: unpaced. */
	private perSecond: number;
	private readonly ceiling: number;
	/** The rate the service accepted when it last answered 429. */
	private accepted: number | undefined;
	private nextStart = 0;
	private pausedUntil = 0;
	/** Counts pauses that lowered the pace: a permit from before the last one is stale. */
	private epoch = 0;
	/** Counts 429s: a start slot reserved before the last one is given up and queued again. */
	private generation = 0;
	/** Requests let go in the last two windows, oldest first (a refused one looks back a window from its own start). */
	private readonly recent: Ticket[] = [];
	private readonly parallel: number;
	/** Running average of the round trip of accepted requests, ms; undefined before the first. */
	private roundTripMs: number | undefined;
	/** Told when a 429 sets a new pace (rateControllerFor keeps the controller for the later nodes of the execution). */
	onLearned?: () => void;

	constructor(settings: RateSettings = {}, learned?: LearnedPace) {
		const max = Number(settings.maxPerSecond);
		this.ceiling = Number.isFinite(max) && max > 0 ? max : Infinity;
		this.perSecond = this.ceiling;
		this.parallel = Math.max(1, Math.floor(Number(settings.parallel) || 1));
		if (learned) {
			// Start where an earlier node of the execution settled, not with a burst into the limit.
			this.accepted = learned.accepted;
			this.perSecond = Math.min(this.ceiling, learned.perSecond);
			// Requests the earlier node sent in the last second still count at the service.
			this.nextStart = learned.nextStart;
		}
	}

	/** What the next node of the execution starts from with this credential; undefined before any 429. */
	get learned(): LearnedPace | undefined {
		if (this.accepted === undefined || !Number.isFinite(this.perSecond)) return undefined;
		return { accepted: this.accepted, perSecond: this.perSecond, nextStart: this.nextStart };
	}

	/** Current pace (Infinity when unpaced). */
	get pace(): number {
		return this.perSecond;
	}

	/** Waits until the pace and any pause allow one more request to start. */
	async acquire(): Promise<Ticket> {
		for (;;) {
			const now = Date.now();
			if (this.pausedUntil > now) {
				await sleep(this.pausedUntil - now);
				continue;
			}
			const { epoch, generation } = this;
			const gap = Math.max(Number.isFinite(this.perSecond) ? 1000 / this.perSecond : 0, this.spreadMs());
			// Slots follow the planned timeline, not the moment a timer fired: a timer a little
			// late each time would otherwise lower the pace by its lateness. After a quiet spell
			// the timeline starts again from now (no burst to catch up).
			const start = this.nextStart > now - gap ? this.nextStart : now;
			if (gap > 0) this.nextStart = start + gap;
			if (start > now) await sleep(start - now);
			if (generation !== this.generation) continue; // a 429 came meanwhile: queue again behind its pause
			this.stats.requests++;
			const ticket: Ticket = { epoch, at: Date.now() };
			this.recent.push(ticket);
			while (this.recent[0].at <= ticket.at - 2 * RATE_POLICY.windowMs) this.recent.shift();
			return ticket;
		}
	}

	/** The least time between two starts that spreads the parallel requests over their round trip. */
	private spreadMs(): number {
		if (this.parallel < 2 || this.roundTripMs === undefined) return 0;
		return Math.min(RATE_POLICY.spreadMaxMs, (RATE_POLICY.spreadShare * this.roundTripMs) / this.parallel);
	}

	/** The service accepted the request (any answer but 429): the pace climbs. */
	succeeded(ticket?: Ticket): void {
		const now = Date.now();
		if (ticket) {
			const took = now - ticket.at;
			const weight = RATE_POLICY.roundTripWeight;
			this.roundTripMs = this.roundTripMs === undefined ? took : this.roundTripMs + weight * (took - this.roundTripMs);
		}
		if (!Number.isFinite(this.perSecond) || this.accepted === undefined) return;
		const below = this.perSecond < this.accepted * RATE_POLICY.settle;
		const share = below ? RATE_POLICY.recover : RATE_POLICY.probe;
		// `share` of the accepted rate per second, spread over the requests of that second.
		this.perSecond = Math.min(
			this.ceiling,
			this.perSecond + (share * this.accepted) / this.perSecond,
		);
	}

	/**
	 * The service answered 429: every request waits `retryAfterMs`, and the pace drops
	 * below what was accepted in the last second. Answers to requests sent before a pause
	 * that already lowered the pace only lengthen the pause.
	 */
	rateLimited(ticket: Ticket, retryAfterMs: number): void {
		const now = Date.now();
		this.stats.rateLimited++;
		ticket.refused = true;
		const until = now + Math.max(0, retryAfterMs);
		if (ticket.epoch === this.epoch) {
			// What the service accepted: the requests let go in the window before the refused one
			// (counted by the service ahead of it), answered or still on their way back.
			const since = ticket.at - RATE_POLICY.windowMs;
			const count = this.recent.filter((t) => t.at > since && t.at <= ticket.at && t !== ticket && !t.refused).length;
			// A handful tells nothing about the rate: then only a running pace drops.
			const seen = count >= RATE_POLICY.minSample ? count : Infinity;
			const accepted = Math.min(seen, this.perSecond);
			if (Number.isFinite(accepted)) {
				this.accepted = accepted;
				this.perSecond = Math.min(
					this.ceiling,
					Math.max(RATE_POLICY.minPerSecond, accepted * RATE_POLICY.decrease),
				);
			}
			this.epoch++;
			this.stats.pauses++;
			this.onLearned?.();
		}
		if (until > this.pausedUntil) {
			this.stats.pausedMs += until - Math.max(now, this.pausedUntil);
			this.pausedUntil = until;
		}
		// Slots reserved before are given up (see acquire): the pace restarts after the pause.
		this.generation++;
		this.nextStart = this.pausedUntil;
	}
}

/** Controllers and settings of each node run (the run's context object) by credential. */
const runs = new WeakMap<
	object,
	{ settings: RateSettings; controllers: Map<string, RateController> }
>();

function runOf(context: object) {
	let run = runs.get(context);
	if (!run) {
		run = { settings: {}, controllers: new Map() };
		runs.set(context, run);
	}
	return run;
}

/** Sets the pacing of a node run before its first request. */
export function configureRate(context: object, settings: RateSettings): void {
	runOf(context).settings = settings;
}

/**
 * Paces learned from 429s, by execution and credential, for the later nodes of the same
 * execution: without it every node of a batch workflow would burst into the limit and wait
 * out a Retry-After before settling. Another execution starts unpaced. Keyed by a hash, so
 * no API key is held here.
 */
const learnedPaces = new Map<string, { from: RateController; at: number }>();

function forgetStale(now: number): void {
	for (const [id, entry] of learnedPaces) if (now - entry.at >= RATE_POLICY.rememberMs) learnedPaces.delete(id);
}

/** The execution a node run belongs to, when the context tells it. */
function executionOf(context: object): string | undefined {
	const getExecutionId = (context as { getExecutionId?: () => string }).getExecutionId;
	return typeof getExecutionId === 'function' ? getExecutionId.call(context) : undefined;
}

/** The controller of this run for one credential (the key identifies it in memory only). */
export function rateControllerFor(context: object, credentialKey: string): RateController {
	const run = runOf(context);
	let controller = run.controllers.get(credentialKey);
	if (!controller) {
		const execution = executionOf(context);
		const id = execution ? createHash('sha256').update(`${execution}\n${credentialKey}`).digest('hex') : undefined;
		forgetStale(Date.now());
		// The earlier node's pace as it is now (it went on climbing after its last 429).
		const created = new RateController(run.settings, id ? learnedPaces.get(id)?.from.learned : undefined);
		if (id) created.onLearned = () => learnedPaces.set(id, { from: created, at: Date.now() });
		controller = created;
		run.controllers.set(credentialKey, controller);
	}
	return controller;
}

/** Forgets every learned pace (tests start each case without one). */
export function forgetLearnedPaces(): void {
	learnedPaces.clear();
}

/** The run's figures over all its credentials. */
export function rateStatsOf(context: object): RateStats {
	const total: RateStats = { requests: 0, retried: 0, rateLimited: 0, pauses: 0, pausedMs: 0 };
	for (const controller of runs.get(context)?.controllers.values() ?? []) {
		for (const key of Object.keys(total) as Array<keyof RateStats>) {
			total[key] += controller.stats[key];
		}
	}
	return total;
}
