/**
 * n8n-core's real LoadOptionsContext (what the editor's backend uses) for the action node,
 * with the credential applied by the credential type's own block: the context in which
 * listSearch, loadOptions and resourceMapping methods run.
 */
import type { INode, INodeParameters, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import type { Harness } from './index';
import { type HarnessCredentials, HarnessCredentialsHelper } from './credentials';
import { nodeTypes } from './node-types';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

/** The load-options context of a Document Signing node with `parameters`, using `apiKey` (and other credential fields). */
export function loadOptionsContext(
	h: Harness,
	parameters: INodeParameters,
	apiKey = h.sandbox.apiKey,
	credentials: Partial<HarnessCredentials> = {},
): LoadOptionsContext {
	const node: INode = {
		id: 'n1',
		name: 'Document Signing',
		type: 'documentSigning',
		typeVersion: Math.max(...NODE_VERSIONS),
		position: [0, 0],
		parameters,
		credentials: { documentSigningApi: { id: '1', name: 'Document Signing account' } },
	};
	const workflow = new Workflow({
		id: 'w',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const additionalData = {
		credentialsHelper: new HarnessCredentialsHelper({
			baseUrl: h.sandbox.baseUrl,
			apiKey,
			webhookSecret: h.sandbox.webhookSecret,
			...credentials,
		}),
		currentNodeParameters: parameters,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters');
}
