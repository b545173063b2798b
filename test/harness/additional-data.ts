import type { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { HarnessCredentialsHelper, type HarnessCredentials } from './credentials';

/**
 * What n8n's server hands WorkflowExecute and node contexts about the instance, for runs
 * in-process: the credentials helper, hooks, and the instance addresses under `origin`.
 * Sub-workflows and task runners are not part of the harness.
 */
export function harnessAdditionalData(options: {
	credentials: HarnessCredentials;
	origin: string;
	executionId: string | undefined;
	hooks?: ExecutionLifecycleHooks;
	/** Told of each read of the credential. */
	onCredentialRead?: () => void;
}): IWorkflowExecuteAdditionalData {
	const { origin } = options;
	return {
		credentialsHelper: new HarnessCredentialsHelper(options.credentials, options.onCredentialRead),
		hooks: options.hooks,
		executionId: options.executionId,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${origin}/rest`,
		instanceBaseUrl: `${origin}/`,
		formBaseUrl: `${origin}/form`,
		formWaitingBaseUrl: `${origin}/form-waiting`,
		formTestBaseUrl: `${origin}/form-test`,
		webhookBaseUrl: `${origin}/webhook`,
		webhookWaitingBaseUrl: `${origin}/webhook-waiting`,
		webhookTestBaseUrl: `${origin}/webhook-test`,
		mcpBaseUrl: `${origin}/mcp`,
		mcpTestBaseUrl: `${origin}/mcp-test`,
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not available in the harness');
		},
		startRunnerTask: async () => {
			throw new Error('Task runners are not available in the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Execution data whose stack starts at `node` with the given input (as n8n starts a run). */
export function executionDataStartingAt(
	node: INode,
	main: INodeExecutionData[][],
): IRunExecutionData {
	return {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [{ node, data: { main }, source: null }],
		},
	} as unknown as IRunExecutionData;
}
