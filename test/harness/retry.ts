/**
 * Retry waits of harness runs. A run takes its retry policy from the shared state of its
 * credential (nodes/shared/pacing/credentialState.ts, `retry`), which the product fills with
 * retry.ts's frozen defaults. The harness puts the policy a test asked for into that state
 * before each run, so the run reads it where it reads the product's: no module is replaced
 * and no product code runs differently.
 */
import { credentialSafetySetting } from '../../nodes/shared/api/parameters';
import { checkBaseUrl } from '../../nodes/shared/guard/baseUrl';
import { credentialStateKey, holdCredentialState } from '../../nodes/shared/pacing/credentialState';
import { RETRY_POLICY, type RetryPolicy } from '../../nodes/shared/pacing/retry';
import type { HarnessCredentials } from './credentials';

/** The policy of the harness's runs: the product's defaults with a test's overrides. */
export class HarnessRetry {
	private policy: RetryPolicy;

	constructor(private readonly overrides: Partial<RetryPolicy> = {}) {
		this.policy = this.set(overrides);
	}

	/** The product's defaults with `overrides` from the next run on; returns the policy. */
	set(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
		this.policy = Object.freeze({ ...RETRY_POLICY, ...overrides });
		return this.policy;
	}

	/** Back to the policy the harness was started with. */
	restore(): void {
		this.set(this.overrides);
	}

	/**
	 * Puts the policy into the state of the run's credential, held until the returned release
	 * (after the run). A Base URL the product refuses gets nothing: the run fails before a request.
	 */
	holdFor(credentials: HarnessCredentials): () => void {
		const allowHttp = credentialSafetySetting('allowInsecureHttp', credentials.allowInsecureHttp);
		const base = checkBaseUrl(credentials.baseUrl, allowHttp);
		if (!base.ok) return () => {};
		const { state, release } = holdCredentialState(
			credentialStateKey(base.url, String(credentials.apiKey ?? '')),
		);
		state.retry = this.policy;
		return release;
	}
}
