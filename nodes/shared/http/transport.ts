import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { originOf } from '../guard/baseUrl';
import { cancelSignalOf, pause, stopNow, throwIfStopped } from '../run/cancel';
import {
	apiResponseError,
	connectionError,
	malformedResponseError,
	redactSecret,
	type Secrets,
} from './errors';
import {
	addressWithoutQuery,
	bodyText,
	isJson,
	messageOf,
	systemErrorCode,
} from '../pacing/failures';
import { type ApiContext, CREDENTIAL_TYPE } from '../run/context';
import { pacingOf, type RunPacing } from '../pacing/pacing';
import {
	type AttemptOutcome,
	backoffMs,
	cappedWait,
	decideRetry,
	type RetryPolicy,
} from '../pacing/retry';
import { rateSignals } from '../pacing/signals';
import { isRedirect, nextRedirect } from './redirects';
import { oncePerRun } from '../run/runCache';

/**
 * The only module that does HTTP. API calls carry the credential's Bearer key (added by
 * n8n from the credential's `authenticate` block) and go only to the Base URL's origin:
 * the Base URL is checked once per run (pacing.ts, baseUrl.ts) and redirects are judged here
 * (redirects.ts), never followed by n8n. Storage calls (presigned addresses) never carry
 * the key. When to send again is retry.ts's decision, under the run's retry policy.
 */

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
 * The run's pacing (pacing.ts), resolved once per run: the credential, its checked Base URL,
 * the pace and the retry policy. A refused Base URL fails the item with the reason.
 */
export async function runPacing(this: ApiContext, itemIndex?: number): Promise<RunPacing> {
	const pacing = await pacingOf(this);
	if ('refused' in pacing)
		throw new NodeOperationError(this.getNode(), pacing.refused, { itemIndex });
	return pacing;
}

/** Kept out of every message: the key, and the webhook secret the service also knows. */
function secretsOf(pacing: RunPacing): Secrets {
	return [pacing.secret, String(pacing.credentials.webhookSecret ?? '')];
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
	const pacing = await runPacing.call(this, options.itemIndex);
	const { origin } = pacing;
	const secret = secretsOf(pacing);
	// A full address as the path would replace the Base URL (and take the key elsewhere).
	if (
		!endpoint.startsWith('/') ||
		endpoint.startsWith('//') ||
		originOf(`${pacing.baseUrl}${endpoint}`) !== origin
	) {
		throw new NodeOperationError(
			this.getNode(),
			`The API path "${endpoint.slice(0, 100)}" is not a path under the Base URL: write it starting with a single /, e.g. /envelopes`,
			{ itemIndex: options.itemIndex },
		);
	}
	let request: IHttpRequestOptions = {
		method,
		baseURL: pacing.baseUrl,
		url: endpoint,
		qs: options.qs,
		body: options.body,
		json: true,
	};
	const send: SendOptions = {
		resendable: options.idempotent ?? (method === 'GET' || method === 'HEAD'),
		secret,
		itemIndex: options.itemIndex,
		policy: pacing.retry,
		pacing,
	};

	let response = await sendWithRetries.call(this, request, send);
	for (let followed = 0; isRedirect(response.statusCode); followed++) {
		const from = request.baseURL ? `${request.baseURL}${request.url}` : request.url;
		const step = nextRedirect({
			statusCode: response.statusCode,
			location: response.headers?.location,
			from,
			origin,
			method,
			followed,
		});
		if ('refuse' in step)
			throw new NodeOperationError(this.getNode(), step.refuse, { itemIndex: options.itemIndex });
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
	const { retry } = await runPacing.call(this);
	const response = await sendWithRetries.call(
		this,
		{ ...options, headers },
		{ resendable: true, secret: undefined, policy: retry },
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

interface SendOptions {
	resendable: boolean;
	secret: Secrets;
	itemIndex?: number;
	/** When to send again: the run's retry policy (pacing.ts), storage calls included. */
	policy: RetryPolicy;
	/** API calls: the run's credential, pace and limit (storage addresses are not the API's, and carry no key). */
	pacing?: RunPacing;
}

/** One attempt: the request as n8n sends it, and what came of it for retry.ts to judge. */
async function sendOnce(
	this: ApiContext,
	request: IHttpRequestOptions,
	{ policy, pacing }: Pick<SendOptions, 'policy' | 'pacing'>,
	signal: AbortSignal | undefined,
): Promise<{ response?: IN8nHttpFullResponse; outcome: AttemptOutcome; failure?: unknown }> {
	const expectJson = request.json === true;
	const attemptOptions: IHttpRequestOptions = {
		timeout: policy.timeoutMs,
		...request,
		headers: { ...(request.headers ?? {}) },
		// n8n would follow a redirect to any host with the key: apiRequestText decides.
		...(pacing ? { disableFollowRedirect: true } : {}),
		// Status and body are judged here, not by the helper, so retries and error
		// messages follow the API's rules and the body is parsed once, strictly.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		...(expectJson ? { encoding: 'text' as const } : {}),
		...(signal ? { abortSignal: signal } : {}),
	};
	try {
		const answer: IN8nHttpFullResponse = pacing
			? await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL_TYPE,
					attemptOptions,
					{
						// The credential as read once for this run (n8n still applies its `authenticate` block).
						credentialsDecrypted: {
							id: '',
							name: '',
							type: CREDENTIAL_TYPE,
							data: pacing.credentials,
						},
					},
				)
			: await this.helpers.httpRequest(attemptOptions);
		const status = answer.statusCode;
		const malformed =
			expectJson && status < 400 && !isRedirect(status) && !isJson(bodyText(answer.body));
		// Read once, against the pacing's clock (a fake one in tests).
		const now = pacing?.rate.shared.clock.now() ?? Date.now();
		const signals = rateSignals({ status, headers: answer.headers }, now);
		return {
			response: answer,
			outcome: { answer: status, retryAfterMs: cappedWait(signals, policy), malformed, signals },
		};
	} catch (error) {
		// Aborted by Stop while under way: it may have reached the service.
		if (signal?.aborted) stopNow(true);
		return { outcome: { failure: systemErrorCode(error) }, failure: error };
	}
}

/** Sends once, then again while retry.ts decides it is safe and useful. */
async function sendWithRetries(
	this: ApiContext,
	request: IHttpRequestOptions,
	{ resendable, secret, itemIndex, policy, pacing }: SendOptions,
): Promise<IN8nHttpFullResponse> {
	const rate = pacing?.rate;
	// n8n's Stop: no request starts after it, waits end at once, the one in flight is aborted.
	const signal = cancelSignalOf(this);
	let rateLimited = 0;
	for (let attempt = 0; ; attempt++) {
		throwIfStopped(signal);
		const ticket = await rate?.acquire(signal);
		throwIfStopped(signal);
		const { response, outcome, failure } = await sendOnce.call(
			this,
			request,
			{ policy, pacing },
			signal,
		);

		const attempts = { attempt, rateLimited };
		const decision = decideRetry(outcome, attempts, resendable, rate !== undefined, policy);
		let wait = decision.retry ? decision.afterMs : 0;
		if (ticket && rate) {
			if ('failure' in outcome || outcome.answer >= 500) rate.overloaded(ticket);
			else if (outcome.answer !== 429) rate.succeeded(ticket, outcome.signals?.budget);
			else {
				// The pace learns from it (the Retry-After uncapped); this one waits, then queues again.
				const waitMs = outcome.signals?.waitMs ?? backoffMs(rateLimited, policy);
				wait = rate.rateLimited(ticket, waitMs, outcome.signals?.budget);
				rateLimited++;
			}
		}
		if (decision.retry) {
			if (rate && !decision.rateLimited) rate.stats.retried++;
			// On the pacing's clock when there is one (the same timers as pause in n8n).
			if (wait) await (rate?.shared.clock.sleep ?? pause)(wait, signal);
			continue;
		}
		if (response && decision.fail !== 'malformed') return response;
		if (response)
			throw malformedResponseError(
				this.getNode(),
				response.statusCode,
				bodyText(response.body),
				secret,
				itemIndex,
			);
		const code = 'failure' in outcome ? outcome.failure : undefined;
		const target = `${request.method ?? 'GET'} ${addressWithoutQuery(request.url)}`;
		const detail =
			decision.fail === 'mayHaveArrived'
				? `${target} failed after it may have reached the service; it was not sent again so nothing is created twice. Check the service before retrying.`
				: `${target} failed after ${attempt + 1} attempt(s). ${redactSecret(messageOf(failure), secret)}`;
		throw connectionError(this.getNode(), code, detail, itemIndex);
	}
}
