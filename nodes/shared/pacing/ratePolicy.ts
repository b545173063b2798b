/** The tuning of the rate window (rateWindow.ts) and the permit it hands out per request. */

/** Tuning; a test passes its own to RateWindow and RateController. */
const rateDefaults = {
	/** Shortest window assumed behind a Retry-After (a service tells the time left, not its window). */
	minWindowMs: 1000,
	maxWindowMs: 60_000,
	/** Added to the window between an answer and the start `count` later (timer slack). */
	marginMs: 5,
	/** Fewest accepted requests in a window from which a count is learned. */
	minSample: 10,
	/**
	 * After windows without a 429, the count grows by this share (a service may allow more
	 * now: another worker with the key is done, a higher plan); each raise that holds is
	 * followed by one twice as large, up to doubling (slow start's reclaim).
	 */
	probe: 0.05,
	/** Windows in a row without a 429 before a first raise (each raise that finds the limit costs a 429) ... */
	probeAfterWindows: 3,
	/** ... doubled after each raise that met a 429, up to this many. */
	maxProbeAfterWindows: 12,
	/** A raise holds when this many windows pass at it without a 429. */
	probeHoldsAfterWindows: 1,
	/** What a credential's runs learned is forgotten after this long without a request. */
	rememberMs: 5000,
	/** Starts are spread at least this share of (round trip / requests in flight), at most spreadMaxMs. */
	spreadShare: 0.8,
	spreadMaxMs: 5,
	/** Weight of the newest round trip in the running average. */
	roundTripWeight: 0.2,
	/** Guess windows that start on the clock's whole windows until a 429 says otherwise (fixedWindow.ts). */
	fixedWindows: true,
};

export type RatePolicy = Readonly<typeof rateDefaults>;

export const RATE_POLICY: RatePolicy = Object.freeze(rateDefaults);

/** A permit to send one request. */
export interface Ticket {
	epoch: number;
	/** When the request may go / went (ms since epoch). */
	at: number;
	/** Set when the service answered 429. */
	refused?: boolean;
	/** When the answer (or the failure) came. */
	answeredAt?: number;
}
