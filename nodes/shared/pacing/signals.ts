import type { IDataObject } from 'n8n-workflow';

/**
 * What an answer said about the service's rate limit, read in one place: the wait it asked
 * for (`Retry-After`) and the budget it announced (`RateLimit-*` of the IETF draft, in its
 * older separate headers and its later `RateLimit`/`RateLimit-Policy` fields, or the common
 * `X-RateLimit-*`). Pure: what to do with them is decided by the pacing that consumes them.
 * Times are taken from the answer's `Date` when it has one: the service's clock, not ours,
 * tells how far its dates and epoch times are.
 */

/** The budget a service announced. */
export interface AnnouncedBudget {
	/** `RateLimit-*`, `RateLimit`/`RateLimit-Policy` (IETF draft) or `X-RateLimit-*`. */
	headers: 'ietf' | 'x';
	/** Requests allowed per window. */
	limit?: number;
	/** Requests left in this window. */
	remaining?: number;
	/** Milliseconds from the answer until the budget resets. */
	resetMs?: number;
	/** How the reset was given: seconds from the answer, or an epoch time (seconds or ms). */
	resetForm?: 'seconds' | 'epoch';
	/** The window's length, when a policy names it (`w=60`). */
	windowMs?: number;
}

export interface RateSignals {
	/** 429 Too Many Requests: refused for the rate. */
	refused: boolean;
	/** The wait of `Retry-After` in milliseconds from the answer, uncapped. */
	waitMs?: number;
	/** How `Retry-After` was given: seconds, or an HTTP date. */
	waitForm?: 'seconds' | 'date';
	budget?: AnnouncedBudget;
}

/** Header lookup by lowercase name; a repeated header's first value. */
type Header = (name: string) => string | undefined;

function headerReader(headers: IDataObject | undefined): Header {
	const byName = new Map<string, unknown>();
	for (const [name, value] of Object.entries(headers ?? {})) byName.set(name.toLowerCase(), value);
	return (name) => {
		const raw = byName.get(name);
		const value = Array.isArray(raw) ? raw[0] : raw;
		if (value === undefined || value === null) return undefined;
		const text = String(value).trim();
		return text === '' ? undefined : text;
	};
}

const NUMBER = /^\d+(\.\d+)?$/;

/** A non-negative number, or the leading one of a list item such as `100;w=60, 1000;w=3600`. */
function leadingNumber(text: string | undefined): number | undefined {
	const first = text?.split(',')[0].split(';')[0].trim();
	return first !== undefined && NUMBER.test(first) ? Number(first) : undefined;
}

/** A parameter of a structured field such as `"default";r=50;t=30` (its first item). */
function parameter(text: string | undefined, name: string): number | undefined {
	const item = text?.split(',')[0];
	const match = item?.match(new RegExp(`;\\s*${name}=(\\d+(?:\\.\\d+)?)`));
	return match ? Number(match[1]) : undefined;
}

/** `Retry-After`: delay seconds (fractions kept) or an HTTP date, against the answer's time. */
function readWait(
	text: string | undefined,
	answeredAt: number,
): Pick<RateSignals, 'waitMs' | 'waitForm'> {
	if (text === undefined) return {};
	if (NUMBER.test(text)) return { waitMs: Number(text) * 1000, waitForm: 'seconds' };
	const date = Date.parse(text);
	if (Number.isNaN(date)) return {};
	return { waitMs: Math.max(0, date - answeredAt), waitForm: 'date' };
}

/** Epoch times are told from seconds by size: no window lasts the 31 years 1e9 seconds are. */
function readReset(value: number | undefined, answeredAt: number): Partial<AnnouncedBudget> {
	if (value === undefined) return {};
	if (value < 1e9) return { resetMs: value * 1000, resetForm: 'seconds' };
	const epochMs = value < 1e12 ? value * 1000 : value;
	return { resetMs: Math.max(0, epochMs - answeredAt), resetForm: 'epoch' };
}

/** Drops the fields not given, so that a budget says only what the service said. */
function given(budget: AnnouncedBudget): AnnouncedBudget | undefined {
	const out = Object.fromEntries(Object.entries(budget).filter(([, v]) => v !== undefined));
	return Object.keys(out).length > 1 ? (out as unknown as AnnouncedBudget) : undefined;
}

/**
 * The window of `limit` in a list of quota policies, as in `RateLimit-Limit: 100, 100;w=60`
 * or `RateLimit-Policy: 100;w=60, 1000;w=3600` (the first policy when none has that quota).
 */
function windowOf(text: string | undefined, limit: number | undefined): number | undefined {
	const items = (text ?? '').split(',').map((item) => ({
		quota: leadingNumber(item) ?? parameter(item, 'q'),
		window: parameter(item, 'w'),
	}));
	const withWindow = items.filter((item) => item.window !== undefined);
	const window = (withWindow.find((item) => item.quota === limit) ?? withWindow[0])?.window;
	return window === undefined ? undefined : window * 1000;
}

function ietfBudget(header: Header, answeredAt: number): AnnouncedBudget | undefined {
	// the later drafts: `RateLimit: "default";r=50;t=30`, `RateLimit-Policy: "default";q=100;w=60`
	const field = header('ratelimit');
	const policy = header('ratelimit-policy');
	const limitText = header('ratelimit-limit');
	const limit = leadingNumber(limitText) ?? parameter(policy, 'q') ?? leadingNumber(policy);
	return given({
		headers: 'ietf',
		limit,
		remaining: leadingNumber(header('ratelimit-remaining')) ?? parameter(field, 'r'),
		...readReset(leadingNumber(header('ratelimit-reset')) ?? parameter(field, 't'), answeredAt),
		windowMs: windowOf(policy, limit) ?? windowOf(limitText, limit),
	});
}

function xBudget(header: Header, answeredAt: number): AnnouncedBudget | undefined {
	return given({
		headers: 'x',
		limit: leadingNumber(header('x-ratelimit-limit')),
		remaining: leadingNumber(header('x-ratelimit-remaining')),
		...readReset(leadingNumber(header('x-ratelimit-reset')), answeredAt),
	});
}

/**
 * What an answer with `status` and `headers` said about the rate limit. `now` stands for the
 * answer's time when it has no readable `Date`.
 */
export function rateSignals(
	answer: { status?: number; headers?: IDataObject },
	now = Date.now(),
): RateSignals {
	const header = headerReader(answer.headers);
	const date = Date.parse(header('date') ?? '');
	const answeredAt = Number.isNaN(date) ? now : date;
	const budget = ietfBudget(header, answeredAt) ?? xBudget(header, answeredAt);
	return {
		refused: answer.status === 429,
		...readWait(header('retry-after'), answeredAt),
		...(budget ? { budget } : {}),
	};
}
