/**
 * One cell of the rate matrix (rate-matrix.test.ts): a batch of reads or creates through the
 * real transport and pacing (openPacing, apiRequest, storageRequest: the path the router and
 * the operations take), on a fake clock, against a service whose limit is counted by the
 * sandbox's own rules (test/sandbox/rateLimits.ts: a second reading of the limit kinds, not
 * the node's). The file that runs the cells puts the fake clock in place of the real one
 * (jest.mock of nodes/shared/run/clock), so every wait of the pacing is on it.
 */
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';

import { apiRequest, storageRequest } from '../../nodes/shared/http/transport';
import { forgetLearnedPaces } from '../../nodes/shared/pacing/credentialState';
import { openPacing } from '../../nodes/shared/pacing/pacing';
import type { ApiContext } from '../../nodes/shared/run/context';
import { budgetHeaders, freshCounters, retryAfter, take, windowMsOf } from '../sandbox/rateLimits';
import { defaultFaults, type RateLimitRule } from '../sandbox/state';
import type { BatchClock } from './fake-clock';

export type WindowKind = RateLimitRule['window'];

export interface Cell {
	limit: number;
	per: 'second' | 'minute';
	window: WindowKind;
	serviceMs: number;
	/** The budget announced in headers, and in which form (`ietf`: RateLimit-*, `x`: X-RateLimit-*). */
	headers: 'none' | 'ietf' | 'x';
	op: 'read' | 'create';
	/** Extra time on the way out, varying from request to request up to this (n8n busy, a network), ms. */
	jitterMs?: number;
	/** Retry-After in whole seconds (the default, RFC 9110's delay-seconds) or to the millisecond. */
	retryAfter?: 'whole-seconds' | 'seconds';
}

export interface Figures {
	items: number;
	accepted: number;
	refused: number;
	/** Items that failed (none expected: 429s are sent again). */
	failed: number;
	wallMs: number;
	/** items / limit windows: the time a batch takes at the limit. */
	floorMs: number;
	/** The window (from the batch's start) of the first 429; -1 without one. */
	firstRefusedWindow: number;
	/** 429s in the windows after the first refused window, and the most in one of them. */
	laterRefused: number;
	worstLaterWindow: number;
}

/** Network time each way; a 429 comes back after two of it, an accepted request after the service time. */
const NET_MS = 1;
/** Batches start this far into the clock's minute (and so 370 ms into its second). */
const PHASE_MS = 22_370;

/** Items per cell: enough windows after the first for a pace to show, few enough for `npm test`. */
export function itemsOf(cell: Cell): number {
	return Math.max(cell.per === 'second' ? 50 : 120, 3 * cell.limit);
}

/** The service: counts each request on arrival as the sandbox does, answers 429 at once, the rest after the service time. */
function service(cell: Cell, clock: BatchClock, log: Array<{ at: number; ok: boolean }>) {
	const rules: RateLimitRule[] = [{ limit: cell.limit, per: cell.per, window: cell.window }];
	const counters = freshCounters(rules);
	const faults = {
		...defaultFaults(),
		rateLimitHeaders: cell.headers === 'none' ? null : cell.headers,
		retryAfterAs: cell.retryAfter ?? 'whole-seconds', // RFC 9110: delay-seconds
	};
	let created = 0;
	let sent = 0;
	return {
		async api(options: IHttpRequestOptions) {
			// A fixed spread of arrival delays (0 .. jitterMs), the same for every run of the cell.
			const jitter = cell.jitterMs ? (sent++ * 7) % (cell.jitterMs + 1) : 0;
			await clock.sleep(NET_MS + jitter);
			const now = clock.now();
			const verdict = take(rules, counters, now);
			log.push({ at: now, ok: verdict.accepted });
			const headers: IDataObject = {
				date: new Date(now).toUTCString(),
				...budgetHeaders(faults, verdict, now),
			};
			if (!verdict.accepted) {
				headers['retry-after'] = retryAfter(faults, verdict.retryAt, now);
				await clock.sleep(NET_MS);
				return { statusCode: 429, headers, body: '{"code":"RATE_LIMITED","message":"slow down"}' };
			}
			await clock.sleep(Math.max(0, cell.serviceMs - NET_MS));
			if (options.method !== 'POST') return { statusCode: 200, headers, body: '{"id":"env_1"}' };
			const id = `env_${++created}`;
			const body = { id, upload: { url: `https://storage.example/${id}` } };
			return { statusCode: 201, headers, body: JSON.stringify(body) };
		},
		async storage() {
			await clock.sleep(cell.serviceMs);
			return { statusCode: 200, headers: {}, body: '' };
		},
	};
}

/** The n8n context a node run gives the transport: its credential and its two request helpers. */
function contextOf(apiKey: string, model: ReturnType<typeof service>): ApiContext {
	const node = { name: 'Document Signing', type: 'documentSigning', parameters: {} } as INode;
	return {
		getNode: () => node,
		getCredentials: async () => ({ baseUrl: 'https://signing.example/api/v1', apiKey }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
				await model.api(options),
			httpRequest: async () => await model.storage(),
		},
	} as unknown as ApiContext;
}

/** One item: a read (GET), or a create (POST, not resendable) and its upload to storage. */
async function item(context: ApiContext, op: Cell['op'], index: number): Promise<void> {
	if (op === 'read') {
		await apiRequest.call(context, 'GET', `/envelopes/env_${index}`, { itemIndex: index });
		return;
	}
	const created = (await apiRequest.call(context, 'POST', '/envelopes', {
		body: { title: `Lease ${index}` },
		itemIndex: index,
	})) as IDataObject;
	const upload = created.upload as IDataObject;
	await storageRequest.call(context, { method: 'PUT', url: String(upload.url), body: 'pdf' });
}

let cells = 0;

/** Runs the cell's batch as the router does (a place per item, given back when it ends) and measures it. */
export async function runCell(cell: Cell, clock: BatchClock): Promise<Figures> {
	forgetLearnedPaces();
	const windowMs = windowMsOf({ limit: cell.limit, per: cell.per, window: cell.window });
	// A fresh hour on the clock, so that no cell sees another's windows.
	clock.set(Math.ceil((clock.now() + 1) / 3_600_000) * 3_600_000 + PHASE_MS);
	const log: Array<{ at: number; ok: boolean }> = [];
	const context = contextOf(`key-${++cells}`, service(cell, clock, log));
	const items = itemsOf(cell);
	const start = clock.now();
	let failed = 0;
	let over = false;
	const batch = (async () => {
		const pacing = await openPacing(context, {});
		if ('refused' in pacing) throw new Error(pacing.refused);
		const running = new Set<Promise<void>>();
		for (let i = 0; i < items; i++) {
			await pacing.limit.acquire();
			const one: Promise<void> = item(context, cell.op, i)
				.catch(() => void failed++)
				.finally(() => {
					pacing.limit.release();
					running.delete(one);
				});
			running.add(one);
		}
		await Promise.all(running);
		pacing.close();
	})().finally(() => (over = true));
	await clock.runWhile(() => !over);
	await batch;
	const wallMs = clock.now() - start;
	// Let the timers the run left (a lost-answer timer, the lag watch) run out before the next cell.
	await clock.runWhile(() => clock.pending > 0);
	return figures(cell, items, log, start, windowMs, wallMs, failed);
}

function figures(
	cell: Cell,
	items: number,
	log: Array<{ at: number; ok: boolean }>,
	start: number,
	windowMs: number,
	wallMs: number,
	failed: number,
): Figures {
	const refusedAt = log.filter((r) => !r.ok).map((r) => Math.floor((r.at - start) / windowMs));
	const first = refusedAt.length ? refusedAt[0] : -1;
	const perWindow = new Map<number, number>();
	for (const w of refusedAt) if (w > first) perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
	return {
		items,
		accepted: log.filter((r) => r.ok).length,
		refused: refusedAt.length,
		failed,
		wallMs,
		floorMs: (items / cell.limit) * windowMs,
		firstRefusedWindow: first,
		laterRefused: [...perWindow.values()].reduce((a, b) => a + b, 0),
		worstLaterWindow: Math.max(0, ...perWindow.values()),
	};
}
