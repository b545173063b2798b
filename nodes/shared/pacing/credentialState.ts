import { createHash } from 'crypto';

import { type Clock, realClock } from '../run/clock';
import { AdaptiveLimit, LIMIT_POLICY, type LimitPolicy } from './limiter';
import { RATE_POLICY, type RatePolicy } from './ratePolicy';
import { RateWindow } from './rateWindow';
import { RETRY_POLICY, type RetryPolicy } from './retry';

/**
 * What the node runs of one credential (API key and Base URL) learn about the service, shared
 * by every run in this n8n process (main or worker): how many requests at once
 * (limiter.ts) and how many per window (rateWindow.ts). Executions running at the same time
 * with one key then share one limit instead of each meeting it alone, and a later node of
 * the same execution goes on where the earlier one stopped. Kept while a run holds it (one
 * sleeping out a Retry-After included) and forgotten after RATE_POLICY.rememberMs without a
 * run or a request (a limit of one batch must not slow the next batch against a service that
 * changed). Keyed by a SHA-256 of the key and the Base URL: no secret is held here.
 */
export interface CredentialState {
	limit: AdaptiveLimit;
	window: RateWindow;
	/** When its runs send a request again (retry.ts). */
	retry: RetryPolicy;
	clock: Clock;
	/** Last request started or run ended, ms since epoch. */
	lastUsed: number;
	/** Runs holding the state (router runs, until they end). */
	holders: number;
}

/** Every policy of a run, decided here (the frozen defaults; a test passes its own). */
export interface PacingPolicies {
	limit: LimitPolicy;
	rate: RatePolicy;
	retry: RetryPolicy;
}

const DEFAULT_POLICIES: Readonly<PacingPolicies> = Object.freeze({
	limit: LIMIT_POLICY,
	rate: RATE_POLICY,
	retry: RETRY_POLICY,
});

export function newCredentialState(
	clock: Clock = realClock,
	policies: PacingPolicies = DEFAULT_POLICIES,
): CredentialState {
	return {
		limit: new AdaptiveLimit(policies.limit, clock),
		window: new RateWindow(policies.rate, clock),
		retry: policies.retry,
		clock,
		lastUsed: clock.now(),
		holders: 0,
	};
}

/** The states of the credentials in use, by hashed key. */
export class CredentialStates {
	private readonly states = new Map<string, CredentialState>();

	constructor(
		private readonly clock: Clock = realClock,
		private readonly policies: PacingPolicies = DEFAULT_POLICIES,
	) {}

	get size(): number {
		return this.states.size;
	}

	/** The state of `credentialKey` (Base URL and API key; hashed at once). */
	get(credentialKey: string): CredentialState {
		const id = createHash('sha256').update(credentialKey).digest('hex');
		const now = this.clock.now();
		for (const [other, state] of this.states) {
			const idle = state.holders === 0 && state.limit.running === 0;
			if (idle && now - state.lastUsed >= this.policies.rate.rememberMs) this.states.delete(other);
		}
		let state = this.states.get(id);
		if (!state) {
			state = newCredentialState(this.clock, this.policies);
			this.states.set(id, state);
		}
		state.lastUsed = now;
		return state;
	}

	/** The state, kept until `release` is called (once) whatever the time without a request. */
	hold(credentialKey: string): { state: CredentialState; release: () => void } {
		const state = this.get(credentialKey);
		state.holders++;
		let held = true;
		return {
			state,
			release: () => {
				if (!held) return;
				held = false;
				state.holders--;
				state.lastUsed = this.clock.now();
			},
		};
	}

	clear(): void {
		this.states.clear();
	}
}

const inProcess = new CredentialStates();

/** The name of a credential's shared state: its checked Base URL and its API key (hashed where kept). */
export function credentialStateKey(baseUrl: string, apiKey: string): string {
	return `${baseUrl}\n${apiKey}`;
}

/** The shared state of `credentialKey`, held by a run until it calls `release`. */
export function holdCredentialState(credentialKey: string): {
	state: CredentialState;
	release: () => void;
} {
	return inProcess.hold(credentialKey);
}

/** Forgets everything learned (tests start each case without it). */
export function forgetLearnedPaces(): void {
	inProcess.clear();
}
