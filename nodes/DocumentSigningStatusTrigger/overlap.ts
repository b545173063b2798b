import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PollBudget } from './budget';
import { POLL_CLOCK } from './pollClock';
import { STATUS_POLL } from './pollPolicy';

interface Running {
	budget: PollBudget;
	done: Promise<void>;
}

/** Polls running in this process, by workflow and node. */
const running = new Map<string, Running>();

/** The last emitting poll of each trigger in this process: the number it stamped its memory with, and when. */
const emitted = new Map<string, { seq: number; at: number }>();

interface Stamped {
	/** Emitting polls so far, as n8n keeps the memory (pollSeq). */
	pollSeq?: unknown;
}

/**
 * Runs one scheduled poll of this node unless an earlier one still runs in this process, so
 * two polls never read and emit the same envelopes.
 *
 * An earlier poll within its budget is doing this work and emits it (the classic poller
 * starts a poll at each poll time, also while the last one runs; its budget is 5 minutes):
 * this one returns null. An earlier poll past its budget is one n8n's scheduler abandoned, or
 * one held by something that ignores the budget's end. Returning null then would count as a
 * successful poll: n8n's scheduler resets its backoff and the workflow looks healthy while
 * nothing is emitted. So this poll waits a little for it, and otherwise fails, saying why;
 * n8n then records the failure and backs off.
 */
export async function exclusive<T>(
	context: IPollFunctions,
	budget: PollBudget,
	poll: () => Promise<T>,
): Promise<T | null> {
	const key = `${context.getWorkflow().id}:${context.getNode().id}`;
	const memory = context.getWorkflowStaticData('node') as Stamped;
	const seq = Number(memory.pollSeq) || 0;
	if (awaitingCommit(key, seq)) return null;
	const earlier = running.get(key);
	if (earlier) {
		if (!earlier.budget.spent) return null;
		if (!(await endsSoon(earlier))) throw overrun(context, earlier.budget);
		// Another poll may have started meanwhile: the same rule holds for it.
		if (running.has(key)) return null;
	}
	let finish: () => void = () => {};
	const entry: Running = { budget, done: new Promise<void>((resolve) => (finish = resolve)) };
	running.set(key, entry);
	try {
		const result = await poll();
		// Items to start: n8n keeps this memory with their execution.
		if (result !== null && result !== undefined) {
			memory.pollSeq = seq + 1;
			emitted.set(key, { seq: seq + 1, at: POLL_CLOCK.now() });
		}
		return result;
	} finally {
		if (running.get(key) === entry) running.delete(key);
		finish();
	}
}

/**
 * Whether n8n has yet to commit the memory of this trigger's last emitting poll. n8n 2.41's
 * poll scheduler with durable cursors commits it with the execution the poll's items start,
 * after the poll has returned, without waiting for it (trigger-execution-context.factory.js
 * __emit, poll-trigger-task-handler.js): a poll starting before then reads the memory before it
 * and would start the same envelopes again (an execution with signed PDFs takes seconds to
 * save). So each emitting poll stamps its memory with a number, and a poll that finds an older
 * one reads nothing and returns null until n8n has caught up, for at most
 * STATUS_POLL.commitWaitMs: a commit that failed then repeats its envelopes rather than
 * losing them. On the classic poller the memory is the same object from poll to poll, so no
 * poll waits.
 */
function awaitingCommit(key: string, seq: number): boolean {
	const last = emitted.get(key);
	if (last === undefined) return false;
	if (seq < last.seq && POLL_CLOCK.now() - last.at < STATUS_POLL.commitWaitMs) return true;
	emitted.delete(key);
	return false;
}

/** Whether the earlier poll ends within STATUS_POLL.overrunWaitMs. */
async function endsSoon(earlier: Running): Promise<boolean> {
	const timer = new AbortController();
	try {
		return await Promise.race([
			earlier.done.then(() => true),
			POLL_CLOCK.sleep(STATUS_POLL.overrunWaitMs, timer.signal).then(
				() => false,
				() => false,
			),
		]);
	} finally {
		timer.abort();
	}
}

function overrun(context: IPollFunctions, budget: PollBudget): NodeOperationError {
	const seconds = (ms: number) => Math.round(ms / 1000);
	return new NodeOperationError(
		context.getNode(),
		`An earlier poll of this trigger is still running ${seconds(budget.elapsedMs())} s after it started, past its budget of ${seconds(budget.ms)} s, so this poll read nothing`,
		{
			description:
				'Each poll stops before its budget (in n8n 2.x with the poll scheduler: N8N_SCHEDULER_POLL_TIMEOUT less a margin) and emits what it has; one that does not is waiting on the service or on n8n. Polls run again normally once it has ended. If this repeats, check that the service answers.',
		},
	);
}
