import { sleep } from 'n8n-workflow';

/**
 * n8n's Stop, as the node sees it: the execution's cancel signal (n8n-workflow's
 * `getExecutionCancelSignal`, absent in contexts and versions without it, where nothing
 * can be stopped from inside and every wait runs out as before). Every wait of the node
 * goes through `pause` here, so a Stop ends all of them at once.
 */

/** Thrown by a wait or a request start after Stop; the router turns it into one error. */
export class ExecutionStopped extends Error {
	/** @param underWay  a request was aborted in flight: it may have reached the service */
	constructor(readonly underWay = false) {
		super('The execution was stopped');
		this.name = 'ExecutionStopped';
	}
}

/** The run's cancel signal, or undefined where n8n gives none. */
export function cancelSignalOf(context: object): AbortSignal | undefined {
	const get = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	if (typeof get !== 'function') return undefined;
	try {
		return get.call(context) ?? undefined;
	} catch {
		return undefined;
	}
}

export function isStopped(signal: AbortSignal | undefined): boolean {
	return signal?.aborted === true;
}

/** Ends the current request's work: it was aborted by Stop (`underWay`: while in flight). */
export function stopNow(underWay: boolean): never {
	throw new ExecutionStopped(underWay);
}

/** Before a request or an item starts: nothing new after Stop. */
export function throwIfStopped(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new ExecutionStopped();
}

/**
 * Resolves when `promise` does, or rejects with ExecutionStopped as soon as the signal
 * aborts (the promise itself is left to settle on its own).
 */
export async function untilStopped<T>(
	promise: Promise<T>,
	signal: AbortSignal | undefined,
): Promise<T> {
	if (!signal) return await promise;
	throwIfStopped(signal);
	let onAbort: () => void = () => {};
	const stopped = new Promise<never>((_, reject) => {
		onAbort = () => reject(new ExecutionStopped());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, stopped]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * Waits `ms` (a Retry-After, the pace, a backoff), ending at once with ExecutionStopped
 * when the execution is stopped. n8n-workflow's `sleep` takes the signal itself in 2.x
 * (where its timer is cleared too); 1.x ignores it, so the race ends the wait either way.
 */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (!signal) return await sleep(ms);
	throwIfStopped(signal);
	const timer = (sleep as (ms: number, signal?: AbortSignal) => Promise<void>)(ms, signal).catch(
		() => undefined,
	);
	await untilStopped(timer, signal);
}
