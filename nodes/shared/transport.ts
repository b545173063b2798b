import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkBaseUrl, originOf } from './baseUrl';
import { cancelSignalOf, pause, stopNow, throwIfStopped } from './cancel';
import { apiResponseError, connectionError, malformedResponseError, redactSecret } from './errors';
import {
	addressWithoutQuery,
	bodyText,
	isJson,
	MAYBE_SENT_CODES,
	messageOf,
	NOT_SENT_CODES,
	systemErrorCode,
} from './failures';
import { credentialState } from './credentialState';
import type { AdaptiveLimit } from './limiter';
import { type RateController, rateControllerFor } from './rate';
import { isRedirect, nextRedirect } from './redirects';
import { credentialsOf, oncePerRun } from './runCache';

/**
 * The only module that does HTTP. API calls carry the credential's Bearer key (added by
 * n8n from the credential's `authenticate` block) and go only to the Base URL's origin:
 * the Base URL is checked before every call (baseUrl.ts) and redirects are judged here
 * (redirects.ts), never followed by n8n. Storage calls (presigned addresses) never carry
 * the key.
 */

export const CREDENTIAL_TYPE = 'documentSigningApi';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IExecuteSingleFunctions
	| IPollFunctions;

export interface ApiRequestOptions {
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** the request carries an idempotency key or is a read: safe to resend */
	idempotent?: boolean;
	itemIndex?: number;
	/**
	 * A read whose answer holds for the whole node run (e.g. the template every item of a
	 * batch uses): sent once per run, each caller gets its own copy of the answer.
	 */
	oncePerRun?: boolean;
}


/**
 * Retry policy. A mutable object so a test run can shorten the waits; node code never
 * changes it.
 */
export const RETRY_POLICY = {
	/** Further attempts after the first. */
	maxRetries: 3,
	/** Further attempts after 429 answers (the whole run waits out each Retry-After). */
	maxRateLimitedRetries: 10,
	/** First backoff; doubles per attempt. */
	baseDelayMs: 500,
	/** Ceiling of the exponential backoff. */
	maxDelayMs: 10_000,
	/** Ceiling of a server-sent Retry-After. */
	maxRetryAfterMs: 30_000,
	/** Per-request timeout. */
	timeoutMs: 60_000,
};

/** Statuses that mean "not processed, come back later": safe to resend for any method. */
const RETRY_STATUSES = new Set([429, 503]);

/** Server failures after which a read or an idempotent request is sent again. */
const RESEND_STATUSES = new Set([500, 502, 504]);

/** Names a credential's shared state in memory (hashed there, never kept in clear). */
const credentialKey = (baseUrl: string, secret: string) => `${baseUrl}\n${secret}`;

/**
 * The number of items at once shared by the node runs of this run's credential
 * (limiter.ts); undefined when the credential cannot be read (each item then fails with
 * the reason).
 */
export async function sharedLimitOf(this: ApiContext): Promise<AdaptiveLimit | undefined> {
	try {
		const credentials = await credentialsOf(this, CREDENTIAL_TYPE);
		const base = checkBaseUrl(credentials.baseUrl, credentials.allowInsecureHttp === true);
		return base.ok ? credentialState(credentialKey(base.url, String(credentials.apiKey ?? ''))).limit : undefined;
	} catch {
		return undefined;
	}
}

/** Calls the API at `<baseUrl><endpoint>` with the credential's key and returns the parsed JSON body. */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	if (!options.oncePerRun || method !== 'GET') {
		return parseAnswer<T>(await apiRequestText.call(this, method, endpoint, options));
	}
	const key = `${endpoint}?${JSON.stringify(options.qs ?? {})}`;
	const answer = oncePerRun(this, key, () => apiRequestText.call(this, method, endpoint, options));
	return parseAnswer<T>(await answer);
}

function parseAnswer<T>(text: string): T {
	if (!text.trim()) return {} as T;
	return JSON.parse(text) as T; // checked in sendWithRetries
}

/** One API call; the body of a successful answer as text. */
async function apiRequestText(
	this: ApiContext,
	method: IHttpRequestMethods,
	endpoint: string,
	options: ApiRequestOptions,
): Promise<string> {
	const credentials = await credentialsOf(this, CREDENTIAL_TYPE);
	const secret = String(credentials.apiKey ?? '');
	const base = checkBaseUrl(credentials.baseUrl, credentials.allowInsecureHttp === true);
	if (!base.ok) throw new NodeOperationError(this.getNode(), base.message, { itemIndex: options.itemIndex });
	// A full address as the path would replace the Base URL (and take the key elsewhere).
	if (!endpoint.startsWith('/') || endpoint.startsWith('//') || originOf(`${base.url}${endpoint}`) !== base.origin) {
		throw new NodeOperationError(
			this.getNode(),
			`The API path "${endpoint.slice(0, 100)}" is not a path under the Base URL: write it starting with a single /, e.g. /envelopes`,
			{ itemIndex: options.itemIndex },
		);
	}
	let request: IHttpRequestOptions = {
		method,
		baseURL: base.url,
		url: endpoint,
		qs: options.qs,
		body: options.body,
		json: true,
	};
	const resendable = options.idempotent ?? (method === 'GET' || method === 'HEAD');
	const send: SendOptions = {
		authenticated: true,
		resendable,
		secret,
		itemIndex: options.itemIndex,
		// One pace per node run and credential, sharing what the credential's runs learned.
		rate: rateControllerFor(this, credentialKey(base.url, secret)),
		credentials,
	};

	let response = await sendWithRetries.call(this, request, send);
	for (let followed = 0; isRedirect(response.statusCode); followed++) {
		const from = request.baseURL ? `${request.baseURL}${request.url}` : request.url;
		const step = nextRedirect({
			statusCode: response.statusCode,
			location: response.headers?.location,
			from,
			origin: base.origin,
			method,
			followed,
		});
		if ('refuse' in step) throw new NodeOperationError(this.getNode(), step.refuse, { itemIndex: options.itemIndex });
		// The Location holds the whole address, query included.
		request = { ...request, baseURL: undefined, url: step.follow, qs: undefined };
		response = await sendWithRetries.call(this, request, send);
	}

	const text = bodyText(response.body);
	if (response.statusCode >= 400) {
		throw apiResponseError(this.getNode(), response.statusCode, text, secret, options.itemIndex);
	}
	return text;
}

/**
 * Presigned storage addresses: never sends the API key. Returns the full response
 * (`body`, `headers`, `statusCode`); a status >= 400 throws a NodeApiError.
 * Presigned writes overwrite the same key, so failures before or during sending are
 * retried like reads.
 */
export async function storageRequest(
	this: ApiContext,
	options: IHttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (name.toLowerCase() !== 'authorization') headers[name] = value;
	}
	const response = await sendWithRetries.call(
		this,
		{ ...options, headers },
		{
			authenticated: false,
			resendable: true,
			secret: undefined,
		},
	);
	if (response.statusCode >= 400) {
		const error = apiResponseError(
			this.getNode(),
			response.statusCode,
			bodyText(response.body),
			undefined,
		);
		const code = error.context.apiCode as string | undefined;
		error.message = code
			? `Storage rejected the request: ${error.message} (HTTP ${response.statusCode})`
			: `Storage rejected the request: HTTP ${response.statusCode}`;
		error.description = [
			`${options.method ?? 'GET'} ${addressWithoutQuery(options.url)}`,
			error.description,
		]
			.filter(Boolean)
			.join('\n');
		throw error;
	}
	return response;
}

/**
 * One request to an address the address guard has checked (guardedFetch.ts): no API key,
 * no redirect followed (the caller checks each hop), status and body left to the caller.
 * Only failures before a byte was sent are tried again.
 */
export async function guardedSend(this: ApiContext, options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> {
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (name.toLowerCase() !== 'authorization') headers[name] = value;
	}
	// n8n's Stop ends a fetch as it ends an API request: nothing new starts, the one in flight is aborted.
	const signal = cancelSignalOf(this);
	for (let attempt = 0; ; attempt++) {
		throwIfStopped(signal);
		try {
			return (await this.helpers.httpRequest({
				timeout: RETRY_POLICY.timeoutMs,
				...options,
				headers,
				disableFollowRedirect: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				...(signal ? { abortSignal: signal } : {}),
			})) as IN8nHttpFullResponse;
		} catch (error) {
			if (signal?.aborted) stopNow(false);
			const code = systemErrorCode(error);
			const retry = code !== undefined && NOT_SENT_CODES.has(code) && code !== 'ENOTFOUND';
			// The cause stays readable (guardedFetch.ts tells n8n's SSRF refusals apart).
			if (!retry || attempt >= RETRY_POLICY.maxRetries) throw new NodeOperationError(this.getNode(), error as Error);
			await pause(backoffMs(attempt), signal);
		}
	}
}

interface SendOptions {
	authenticated: boolean;
	resendable: boolean;
	secret: string | undefined;
	itemIndex?: number;
	/** The run's rate controller (API calls only; storage addresses are not the API's limit). */
	rate?: RateController;
	/** The credential as read once for this run (n8n still applies its `authenticate` block). */
	credentials?: ICredentialDataDecryptedObject;
}


/** Sends once, then again while the failure is one that is safe to retry. */
async function sendWithRetries(
	this: ApiContext,
	request: IHttpRequestOptions,
	{ authenticated, resendable, secret, itemIndex, rate, credentials }: SendOptions,
): Promise<IN8nHttpFullResponse> {
	const expectJson = request.json === true;
	// n8n's Stop: no request starts after it, waits end at once, the one in flight is aborted.
	const signal = cancelSignalOf(this);
	let rateLimited = 0;
	for (let attempt = 0; ; attempt++) {
		const canRetry = attempt - rateLimited < RETRY_POLICY.maxRetries;
		const retry = async (ms: number) => {
			if (rate) rate.stats.retried++;
			await pause(ms, signal);
		};
		throwIfStopped(signal);
		const ticket = await rate?.acquire(signal);
		throwIfStopped(signal);
		const attemptOptions: IHttpRequestOptions = {
			timeout: RETRY_POLICY.timeoutMs,
			...request,
			headers: { ...(request.headers ?? {}) },
			// n8n would follow a redirect to any host with the key: apiRequestText decides.
			...(authenticated ? { disableFollowRedirect: true } : {}),
			// Status and body are judged here, not by the helper, so retries and error
			// messages follow the API's rules and the body is parsed once, strictly.
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			...(expectJson ? { encoding: 'text' as const } : {}),
			...(signal ? { abortSignal: signal } : {}),
		};

		let response: IN8nHttpFullResponse;
		try {
			response = authenticated
				? await this.helpers.httpRequestWithAuthentication.call(
						this,
						CREDENTIAL_TYPE,
						attemptOptions,
						credentials && {
							credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: credentials },
						},
					)
				: await this.helpers.httpRequest(attemptOptions);
		} catch (error) {
			// Aborted by Stop while under way: it may have reached the service.
			if (signal?.aborted) stopNow(true);
			rate?.overloaded(ticket);
			const code = systemErrorCode(error);
			const notSent = code !== undefined && NOT_SENT_CODES.has(code);
			const maybeSent = code !== undefined && MAYBE_SENT_CODES.has(code);
			if (canRetry && (notSent || (maybeSent && resendable))) {
				await retry(backoffMs(attempt - rateLimited));
				continue;
			}
			const target = `${request.method ?? 'GET'} ${addressWithoutQuery(request.url)}`;
			const detail =
				maybeSent && !resendable
					? `${target} failed after it may have reached the service; it was not sent again so nothing is created twice. Check the service before retrying.`
					: `${target} failed after ${attempt + 1} attempt(s). ${redactSecret(messageOf(error), secret)}`;
			throw connectionError(this.getNode(), code, detail, itemIndex);
		}

		if (response.statusCode === 429 && rate && ticket) {
			// Every request of the run waits; this one queues again behind the pause.
			const wait = rate.rateLimited(ticket, retryAfterMs(response.headers) ?? backoffMs(rateLimited));
			if (rateLimited++ < RETRY_POLICY.maxRateLimitedRetries) {
				if (wait) await pause(wait, signal);
				continue;
			}
			return response;
		}
		if (response.statusCode >= 500) rate?.overloaded(ticket);
		else rate?.succeeded(ticket);
		if (RETRY_STATUSES.has(response.statusCode) && canRetry) {
			await retry(retryAfterMs(response.headers) ?? backoffMs(attempt - rateLimited));
			continue;
		}
		if (RESEND_STATUSES.has(response.statusCode) && canRetry && resendable) {
			await retry(backoffMs(attempt - rateLimited));
			continue;
		}
		if (expectJson && response.statusCode < 400 && !isRedirect(response.statusCode) && !isJson(bodyText(response.body))) {
			if (canRetry && resendable) {
				await retry(backoffMs(attempt - rateLimited));
				continue;
			}
			throw malformedResponseError(
				this.getNode(),
				response.statusCode,
				bodyText(response.body),
				secret,
				itemIndex,
			);
		}
		return response;
	}
}

export function backoffMs(attempt: number): number {
	return Math.min(RETRY_POLICY.baseDelayMs * 2 ** attempt, RETRY_POLICY.maxDelayMs);
}

/** `Retry-After` as seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value).trim();
	let ms: number;
	if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
	else {
		const date = Date.parse(text);
		if (Number.isNaN(date)) return undefined;
		ms = Math.max(0, date - Date.now());
	}
	return Math.min(ms, RETRY_POLICY.maxRetryAfterMs);
}
