import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { checkBaseUrl } from '../guard/baseUrl';
import { credentialStateKey, holdCredentialState } from './credentialState';
import { type ConcurrencyLimit, FixedLimit } from './concurrency';
import { RateController, type RateSettings } from './rate';
import type { RetryPolicy } from './retry';
import { credentialsOf } from '../run/runCache';
import { type ApiContext, CREDENTIAL_TYPE } from '../run/context';
import { credentialSafetySetting } from '../api/parameters';

/**
 * One object per node run for everything its requests share with the credential: the
 * credential as read once, its Base URL checked once, the items at once (the user's fixed
 * number, or the limit shared by the credential's runs), the rate window and the pauses
 * (rate.ts), and when to send a request again (retry.ts). Every request of the run reaches
 * the shared state through it.
 */

// The router's one door to pacing: what it names of the pace and the limit comes from here.
export type { RateSettings, RateStats } from './rate';
export { FixedLimit } from './concurrency';

export interface RunPacing {
	credentials: ICredentialDataDecryptedObject;
	secret: string;
	/** The Base URL, checked, without trailing slashes, and its origin (the only place the key goes). */
	baseUrl: string;
	origin: string;
	limit: ConcurrencyLimit;
	rate: RateController;
	retry: RetryPolicy;
	/** Ends the run's hold on the credential's shared state (the router, when its run ends). */
	close(): void;
}

/** The credential's Base URL is refused: the message says why and what to change. */
export interface BaseUrlRefused {
	refused: string;
}

type Resolved = RunPacing | BaseUrlRefused;

const runs = new WeakMap<object, Promise<Resolved>>();

async function resolve(
	context: ApiContext,
	settings: RateSettings,
	hold: boolean,
): Promise<Resolved> {
	const credentials = await credentialsOf(context, CREDENTIAL_TYPE);
	const base = checkBaseUrl(
		credentials.baseUrl,
		credentialSafetySetting('allowInsecureHttp', credentials.allowInsecureHttp),
	);
	if (!base.ok) return { refused: base.message };
	const secret = String(credentials.apiKey ?? '');
	// The shared state is named by the Base URL and the key (hashed there, never kept in clear).
	const { state, release } = holdCredentialState(credentialStateKey(base.url, secret));
	if (!hold) release(); // kept by its last use, as a request keeps it
	const limit = settings.parallel === undefined ? state.limit : new FixedLimit(settings.parallel);
	return {
		credentials,
		secret,
		baseUrl: base.url,
		origin: base.origin,
		limit,
		rate: new RateController(settings, state, limit),
		retry: state.retry,
		close: release,
	};
}

function remember(context: object, pacing: Promise<Resolved>): Promise<Resolved> {
	runs.set(context, pacing);
	pacing.catch(() => runs.delete(context)); // the next request reads the credential again
	return pacing;
}

/**
 * Opens the pacing of a node run with the user's Batching settings, before its first item;
 * the credential's state is held until `close`.
 */
export function openPacing(context: ApiContext, settings: RateSettings): Promise<Resolved> {
	return remember(context, resolve(context, settings, true));
}

/** The run's pacing; a context the router did not open (a trigger, a list) gets the adaptive defaults. */
export function pacingOf(context: ApiContext): Promise<Resolved> {
	return runs.get(context) ?? remember(context, resolve(context, {}, false));
}
