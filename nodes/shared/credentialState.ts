import { createHash } from 'crypto';

import { AdaptiveLimit } from './limiter';
import { RATE_POLICY, RateWindow } from './rateWindow';

/**
 * What the node runs of one credential (API key and Base URL) learn about the service, shared
 * by every run in this n8n process (main or worker): how many requests at once
 * (limiter.ts) and how many per window (rateWindow.ts). Executions running at the same time
 * with one key then share one limit instead of each meeting it alone, and a later node of
 * the same execution goes on where the earlier one stopped. Kept while in use and forgotten
 * after RATE_POLICY.rememberMs without a request (a limit of one batch must not slow the next
 * batch against a service that changed). Keyed by a SHA-256 of the key and the Base URL:
 * no secret is held here.
 */
export interface CredentialState {
	limit: AdaptiveLimit;
	window: RateWindow;
	/** Last request started, ms since epoch. */
	lastUsed: number;
}

const states = new Map<string, CredentialState>();

export function newCredentialState(): CredentialState {
	return { limit: new AdaptiveLimit(), window: new RateWindow(), lastUsed: Date.now() };
}

function forgetIdle(now: number): void {
	for (const [id, state] of states) {
		if (now - state.lastUsed >= RATE_POLICY.rememberMs && state.limit.running === 0) states.delete(id);
	}
}

/** The shared state of `credentialKey` (Base URL and API key; hashed at once). */
export function credentialState(credentialKey: string): CredentialState {
	const id = createHash('sha256').update(credentialKey).digest('hex');
	const now = Date.now();
	forgetIdle(now);
	let state = states.get(id);
	if (!state) {
		state = newCredentialState();
		states.set(id, state);
	}
	state.lastUsed = now;
	return state;
}

/** Forgets everything learned (tests start each case without it). */
export function forgetLearnedPaces(): void {
	states.clear();
}
