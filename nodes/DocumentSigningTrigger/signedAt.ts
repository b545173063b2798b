/** How old or how far ahead a signed timestamp may be; both signature schemes apply it. */
export interface SignedAtWindow {
	nowMs?: number;
	/** The accepted window around now (0 turns a side off). */
	maxAgeMs?: number;
	maxSkewMs?: number;
}

/** Why a timestamp (seconds since the epoch) falls outside the window, or undefined when inside. */
export function outsideWindow(
	seconds: string,
	window: SignedAtWindow,
): 'stale_timestamp' | 'future_timestamp' | undefined {
	const signedMs = Number(seconds) * 1000;
	const now = window.nowMs ?? Date.now();
	if (window.maxAgeMs && signedMs < now - window.maxAgeMs) return 'stale_timestamp';
	if (window.maxSkewMs && signedMs > now + window.maxSkewMs) return 'future_timestamp';
	return undefined;
}
