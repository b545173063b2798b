/**
 * Small pages or a short memory for the Status Trigger in one test file, without a mutable
 * policy in the product (test/policy-view.ts). The file puts this module's view in place of
 * the policy once, at its top (jest hoists it above the imports):
 *
 *   jest.mock('../../nodes/DocumentSigningStatusTrigger/pollPolicy', () =>
 *   	jest.requireActual<PollPolicyModule>('./poll-policy').pollPolicyModule(),
 *   );
 *
 * then sets what a test needs with `setPollPolicy` (the defaults again with no argument).
 */
import type * as Poll from '../../nodes/DocumentSigningStatusTrigger/pollPolicy';
import type { StatusPollPolicy } from '../../nodes/DocumentSigningStatusTrigger/pollPolicy';
import { PolicyView } from '../policy-view';

export type PollPolicyModule = typeof import('./poll-policy');

let policy: PolicyView<StatusPollPolicy> | undefined;

/** pollPolicy.ts with STATUS_POLL reading the policy set here (the product's until set). */
export function pollPolicyModule(): typeof Poll {
	const actual = jest.requireActual<typeof Poll>(
		'../../nodes/DocumentSigningStatusTrigger/pollPolicy',
	);
	policy = new PolicyView(actual.STATUS_POLL);
	return { ...actual, STATUS_POLL: policy.view };
}

/** The Status Trigger's defaults with `overrides` from now on; returns the policy. */
export function setPollPolicy(overrides: Partial<StatusPollPolicy> = {}): StatusPollPolicy {
	return PolicyView.set(policy, 'the poll policy (pollPolicyModule())', overrides);
}
