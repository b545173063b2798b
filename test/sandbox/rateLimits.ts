/**
 * The rate-limit fault: per-key limits of several kinds, counted on the sandbox clock (so a
 * test moves an hour's window with POST /__sandbox/clock), and the signals a service sends
 * about them: 429 with `Retry-After` (seconds or an HTTP date) and, optionally, the budget in
 * `RateLimit-*` (IETF draft) or `X-RateLimit-*` headers.
 */
import type { Request, Response } from 'express';
import { bearerOf, requestIdOf, stateOf } from './http';
import type { FaultSettings, RateLimitRule } from './state';

const PER_MS = { second: 1000, minute: 60_000, hour: 3_600_000 } as const;

export function windowMsOf(rule: RateLimitRule): number {
	return typeof rule.per === 'number' ? rule.per * 1000 : PER_MS[rule.per];
}

function perText(rule: RateLimitRule): string {
	return typeof rule.per === 'number' ? `${rule.per} seconds` : rule.per;
}

/** One rule's count for one key: a fixed window's start and count, or a sliding window's log. */
export interface Counter {
	start: number;
	count: number;
	/** Sandbox times of the accepted requests still in a sliding window, oldest first. */
	times: number[];
}

/** Where one rule stands for a key at `now`: requests counted, and when one more fits. */
interface Standing {
	rule: RateLimitRule;
	used: number;
	/** When the count next goes down (a fixed window's end; the oldest leaving a sliding one). */
	resetAt: number;
}

function standing(rule: RateLimitRule, c: Counter, now: number): Standing {
	const w = windowMsOf(rule);
	if (rule.window === 'sliding') {
		while (c.times.length > 0 && c.times[0] <= now - w) c.times.shift();
		return { rule, used: c.times.length, resetAt: (c.times[0] ?? now) + w };
	}
	// A clock window starts on the clock's whole windows; a first-request one at the first
	// request after the last window ended (a window always has room when it starts).
	const start = rule.window === 'clock' ? Math.floor(now / w) * w : now;
	if (rule.window === 'clock' ? c.start !== start : now >= c.start + w) {
		c.start = start;
		c.count = 0;
	}
	return { rule, used: c.count, resetAt: c.start + w };
}

function count(rule: RateLimitRule, c: Counter, now: number): void {
	if (rule.window === 'sliding') c.times.push(now);
	else c.count += 1;
}

/** What the limits say of one request: accepted (and counted) or refused until `retryAt`. */
export interface Verdict {
	accepted: boolean;
	/** The rule announced: the one with the least left (refused: the one that frees last). */
	rule: RateLimitRule;
	remaining: number;
	resetAt: number;
	/** Refused: when every full rule has room again. */
	retryAt: number;
}

/**
 * Counts a request against every rule; it is accepted only when all have room, and then
 * counted by all. A refused request counts nowhere (a fixed window is full anyway; a
 * sliding one would otherwise never free while a client keeps asking).
 */
export function take(rules: RateLimitRule[], counters: Counter[], now: number): Verdict {
	const all = rules.map((rule, i) => standing(rule, counters[i], now));
	const full = all.filter((s) => s.used >= s.rule.limit);
	if (full.length > 0) {
		const last = full.reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
		return {
			accepted: false,
			rule: last.rule,
			remaining: 0,
			resetAt: last.resetAt,
			retryAt: last.resetAt,
		};
	}
	rules.forEach((rule, i) => count(rule, counters[i], now));
	const left = all.map((s) => ({ ...s, left: s.rule.limit - s.used - 1 }));
	const least = left.reduce((a, b) =>
		b.left < a.left || (b.left === a.left && b.resetAt > a.resetAt) ? b : a,
	);
	return {
		accepted: true,
		rule: least.rule,
		remaining: least.left,
		resetAt: least.resetAt,
		retryAt: now,
	};
}

/** The rules in force: `rateLimitPerSecond` is a per-second limit on the clock's seconds. */
export function rulesOf(f: FaultSettings): RateLimitRule[] {
	const rules = [...f.rateLimits];
	if (f.rateLimitPerSecond !== null)
		rules.unshift({ limit: f.rateLimitPerSecond, per: 'second', window: 'clock' });
	return rules;
}

/** Counters per settings object (new settings or a reset start afresh), then per key. */
const countersOf = new WeakMap<FaultSettings, Map<string, Counter[]>>();

/** Counters for `rules` that have counted nothing yet. */
export function freshCounters(rules: RateLimitRule[]): Counter[] {
	return rules.map(() => ({ start: -Infinity, count: 0, times: [] }));
}

function countersFor(f: FaultSettings, who: string, rules: RateLimitRule[]): Counter[] {
	const byKey = countersOf.get(f) ?? new Map<string, Counter[]>();
	countersOf.set(f, byKey);
	const found = byKey.get(who);
	if (found) return found;
	const fresh = freshCounters(rules);
	byKey.set(who, fresh);
	return fresh;
}

/** Seconds, to the millisecond, never below zero. */
const seconds = (ms: number) => Math.max(0, Math.ceil(ms)) / 1000;

/** The budget headers, when the settings announce them (none otherwise). */
export function budgetHeaders(f: FaultSettings, v: Verdict, now: number): Record<string, string> {
	if (f.rateLimitHeaders === null) return {};
	const prefix = f.rateLimitHeaders === 'ietf' ? 'RateLimit' : 'X-RateLimit';
	const form = f.rateLimitReset ?? (f.rateLimitHeaders === 'ietf' ? 'seconds' : 'epoch');
	const headers: Record<string, string> = {
		[`${prefix}-Limit`]: String(v.rule.limit),
		[`${prefix}-Remaining`]: String(v.remaining),
		[`${prefix}-Reset`]: String(
			form === 'epoch' ? Math.ceil(v.resetAt / 1000) : Math.ceil(seconds(v.resetAt - now)),
		),
	};
	if (f.rateLimitHeaders === 'ietf')
		headers['RateLimit-Policy'] = `${v.rule.limit};w=${windowMsOf(v.rule) / 1000}`;
	return headers;
}

/** A 429's `Retry-After` as the settings give it. */
export function retryAfter(f: FaultSettings, retryAt: number, now: number): string {
	// never earlier than the count allows: an honest Retry-After
	const wait = Math.max(f.retryAfterSeconds, seconds(retryAt - now));
	if (f.retryAfterAs === 'seconds') return String(wait);
	if (f.retryAfterAs === 'whole-seconds') return String(Math.ceil(wait));
	return new Date(Math.ceil((now + wait * 1000) / 1000) * 1000).toUTCString();
}

/**
 * Applies the rate limits to one /api/v1 request: true when it may go on (budget headers
 * set when announced), false when it was answered 429 RATE_LIMITED.
 */
export function rateLimit(req: Request, res: Response): boolean {
	const state = stateOf(req);
	const f = state.faults;
	const rules = rulesOf(f);
	if (rules.length === 0) return true;
	const now = state.nowMs();
	// The service's own time in Date, so that a Retry-After date or an epoch reset reads
	// right against it while the sandbox clock is moved.
	res.setHeader('Date', new Date(now).toUTCString());
	const v = take(rules, countersFor(f, bearerOf(req) ?? `ip:${req.ip}`, rules), now);
	for (const [name, value] of Object.entries(budgetHeaders(f, v, now))) res.setHeader(name, value);
	if (v.accepted) return true;
	res.locals.fault = 'rateLimit';
	const after = retryAfter(f, v.retryAt, now);
	res.setHeader('Retry-After', after);
	res.status(429).json({
		code: 'RATE_LIMITED',
		message: `Rate limit of ${v.rule.limit} requests per ${perText(v.rule)} exceeded; retry after ${after}${f.retryAfterAs === 'date' ? '' : ' seconds'}`,
		requestId: requestIdOf(res),
		timestamp: new Date(now).toISOString(),
	});
	return false;
}
