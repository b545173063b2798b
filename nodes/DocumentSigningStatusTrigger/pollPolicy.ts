import { DEFAULTS } from '../shared/assumptions';

/** How the Status Trigger reads the list (poller.ts). Frozen; a test puts its own in place of this module. */
const pollDefaults = {
	/** Envelopes per list request. */
	pageSize: DEFAULTS.maxLimit as number,
	/** Most ids remembered per status (the newest changes are kept). */
	seenLimit: 2000,
	/** Restarts of a poll's read when the list shrank while it was read. */
	maxRestarts: 2,
	/**
	 * Changes this much older than the cursor are read again (and their ids kept), in case
	 * the service makes a change visible a little after stamping it.
	 */
	overlapMs: 60_000,
};

export type StatusPollPolicy = Readonly<typeof pollDefaults>;

export const STATUS_POLL: StatusPollPolicy = Object.freeze(pollDefaults);
