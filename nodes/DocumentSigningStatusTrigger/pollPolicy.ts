import { DEFAULTS } from '../shared/api/assumptions';

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
	/**
	 * A poll's budget where n8n gives none (n8n 1.x): the 5 minutes n8n 2.x gives its classic
	 * poller (n8n-core 2.41 PollContext), so a poll behaves alike on both lines.
	 */
	classicBudgetMs: 5 * 60_000,
	/** Kept free at the end of a budget for building the poll's output (at most 5 % of it). */
	reserveMs: 1_000,
	/** What a request is taken to last before one of its kind is seen in the poll (at most a quarter of the budget). */
	firstRequestMs: 2_000,
	/** A request starts only if this many times the longest of its kind still fits. */
	requestMargin: 1.5,
	/** Signed PDFs or signing progresses read at the same time. */
	readsAtOnce: 5,
	/** How long a poll waits for an earlier one that ran past its budget to end. */
	overrunWaitMs: 5_000,
	/**
	 * How long polls wait for n8n to commit the memory of the last emitting poll (overlap.ts);
	 * past it, a commit that failed repeats its envelopes rather than losing them.
	 */
	commitWaitMs: 2 * 60_000,
};

export type StatusPollPolicy = Readonly<typeof pollDefaults>;

export const STATUS_POLL: StatusPollPolicy = Object.freeze(pollDefaults);
