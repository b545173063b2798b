import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { cancelSignalOf, isStopped, pause, stopNow, throwIfStopped } from '../run/cancel';
import { NOT_SENT_CODES, systemErrorCode } from '../pacing/failures';
import { backoffMs, type RetryPolicy } from '../pacing/retry';

import type { GuardPolicy, PinnedTarget, ResolvedAddress, Resolver } from '../guard/addressGuard';
import { AddressRefused, pinTarget } from '../guard/addressGuard';
import { isRedirect } from '../http/redirects';
import type { ApiContext } from '../run/context';
import { runPacing } from '../http/transport';

/**
 * Fetching an address other than the API's through the address guard (addressGuard.ts):
 * every hop of a redirect is checked again (at most MAX_HOPS), the answer is read as a
 * stream and abandoned at the size limit, and failures are told without the remote body.
 * A refused, closed or silent port all read "could not be fetched", so the messages cannot
 * be used to scan ports.
 */

/** Redirects followed for one fetch. */
export const MAX_HOPS = 5;

export interface GuardedFetchOptions extends GuardPolicy {
	/** The field the address came from, as the user sees it ("PDF URL"). */
	field: string;
	/** The answer is abandoned past this many bytes. */
	maxBytes: number;
	accept?: string;
	itemIndex?: number;
	/** Replaces n8n's name lookup (tests). */
	resolver?: Resolver;
}

export interface FetchedFile {
	buffer: Buffer;
	/** The address that answered (after redirects). */
	url: URL;
	contentType: string;
}

interface LookupLike {
	(
		hostname: string,
		options: { all: true },
		callback: (error: Error | null, addresses: ResolvedAddress[]) => void,
	): void;
}

/**
 * n8n's own name lookup for nodes (n8n 2.x): with N8N_SSRF_PROTECTION_ENABLED it also refuses
 * what n8n's settings refuse. Undefined on n8n versions without it (1.x).
 */
export function helperResolver(context: ApiContext): Resolver | undefined {
	const helpers = context.helpers as {
		getSecureEgressFilter?: () => { createSecureLookup(): unknown };
	};
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	const lookup = helpers.getSecureEgressFilter().createSecureLookup() as LookupLike;
	return async (hostname) =>
		await new Promise<ResolvedAddress[]>((resolve, reject) => {
			lookup(hostname, { all: true }, (error, addresses) =>
				error ? reject(error) : resolve(addresses),
			);
		});
}

/** n8n's SSRF protection refused the address (its error names no port or body). */
function isN8nSsrfBlock(error: unknown): boolean {
	const seen = new Set<unknown>();
	for (
		let e = error;
		e && typeof e === 'object' && !seen.has(e);
		e = (e as { cause?: unknown }).cause
	) {
		seen.add(e);
		if (/^Ssrf/.test(String((e as { name?: unknown }).name))) return true;
	}
	return false;
}

/** The guard's decision for one address, as the field's error; rethrows anything else. */
export async function pinOrRefuse(
	this: ApiContext,
	url: URL,
	options: Pick<GuardedFetchOptions, 'rule' | 'allowInternal' | 'field' | 'itemIndex' | 'resolver'>,
): Promise<PinnedTarget> {
	const fail = (rule: string) =>
		new NodeOperationError(this.getNode(), `${options.field}: ${rule}`, {
			itemIndex: options.itemIndex,
		});
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		throw fail(`only http:// and https:// addresses are fetched, not ${url.protocol}//`);
	if (url.username || url.password)
		throw fail('the address holds a user name or password; remove them');
	try {
		return await pinTarget(url, options, options.resolver ?? helperResolver(this));
	} catch (error) {
		if (error instanceof AddressRefused) throw fail(error.reason);
		throw fail(failureReason(error));
	}
}

function failureReason(error: unknown): string {
	// n8n 2.x's allow lists (@n8n/config, read in 2.41.1); n8n 1.x has no such protection.
	if (isN8nSsrfBlock(error))
		return "the address is refused by n8n's request protection (N8N_SSRF_PROTECTION_ENABLED); ask the n8n administrator to allow it (its address in N8N_SSRF_ALLOWED_IP_RANGES, or its name in N8N_SSRF_ALLOWED_HOSTNAMES)";
	return 'the address could not be fetched';
}

type Stream = AsyncIterable<Buffer> & { destroy?: () => void };

function discard(body: unknown): void {
	(body as Stream | undefined)?.destroy?.();
}

/** One deadline for a whole fetch: hops, headers and body (the request timeout covers headers only). */
interface Deadline {
	/** Aborts at the deadline or on n8n's Stop: ends the request or the body being read. */
	signal: AbortSignal;
	expired(): boolean;
	/** Clears the timer once the fetch is over. */
	end(): void;
}

function startDeadline(ms: number, cancel: AbortSignal | undefined): Deadline {
	const expiry = new AbortController();
	const timer = new AbortController();
	// n8n-workflow's sleep clears its timer when its signal aborts (2.x; 1.x lets it run out).
	void (sleep as (ms: number, signal?: AbortSignal) => Promise<void>)(ms, timer.signal).then(
		() => expiry.abort(),
		() => undefined,
	);
	return {
		signal: cancel ? AbortSignal.any([cancel, expiry.signal]) : expiry.signal,
		expired: () => expiry.signal.aborted,
		end: () => timer.abort(),
	};
}

/**
 * GETs the address through the guard, hop by hop, reading at most maxBytes, all of it within
 * the run's file deadline (retry.ts); n8n's Stop ends it at once.
 */
export async function fetchGuarded(
	this: ApiContext,
	address: string,
	options: GuardedFetchOptions,
): Promise<FetchedFile> {
	const fail = (rule: string) =>
		new NodeOperationError(this.getNode(), `${options.field}: ${rule}`, {
			itemIndex: options.itemIndex,
		});
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		throw fail(
			'not a complete web address; give the full address, e.g. https://example.com/contract.pdf',
		);
	}
	// The run's retry policy (pacing.ts), as for its API calls.
	const { retry: policy } = await runPacing.call(this, options.itemIndex);
	const cancel = cancelSignalOf(this);
	const deadline = startDeadline(policy.fileDeadlineMs, cancel);
	try {
		return await fetchHops.call(this, url, options, { policy, deadline, fail });
	} catch (error) {
		if (isStopped(cancel)) stopNow(false);
		throw deadline.expired()
			? fail(
					`the file did not arrive within ${policy.fileDeadlineMs / 1000} s (the limit for the whole file); the address answers too slowly`,
				)
			: error;
	} finally {
		deadline.end();
	}
}

interface HopSettings {
	policy: RetryPolicy;
	deadline: Deadline;
	fail: (rule: string) => NodeOperationError;
}

async function fetchHops(
	this: ApiContext,
	start: URL,
	options: GuardedFetchOptions,
	{ policy, deadline, fail }: HopSettings,
): Promise<FetchedFile> {
	let url = start;
	for (let hop = 0; ; hop++) {
		const target = await pinOrRefuse.call(this, url, options);
		const request: IHttpRequestOptions = {
			method: 'GET',
			url: target.url,
			// Identity: the limit counts the file's own bytes, not a compressed form of them.
			headers: {
				Accept: options.accept ?? '*/*',
				'Accept-Encoding': 'identity',
				...target.headers,
			},
			encoding: 'stream',
			...(target.servername ? { agentOptions: { servername: target.servername } } : {}),
		};
		let response: IN8nHttpFullResponse;
		try {
			response = await guardedSend.call(this, request, policy, deadline.signal);
		} catch (error) {
			throw fail(failureReason(error));
		}
		const body = response.body as Stream;
		if (isRedirect(response.statusCode)) {
			discard(body);
			const location = headerOf(response.headers, 'location');
			if (hop >= MAX_HOPS) throw fail(`the address redirected more than ${MAX_HOPS} times`);
			const next = location ? parseUrl(location, url) : undefined;
			if (!next)
				throw fail(
					`the address answered a redirect (HTTP ${response.statusCode}) without a valid address`,
				);
			url = next;
			continue;
		}
		if (response.statusCode >= 300) {
			discard(body);
			throw fail(`the address answered HTTP ${response.statusCode}`);
		}
		const declared = Number(headerOf(response.headers, 'content-length'));
		if (Number.isFinite(declared) && declared > options.maxBytes) {
			discard(body);
			throw fail(tooLarge(options.maxBytes, `${declared} bytes`));
		}
		const buffer = await readCapped(body, options.maxBytes, fail, deadline.signal);
		return { buffer, url, contentType: headerOf(response.headers, 'content-type') ?? '' };
	}
}

function tooLarge(maxBytes: number, size: string): string {
	return `the file is larger than ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MB), the limit (${size}); it was not read further`;
}

/** Reads a stream, abandoning it as soon as it passes maxBytes, or when `abort` fires. */
async function readCapped(
	body: Stream,
	maxBytes: number,
	fail: (rule: string) => Error,
	abort: AbortSignal,
): Promise<Buffer> {
	if (Buffer.isBuffer(body)) {
		if (body.length > maxBytes) throw fail(tooLarge(maxBytes, `${body.length} bytes`));
		return body;
	}
	const chunks: Buffer[] = [];
	let size = 0;
	const stop = () => discard(body);
	if (abort.aborted) stop();
	abort.addEventListener('abort', stop, { once: true });
	try {
		for await (const chunk of body) {
			size += chunk.length;
			if (size > maxBytes) {
				discard(body);
				throw new AddressRefused(tooLarge(maxBytes, `more than ${maxBytes} bytes`));
			}
			chunks.push(Buffer.from(chunk));
		}
	} catch (error) {
		if (error instanceof AddressRefused) throw fail(error.reason);
		throw fail('the address could not be fetched (the answer broke off)');
	} finally {
		abort.removeEventListener('abort', stop);
	}
	return Buffer.concat(chunks);
}

function parseUrl(text: string, base: URL): URL | undefined {
	try {
		return new URL(text, base);
	} catch {
		return undefined;
	}
}

export function headerOf(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	const first = Array.isArray(value) ? value[0] : value;
	return first === undefined || first === null ? undefined : String(first);
}

/**
 * One request to an address the address guard has checked (guardedFetch.ts): no API key,
 * no redirect followed (the caller checks each hop), status and body left to the caller.
 * Only failures before a byte was sent are tried again.
 */
async function guardedSend(
	this: ApiContext,
	options: IHttpRequestOptions,
	policy: RetryPolicy,
	signal: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (name.toLowerCase() !== 'authorization') headers[name] = value;
	}
	// The fetch's deadline or n8n's Stop (fetchGuarded tells which): nothing new starts, the
	// request in flight is aborted.
	for (let attempt = 0; ; attempt++) {
		throwIfStopped(signal);
		try {
			return (await this.helpers.httpRequest({
				timeout: policy.timeoutMs,
				...options,
				headers,
				disableFollowRedirect: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				abortSignal: signal,
			})) as IN8nHttpFullResponse;
		} catch (error) {
			if (signal.aborted) stopNow(false);
			const code = systemErrorCode(error);
			const retry = code !== undefined && NOT_SENT_CODES.has(code) && code !== 'ENOTFOUND';
			// The cause stays readable (guardedFetch.ts tells n8n's SSRF refusals apart).
			if (!retry || attempt >= policy.maxRetries)
				throw new NodeOperationError(this.getNode(), error as Error);
			await pause(backoffMs(attempt, policy), signal);
		}
	}
}
