/** What the queue-mode suites share: the context, n8n's execution records, which process ran what. */
import type { AxiosInstance } from 'axios';

import type { QueueStack } from '../../scripts/lib/queue-stack';
import type { Stack, WorkflowFixture } from '../../scripts/lib/stack';
import type { Execution } from '../e2e/lib';

export interface QueueContext {
	queue: QueueStack;
	stack: Stack;
	/** The sandbox's control interface (`/__sandbox`). */
	sandbox: AxiosInstance;
	workflows: Record<string, WorkflowFixture>;
}

/** A request of the sandbox's log (GET /__sandbox/requests). */
export interface LoggedRequest {
	method: string;
	path: string;
	status: number | null;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox logs any body
	body: any;
}

export interface ExecutionSummary {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
	workflowId: string;
}

/** Every execution of a workflow (no data), oldest first, through n8n's public API pages. */
export async function listExecutions(
	stack: Stack,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	do {
		const response = await stack.api.get('/executions', {
			params: { workflowId, limit: 250, cursor },
		});
		if (response.status !== 200)
			throw new Error(
				`GET /api/v1/executions answered ${response.status}: ${JSON.stringify(response.data).slice(0, 300)}`,
			);
		all.push(...(response.data.data as ExecutionSummary[]));
		cursor = response.data.nextCursor ?? undefined;
	} while (cursor);
	return all.sort((a, b) => Number(a.id) - Number(b.id));
}

/** One execution with its data. */
export async function executionWithData(stack: Stack, id: string): Promise<Execution> {
	const response = await stack.api.get(`/executions/${id}`, { params: { includeData: true } });
	if (response.status !== 200)
		throw new Error(`GET /api/v1/executions/${id} answered ${response.status}`);
	return response.data as Execution;
}

export const finished = (e: ExecutionSummary) => !['new', 'running', 'waiting'].includes(e.status);

/**
 * Which process ran each execution, from n8n's logs: the process that logged
 * "Worker finished execution N"; and the executions each process enqueued.
 */
export async function processLog(
	queue: QueueStack,
): Promise<{ ranBy: Map<string, string>; enqueuedBy: Map<string, string> }> {
	const ranBy = new Map<string, string>();
	const enqueuedBy = new Map<string, string>();
	for (const name of ['n8n', 'webhook', ...queue.workerNames]) {
		const text = await queue.logOf(name);
		for (const match of text.matchAll(/Worker finished execution (\d+)/g))
			ranBy.set(match[1], name);
		for (const match of text.matchAll(/Enqueued execution (\d+)/g)) enqueuedBy.set(match[1], name);
	}
	return { ranBy, enqueuedBy };
}

/** `worker-1: 3, worker-2: 1` for a list of execution ids. */
export function perProcess(ids: string[], ranBy: Map<string, string>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const id of ids) {
		const name = ranBy.get(id) ?? 'no worker';
		counts[name] = (counts[name] ?? 0) + 1;
	}
	return counts;
}
