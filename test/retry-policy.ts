/**
 * Harness runs take short retry waits from the harness (`startHarness({ retry })`,
 * `h.retryPolicy(...)`, test/harness/retry.ts): use that. What follows is for a test that
 * runs the product outside the harness's `run`.
 *
 * Short retry waits for in-process runs, without a mutable policy in the product. A run takes
 * its retry policy with the others from credentialState.ts, whose default is retry.ts's frozen
 * RETRY_POLICY. A test file that needs other waits puts this module's view of the policy in
 * its place, once, at the top of the file (jest hoists it above the imports):
 *
 *   jest.mock('../../nodes/shared/pacing/retry', () =>
 *   	jest.requireActual<RetryPolicyModule>('../retry-policy').retryModule(),
 *   );
 *
 * then picks the policy with `useRetryPolicy` (every test of a file or describe) or
 * `setRetryPolicy` (one test). jest gives each test file its own modules: nothing set here
 * reaches another file.
 */
import type * as Retry from '../nodes/shared/pacing/retry';
import type { RetryPolicy } from '../nodes/shared/pacing/retry';
import { PolicyView } from './policy-view';

export type RetryPolicyModule = typeof import('./retry-policy');

let policy: PolicyView<RetryPolicy> | undefined;

/** nodes/shared/pacing/retry.ts with RETRY_POLICY reading the policy set here (the product's until set). */
export function retryModule(): typeof Retry {
	const actual = jest.requireActual<typeof Retry>('../nodes/shared/pacing/retry');
	policy = new PolicyView(actual.RETRY_POLICY);
	return { ...actual, RETRY_POLICY: policy.view };
}

/** Runs retry from now on with the product's defaults and `overrides`; returns the policy. */
export function setRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
	return PolicyView.set(policy, 'nodes/shared/pacing/retry (retryModule())', overrides);
}

/** `overrides` for each test of the file or describe it is called in; the defaults after each. */
export function useRetryPolicy(overrides: Partial<RetryPolicy>): void {
	beforeEach(() => setRetryPolicy(overrides));
	afterEach(() => setRetryPolicy());
}
