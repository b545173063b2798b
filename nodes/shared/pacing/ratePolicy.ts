/** The tuning of the rate window (rateWindow.ts) and the permit it hands out per request. */

/** Tuning; a test passes its own to RateWindow and RateController. */
const rateDefaults = {
	/**
	 * The shortest window assumed (a Retry-After of one second or less says little more), and
	 * the longest a start waits for the answer that decides it (the credential's first answer,
	 * which says whether the service announces its budget).
	 */
	minWindowMs: 1000,
	/**
	 * Added to the window between a start and the start `count` later (timer and network
	 * slack): marginMs, or this share of a longer window. A request reaches the service a
	 * varying time after its start, and a window measured from a Retry-After to the
	 * millisecond is short by the difference of two such delays; at a minute's window 60 ms.
	 */
	marginMs: 5,
	marginShare: 0.001,
	/**
	 * After windows without a 429, the count grows by this share (a service may allow more
	 * now: another worker with the key is done, a higher plan); each raise that holds is
	 * followed by one twice as large, up to doubling (slow start's reclaim). Never when the
	 * service announces its limit.
	 */
	probe: 0.02,
	/** Windows in a row without a 429 before a first raise (each raise that finds the limit costs a 429) ... */
	probeAfterWindows: 3,
	/** ... doubled after each raise that met a 429, up to this many. */
	maxProbeAfterWindows: 12,
	/** What a credential's runs learned is forgotten after this long without a request. */
	rememberMs: 5000,
	/** Starts are spread at least this share of (round trip / requests in flight), at most spreadMaxMs. */
	spreadShare: 0.8,
	spreadMaxMs: 5,
	/**
	 * Before any count is known, starts go at least this far apart from the first answer on,
	 * the gap halved every rampHalvingMs: the 429s of a limit nobody announced come back
	 * while starts go on, so fewer go out meanwhile at a low limit.
	 */
	rampGapMs: 5,
	rampHalvingMs: 35,
	/** ... for this many starts at most: past them a first window's overshoot is a small share of it. */
	rampStarts: 50,
	/** Weight of the newest round trip in the running average. */
	roundTripWeight: 0.2,
	/** Guess one-second windows that start on the clock's seconds until a 429 says otherwise (fixedWindow.ts). */
	fixedWindows: true,
};

export type RatePolicy = Readonly<typeof rateDefaults>;

export const RATE_POLICY: RatePolicy = Object.freeze(rateDefaults);

/** A permit to send one request. */
export interface Ticket {
	epoch: number;
	/** When the request may go / went (ms since epoch). */
	at: number;
	/** Set when the service answered 429, or when the start was given up before it went. */
	refused?: boolean;
	/** When the answer (or the failure) came. */
	answeredAt?: number;
}

/** The index of the first of `sends` (in the order of their starts) that started at `at` or later (`after`: later). */
export function firstFrom(sends: readonly Ticket[], at: number, after = false): number {
	let low = 0;
	let high = sends.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if (sends[mid].at < at || (after && sends[mid].at === at)) low = mid + 1;
		else high = mid;
	}
	return low;
}
