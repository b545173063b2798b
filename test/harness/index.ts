/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Runs real n8n workflows in-process: n8n-workflow's `Workflow` and n8n-core's
 * `WorkflowExecute` execute this package's node types against the API sandbox.
 * Nothing of n8n is replaced: requests go through n8n's HTTP helpers, credentials through
 * the credential type's own `authenticate` block (its expressions evaluated by n8n's
 * expression engine), binary data through n8n's BinaryDataService.
 *
 *   const h = await startHarness();
 *   const result = await h.run({
 *     nodes: [seedNode(), actionNode({ resource: 'envelope', operation: 'getStatus', envelopeId: '={{$json.id}}' })],
 *     connections: chain('Seed', 'Document Signing'),
 *     input: [{ json: { id } }],
 *   });
 *   result.items('Document Signing'); await h.requests(); await h.close();
 */
import 'reflect-metadata';
import * as path from 'path';
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IRun,
	IWorkflowBase,
	NodeParameterValueType,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { forgetLearnedPaces } from '../../nodes/shared/pacing/rate';
import type { RetryPolicy } from '../../nodes/shared/pacing/retry';
import { startSandbox } from '../sandbox/server';
import { admin, adminPost } from '../sandbox-admin';
import { executionDataStartingAt, harnessAdditionalData } from './additional-data';
import type { HarnessCredentials } from './credentials';
import { addNodeType, nodeTypes, registerSeed, SEED_NODE_TYPE, type SeedItem } from './node-types';
import { HarnessRetry } from './retry';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

export type { HarnessCredentials } from './credentials';
export type { SeedItem } from './node-types';
export { SEED_NODE_TYPE } from './node-types';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface SandboxRequest {
	method: string;
	path: string;
	query: IDataObject;
	body: unknown;
	keyId?: string;
	status: number;
	hasAuthorization: boolean;
	time: string;
	/** The injected fault that hit the request (timeout, connectionReset, status503, ...). */
	fault?: string | null;
}

export interface RunOptions {
	nodes: INode[];
	connections: IConnections;
	/** Overrides of the credential data; by default the sandbox's URL and key. */
	credentials?: Partial<HarnessCredentials>;
	/** Items the "Seed" node emits (binary as Buffers; stored through prepareBinaryData). */
	input?: SeedItem[];
	/**
	 * Stops the execution this many ms after it starts, as n8n's Stop does: the cancel of
	 * WorkflowExecute's promise, which aborts the execution's AbortController.
	 */
	stopAfterMs?: number;
	/** Stops the execution the same way once this holds (asked every 20 ms). */
	stopWhen?: () => Promise<boolean>;
}

export interface RunResult {
	run: IRun;
	runData: IRun['data']['resultData']['runData'];
	/** The workflow's error, if it stopped on one. */
	error?: IRun['data']['resultData']['error'];
	/** Items of output `output` (0 by default; 1 is the error output) of the node's (first) run. */
	items(nodeName: string, output?: number): INodeExecutionData[];
	/** With `stopAfterMs`: when the stop was asked, and when the execution's promise settled (ms since epoch). */
	stoppedAt?: number;
	settledAt?: number;
	/** The bytes of binary property `property` of output item `index`. */
	binary(nodeName: string, index: number, property?: string): Promise<Buffer>;
}

// n8n-core carries its own copy of the DI container: use that one, or its services are unknown.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require(
	require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }),
) as typeof import('@n8n/di');

let binaryDataReady: Promise<void> | undefined;

/** n8n's binary data service in 'default' mode: binary data lives in memory (base64 in the item). */
async function initBinaryData(): Promise<void> {
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'default';
	binaryDataReady ??= Container.get(BinaryDataService).init();
	await binaryDataReady;
}

/** A node of the seed type, which emits `RunOptions.input`. */
export function seedNode(name = 'Seed'): INode {
	return {
		id: 'seed',
		name,
		type: SEED_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/**
 * The action node with the given parameters; `continueOnFail` sets n8n's "On Error: Continue
 * (using regular output)", `onError` any of n8n's On Error settings.
 */
export function actionNode(
	parameters: Record<string, NodeParameterValueType>,
	options: {
		name?: string;
		continueOnFail?: boolean;
		onError?: INode['onError'];
		/** A saved workflow's older version; the newest by default. */ typeVersion?: number;
	} = {},
): INode {
	return {
		id: 'action',
		name: options.name ?? 'Document Signing',
		type: 'documentSigning',
		typeVersion: options.typeVersion ?? Math.max(...NODE_VERSIONS),
		position: [200, 0],
		parameters,
		credentials: { documentSigningApi: { id: '1', name: 'Document Signing account' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.onError ? { onError: options.onError } : {}),
	};
}

/** Connections that run the named nodes one after another. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

/** Starts a sandbox on a free loopback port; `nodeTypes` adds test-only node types by name. */
export async function startHarness(
	options: {
		nodeTypes?: Record<string, INodeType>;
		/** Start the sandbox in its variant mode (docs/sandbox.md). */ variant?: boolean;
		/** Retry waits of every run (the product's defaults with these); `retryPolicy` changes them. */
		retry?: Partial<RetryPolicy>;
	} = {},
) {
	await initBinaryData();
	const retry = new HarnessRetry(options.retry);
	for (const [name, type] of Object.entries(options.nodeTypes ?? {})) addNodeType(name, type);
	const sandbox: Sandbox = await startSandbox({ port: 0, variant: options.variant });
	let executions = 0;

	async function run(options: RunOptions): Promise<RunResult> {
		const executionId = String(++executions);
		const credentials: HarnessCredentials = {
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			webhookSecret: sandbox.webhookSecret,
			...options.credentials,
		};
		const seedKey = registerSeed(options.input ?? [{ json: {} }]);
		const nodes = options.nodes.map((node) =>
			node.type === SEED_NODE_TYPE ? { ...node, parameters: { seedKey } } : node,
		);
		const workflowData: IWorkflowBase = {
			id: 'harness',
			name: 'Harness workflow',
			active: false,
			activeVersionId: null,
			isArchived: false,
			nodes,
			connections: options.connections,
			settings: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		};
		const workflow = new Workflow({ ...workflowData, nodeTypes, settings: {} });

		const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
		let finish: (run: IRun) => void = () => {};
		const finished = new Promise<IRun>((resolve) => (finish = resolve));
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => finish(fullRunData));

		const additionalData = harnessAdditionalData({
			credentials,
			origin: 'http://127.0.0.1',
			executionId,
			hooks,
		});

		const start = nodes.find((node) => node.type === SEED_NODE_TYPE) ?? workflow.getStartNode();
		if (!start) throw new Error('The workflow has no start node');
		const releaseRetry = retry.holdFor(credentials);
		const runExecutionData = executionDataStartingAt(start, [[{ json: {} }]]);

		const execution = new WorkflowExecute(
			additionalData,
			'manual',
			runExecutionData,
		).processRunExecutionData(workflow);
		let stoppedAt: number | undefined;
		let settled = false;
		const stop = () => {
			if (settled || stoppedAt !== undefined) return;
			stoppedAt = Date.now();
			execution.cancel();
		};
		// real time: n8n's Stop pressed this long after the start, as a user would
		const stopTimer =
			options.stopAfterMs === undefined ? undefined : setTimeout(stop, options.stopAfterMs);
		const stopWhen = options.stopWhen;
		const watching = stopWhen
			? (async () => {
					while (!settled && stoppedAt === undefined) {
						if (await stopWhen()) stop();
						// real time: asks again in 20 ms; the run goes on meanwhile
						else await new Promise((resolve) => setTimeout(resolve, 20));
					}
				})()
			: undefined;
		// After a cancel it settles once the running node has returned (p-cancelable, shouldReject false).
		try {
			await execution;
		} finally {
			releaseRetry();
		}
		const settledAt = Date.now();
		settled = true;
		clearTimeout(stopTimer);
		await watching;
		const fullRun = await finished;
		const { runData, error } = fullRun.data.resultData;

		const items = (nodeName: string, output = 0) =>
			runData[nodeName]?.[0]?.data?.main?.[output] ?? [];
		return {
			run: fullRun,
			runData,
			error,
			stoppedAt,
			settledAt: stoppedAt === undefined ? undefined : settledAt,
			items,
			async binary(nodeName, index, property = 'data') {
				const binaryData = items(nodeName)[index]?.binary?.[property];
				if (!binaryData) throw new Error(`${nodeName}[${index}] has no binary "${property}"`);
				return await Container.get(BinaryDataService).getAsBuffer(binaryData);
			},
		};
	}

	/** The sandbox's request log (API and storage requests, oldest first; never the key). */
	async function requests(): Promise<SandboxRequest[]> {
		return ((await admin(sandbox).get('/requests')).data as { items: SandboxRequest[] }).items;
	}

	/** Resets the sandbox: data, request log and faults (the keys stay). */
	async function reset(): Promise<void> {
		await adminPost(sandbox, 'reset', {});
		// A new sandbox has new limits: no pace learned from an earlier case's 429s.
		forgetLearnedPaces();
		retry.restore();
	}

	/**
	 * Retry waits of the next runs: the product's defaults with `overrides` (none: the
	 * defaults); `reset` goes back to the harness's `retry` option. Returns the policy.
	 */
	function retryPolicy(overrides?: Partial<RetryPolicy>): RetryPolicy {
		return retry.set(overrides);
	}

	/** Calls the API directly (to seed data), with the sandbox's key unless another is given. */
	async function api<T = IDataObject>(
		method: string,
		path: string,
		body?: unknown,
		apiKey = sandbox.apiKey,
	): Promise<T> {
		const response = await fetch(`${sandbox.baseUrl}${path}`, {
			method,
			headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	/** Injects faults (the sandbox's faults body: failures, connectionReset, malformedJson, timeout, ...); `{}` clears them. */
	async function fault(spec: IDataObject): Promise<void> {
		await adminPost(sandbox, 'faults', spec);
	}

	return {
		sandbox,
		run,
		api,
		requests,
		reset,
		fault,
		retryPolicy,
		close: async () => await sandbox.close(),
	};
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
