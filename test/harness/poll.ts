/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Polls a polling trigger the way an active n8n workflow does, with n8n's own code doing
 * the work: n8n-core's `PollContext` runs the node's `poll()`, and n8n-core's
 * `WorkflowExecute` runs the execution a poll with results starts (in `trigger` mode the
 * poll node passes those results on, as in n8n).
 *
 * As in n8n's main process, one `Workflow` object lives from activation on, so its static
 * data carries over from poll to poll; it is stored (as n8n saves it to its database) when
 * a poll starts an execution. `restart()` rebuilds the workflow from the stored copy, as
 * after an n8n restart. `manual()` runs the workflow as the editor's test step does.
 *
 *   const poller = await startPollRunner({ credentials, parameters: { statuses: ['completed'] } });
 *   await poller.poll();  // { items, executionId } or null
 */
import 'reflect-metadata';
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
} from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';
import { PollContext } from 'n8n-core';

import { DocumentSigningStatusTrigger } from '../../nodes/DocumentSigningStatusTrigger/DocumentSigningStatusTrigger.node';
import { harnessAdditionalData } from './additional-data';
import type { HarnessCredentials } from './credentials';
import {
	nodeTypesWith,
	runFromTrigger,
	storedWorkflow,
	triggerNodeOf,
	workflowOf,
} from './trigger-workflow';

export const POLL_NODE_NAME = 'Document Signing Status Trigger';
const POLL_TYPE = 'documentSigningStatusTrigger';
const POLLER: INodeType = new DocumentSigningStatusTrigger();
const nodeTypes = nodeTypesWith(POLL_TYPE, POLLER);

export interface PollRunnerOptions {
	credentials: HarnessCredentials;
	/** Parameters of the trigger node. */
	parameters?: INodeParameters;
	/** Nodes after the trigger and their connections (the trigger is `POLL_NODE_NAME`). */
	nodes?: INode[];
	connections?: IConnections;
}

export interface PollResult {
	/** Items the trigger emitted (as the execution's trigger output). */
	items: INodeExecutionData[];
	run: IRun;
}

let runnerCount = 0;

export async function startPollRunner(options: PollRunnerOptions) {
	const trigger = triggerNodeOf({
		id: 'poller',
		name: POLL_NODE_NAME,
		type: POLL_TYPE,
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...(options.parameters ?? {}) },
	});
	// What n8n keeps in its database.
	const stored = storedWorkflow({
		id: `poll-harness-${++runnerCount}`,
		name: 'Poll harness workflow',
		nodes: [trigger, ...(options.nodes ?? [])],
		connections: options.connections,
	});
	let executionCount = 0;
	const additionalData = (
		executionId?: string,
		hooks?: Parameters<typeof harnessAdditionalData>[0]['hooks'],
	) =>
		harnessAdditionalData({
			credentials: options.credentials,
			origin: 'http://127.0.0.1',
			executionId,
			hooks,
		});

	// The workflow n8n builds on activation and keeps while the workflow is active.
	const newWorkflow = () => workflowOf(stored, nodeTypes, deepCopy(stored.staticData ?? {}));
	let workflow = newWorkflow();

	function save(): void {
		if ((workflow.staticData as IDataObject).__dataChanged === true) {
			stored.staticData = deepCopy(workflow.staticData);
			(workflow.staticData as IDataObject).__dataChanged = false;
		}
	}

	async function execute(
		mode: 'trigger' | 'manual',
		main: INodeExecutionData[][],
	): Promise<PollResult> {
		const executionId = String(++executionCount);
		return await runFromTrigger({
			stored,
			// A run gets its own Workflow over the same static data, as n8n's WorkflowRunner does.
			workflow: workflowOf(stored, nodeTypes, workflow.staticData),
			mode,
			executionId,
			triggerName: POLL_NODE_NAME,
			main,
			additionalData: (hooks) => additionalData(executionId, hooks),
		});
	}

	/** One scheduled poll: the node's `poll()` in `trigger` mode, then the execution it starts, if any. */
	async function poll(): Promise<PollResult | null> {
		const node = workflow.getNode(POLL_NODE_NAME)!;
		const context = new PollContext(workflow, node, additionalData(), 'trigger', 'activate');
		const response = await POLLER.poll!.call(context);
		if (response === null) return null;
		// n8n saves the static data as the poll emits, before the run starts.
		save();
		return await execute('trigger', response);
	}

	return {
		poll,
		/** The editor's "Fetch Test Event": a manual run of the workflow from the trigger. */
		manual: async () => await execute('manual', [[{ json: {} }]]),
		/** The static data n8n has stored and the copy in memory. */
		storedStaticData: () => deepCopy(stored.staticData ?? {}) as IDataObject,
		liveStaticData: () => workflow.staticData as IDataObject,
		/** n8n restarted: the workflow is rebuilt from the stored static data. */
		restart: () => {
			save();
			workflow = newWorkflow();
		},
		executions: () => executionCount,
	};
}

export type PollRunner = Awaited<ReturnType<typeof startPollRunner>>;
