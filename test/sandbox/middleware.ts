/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Request-level machinery: request ids, the request log (API and storage requests), and
 * the injected faults of /api/v1 (latency, rate limits: rateLimits.ts, capacity, failures,
 * connection resets, malformed JSON answers, held sockets).
 */
import { randomBytes } from 'crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { GUESSED_ERROR_STATUS } from './guesses';
import { rateLimit } from './rateLimits';
import { bearerOf, requestIdOf, stateOf } from './http';
import type { FaultRule } from './state';

export function requestId(): RequestHandler {
	return (req, res, next) => {
		// hex, like the other ids: opaque, and safe in any log or pattern
		const id = `req_${randomBytes(8).toString('hex')}`;
		res.locals.requestId = id;
		res.setHeader('X-Request-Id', id);
		next();
	};
}

/** Logs method, path, query, body, key id (never the secret), status and whether a key was sent. */
export function requestLog(opts: { logBody: boolean }): RequestHandler {
	return (req, res, next) => {
		const state = stateOf(req);
		const secret = bearerOf(req);
		const entry = {
			method: req.method,
			path: req.originalUrl.split('?')[0],
			query: { ...(req.query as Record<string, unknown>) },
			body: null as unknown,
			keyId: secret ? (state.findKey(secret)?.id ?? null) : null,
			status: null as number | null,
			hasAuthorization: req.headers.authorization !== undefined,
			time: state.nowIso(),
			/** The injected fault that hit this request, if any. */
			fault: null as string | null,
		};
		const generation = state.generation;
		let done = false;
		const finish = (status: number | null) => {
			if (done) return;
			done = true;
			entry.status = status;
			entry.fault = (res.locals.fault as string | undefined) ?? null;
			entry.body = opts.logBody ? (req.body ?? null) : null;
			// A reset in between starts a new log; the request that triggered it is not kept.
			if (generation === state.generation) state.requestLog.push(entry);
		};
		res.on('finish', () => finish(res.statusCode));
		res.on('close', () => finish(res.writableFinished ? res.statusCode : null));
		next();
	};
}

function hits(req: Request, rule: FaultRule | null | undefined): boolean {
	if (!rule) return false;
	if (rule.path && !req.path.startsWith(rule.path)) return false;
	if (rule.count !== undefined && rule.count !== null && rule.hits >= rule.count) return false;
	if (stateOf(req).random() >= rule.rate) return false;
	rule.hits += 1;
	return true;
}

function codeForStatus(status: number): string {
	const found = Object.entries(GUESSED_ERROR_STATUS).find(([, s]) => s === status);
	return found ? found[0] : status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
}

/** The capacity fault's line: requests in flight (serving and waiting) and the free slots. */
interface Line {
	inFlight: number;
	serving: number;
	waiting: Array<() => void>;
}
const lines = new WeakMap<object, Line>();

/**
 * Takes a serving slot (waiting in line, first come first served, when all are busy);
 * `false` when the request is one too many (the caller answers 503). The returned release
 * frees the slot once the request has been served for its latency.
 */
async function enterLine(
	state: object,
	slots: number,
	maxInFlight: number,
	res: Response,
): Promise<false | (() => void)> {
	const line = lines.get(state) ?? { inFlight: 0, serving: 0, waiting: [] };
	lines.set(state, line);
	if (line.inFlight >= maxInFlight) return false;
	line.inFlight += 1;
	let left = false;
	res.on('close', () => {
		if (!left) line.inFlight -= 1;
		left = true;
	});
	if (line.serving >= slots) await new Promise<void>((resolve) => line.waiting.push(resolve));
	else line.serving += 1;
	return () => {
		const next = line.waiting.shift();
		if (next)
			next(); // the slot passes to the next in line
		else line.serving -= 1;
	};
}

export function faults(): RequestHandler {
	return async (req: Request, res: Response, next: NextFunction) => {
		const state = stateOf(req);
		const f = state.faults;

		if (!rateLimit(req, res)) return;

		let release: false | (() => void) = () => undefined;
		if (f.capacity) {
			release = await enterLine(state, f.capacity.slots, f.capacity.maxInFlight, res);
			if (!release) {
				res.locals.fault = 'capacity';
				res.setHeader('Retry-After', String(f.retryAfterSeconds));
				res.status(503).json({
					code: 'SERVICE_UNAVAILABLE',
					message: `More than ${f.capacity.maxInFlight} requests in flight; retry later`,
					requestId: requestIdOf(res),
					timestamp: new Date().toISOString(),
				});
				return;
			}
		}
		const latency =
			f.latencyMaxMs !== null && f.latencyMaxMs > f.latencyMs
				? f.latencyMs + Math.floor(state.random() * (f.latencyMaxMs - f.latencyMs + 1))
				: f.latencyMs;
		if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
		release();

		if (hits(req, f.timeout)) {
			res.locals.fault = 'timeout';
			return; // hold the socket: never answer
		}

		if (hits(req, f.connectionReset)) {
			res.locals.fault = 'connectionReset';
			const socket = req.socket as import('net').Socket & { resetAndDestroy?: () => void };
			if (socket.resetAndDestroy) socket.resetAndDestroy();
			else socket.destroy();
			return;
		}

		const failure = f.failures.find((rule) => hits(req, rule));
		if (failure) {
			res.locals.fault = `status${failure.status}`;
			const code = codeForStatus(failure.status);
			if (failure.status === 429 || failure.status === 503) {
				res.setHeader('Retry-After', String(f.retryAfterSeconds));
			}
			res.status(failure.status).json({
				code,
				message: `Injected failure (HTTP ${failure.status})`,
				requestId: requestIdOf(res),
				timestamp: new Date().toISOString(),
			});
			return;
		}

		if (hits(req, f.malformedJson)) {
			res.locals.fault = 'malformedJson';
			// The route runs (its effects happen) but the answer is cut short.
			res.json = (body: unknown) => {
				const text = JSON.stringify(body) ?? 'null';
				res.setHeader('Content-Type', 'application/json; charset=utf-8');
				return res.send(`${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}<<malformed`);
			};
		}
		next();
	};
}
