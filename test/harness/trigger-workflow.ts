/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * What the webhook and poll runners share: an active workflow as n8n stores it, the
 * `Workflow` objects n8n builds of it, and an execution started from its trigger node.
 */
import 'reflect-metadata';
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { deepCopy, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { executionDataStartingAt } from './additional-data';
import { nodeTypes as harnessNodeTypes } from './node-types';

/** The harness's node types plus one trigger type under `typeName`. */
export function nodeTypesWith(typeName: string, type: INodeType): INodeTypes {
	const isTrigger = (name: string) => name.replace(/^.*\./, '') === typeName;
	return {
		getByName: (name) => (isTrigger(name) ? type : harnessNodeTypes.getByName(name)),
		getByNameAndVersion: (name, version) =>
			isTrigger(name) ? type : harnessNodeTypes.getByNameAndVersion(name, version),
		getKnownTypes: () => ({}),
	};
}

/** A trigger node with the harness credential. */
export function triggerNodeOf(node: {
	id: string;
	name: string;
	type: string;
	parameters: INodeParameters;
	webhookId?: string;
	typeVersion?: number;
}): INode {
	return {
		typeVersion: 1,
		position: [0, 0],
		...node,
		credentials: { documentSigningApi: { id: '1', name: 'Document Signing account' } },
	};
}

/** An active workflow as n8n keeps it in its database. */
export function storedWorkflow(options: {
	id: string;
	name: string;
	nodes: INode[];
	connections?: IConnections;
	staticData?: IDataObject;
}): IWorkflowBase {
	return {
		id: options.id,
		name: options.name,
		active: true,
		activeVersionId: null,
		isArchived: false,
		nodes: options.nodes,
		connections: options.connections ?? {},
		settings: {},
		staticData: deepCopy(options.staticData ?? {}),
		createdAt: new Date(),
		updatedAt: new Date(),
	};
}

/** A `Workflow` of the stored workflow over the given static data (n8n builds one per use). */
export function workflowOf(
	stored: IWorkflowBase,
	nodeTypes: INodeTypes,
	staticData: IDataObject,
): Workflow {
	return new Workflow({
		id: stored.id,
		name: stored.name,
		nodes: deepCopy(stored.nodes),
		connections: stored.connections,
		active: true,
		nodeTypes,
		staticData,
		settings: {},
	});
}

/**
 * Runs an execution of `workflow` that starts at the trigger node with `main` as its
 * output, as n8n runs a trigger's execution; resolves with the finished run and the
 * items the trigger node passed on.
 */
export async function runFromTrigger(options: {
	stored: IWorkflowBase;
	workflow: Workflow;
	mode: WorkflowExecuteMode;
	executionId: string;
	triggerName: string;
	main: INodeExecutionData[][];
	additionalData: (hooks: ExecutionLifecycleHooks) => IWorkflowExecuteAdditionalData;
}): Promise<{ items: INodeExecutionData[]; run: IRun }> {
	const { stored, workflow, mode, executionId, triggerName, main } = options;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, stored);
	let finish: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (finish = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finish(fullRunData));
	const start = workflow.getNode(triggerName)!;
	await new WorkflowExecute(
		options.additionalData(hooks),
		mode,
		executionDataStartingAt(start, main),
	).processRunExecutionData(workflow);
	const run = await finished;
	const items = run.data.resultData.runData[triggerName]?.[0]?.data?.main?.[0] ?? [];
	return { items, run };
}
