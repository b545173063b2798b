/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * n8n 2.41's poll scheduler with durable cursors, in-process, as its code does it
 * (n8n/dist/scheduling/poll-trigger-node/poll-trigger-task-handler.js and
 * workflows/triggers/trigger-execution-context.factory.js getExecutePollFunctions):
 *
 * - each tick builds n8n-core's PollContext over a copy of the committed cursor (the node's
 *   static data), with `getPollBudgetMs()` = the timeout less n8n's margin;
 * - it races the poll against N8N_SCHEDULER_POLL_TIMEOUT; past it the poll is abandoned:
 *   nothing emitted, nothing committed, and the poll's promise goes on unseen;
 * - a poll that returns commits the copy (with its execution when it emitted items).
 *
 * Time is the test's clock (service-clock.ts), so the timeout and the budget are the same
 * rule on every machine.
 */
import 'reflect-metadata';
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';
import { PollContext } from 'n8n-core';

import { DocumentSigningStatusTrigger } from '../../nodes/DocumentSigningStatusTrigger/DocumentSigningStatusTrigger.node';
import type { Clock } from '../../nodes/shared/run/clock';
import { harnessAdditionalData } from '../harness/additional-data';
import type { HarnessCredentials } from '../harness/credentials';
import {
	nodeTypesWith,
	storedWorkflow,
	triggerNodeOf,
	workflowOf,
} from '../harness/trigger-workflow';

const NAME = 'Document Signing Status Trigger';
const TYPE = 'documentSigningStatusTrigger';
const POLLER: INodeType = new DocumentSigningStatusTrigger();
const nodeTypes = nodeTypesWith(TYPE, POLLER);
const TIMED_OUT = Symbol('timed out');

/** n8n's budget for a timeout (getExecutePollFunctions: the ceiling less 20 %, at least 5 s, at most half). */
export function budgetFor(timeoutMs: number, leaseMs = 60_000): number {
	const ceiling = Math.min(timeoutMs, leaseMs);
	return ceiling - Math.min(Math.max(0.2 * ceiling, 5_000), ceiling / 2);
}

export type Tick =
	| { kind: 'emitted'; items: INodeExecutionData[]; ms: number }
	| { kind: 'empty'; ms: number }
	| { kind: 'abandoned'; ms: number }
	| { kind: 'failed'; error: Error; ms: number };

let count = 0;

export function scheduledPolls(options: {
	credentials: HarnessCredentials;
	parameters: INodeParameters;
	clock: Clock;
	timeoutMs: number;
}) {
	const { clock, timeoutMs } = options;
	const budgetMs = budgetFor(timeoutMs);
	const trigger = triggerNodeOf({
		id: 'status-trigger',
		name: NAME,
		type: TYPE,
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...options.parameters },
	});
	const stored = storedWorkflow({
		id: `scheduled-${++count}`,
		name: 'Scheduled polls',
		nodes: [trigger],
	});
	// The cursor n8n keeps in its poller_state table.
	let committed: IDataObject = {};
	const additionalData = harnessAdditionalData({
		credentials: options.credentials,
		origin: 'http://127.0.0.1',
		executionId: undefined,
	});

	/** n8n-core's PollContext for one tick, over `staged`. */
	function contextOf(staged: IDataObject): PollContext {
		const workflow = workflowOf(stored, nodeTypes, {});
		return new PollContext(
			workflow,
			workflow.getNode(NAME)!,
			additionalData,
			'trigger',
			'update',
			undefined,
			undefined,
			undefined,
			undefined,
			() => staged,
			() => budgetMs,
		);
	}

	async function tick(): Promise<Tick> {
		const staged = deepCopy(committed);
		const context = contextOf(staged);
		const started = clock.now();
		const ms = () => clock.now() - started;
		const poll = POLLER.poll!.call(context);
		poll.catch(() => undefined);
		const timer = new AbortController();
		const timeout = clock.sleep(timeoutMs, timer.signal).then(
			() => TIMED_OUT,
			() => undefined,
		);
		try {
			const outcome = await Promise.race([poll, timeout]);
			if (outcome === TIMED_OUT) return { kind: 'abandoned', ms: ms() };
			committed = staged;
			if (!outcome) return { kind: 'empty', ms: ms() };
			return { kind: 'emitted', items: (outcome as INodeExecutionData[][])[0], ms: ms() };
		} catch (error) {
			return { kind: 'failed', error: error as Error, ms: ms() };
		} finally {
			timer.abort();
		}
	}

	return { tick, budgetMs, committed: () => deepCopy(committed), contextOf };
}

export type ScheduledPolls = ReturnType<typeof scheduledPolls>;
