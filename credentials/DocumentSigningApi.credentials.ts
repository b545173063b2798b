import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { GUESSED_SCOPES } from '../nodes/shared/assumptions';
import { ENDPOINTS } from '../nodes/shared/endpoints';
import { GUESSED_PATH_PROPERTIES } from '../nodes/shared/pathSettings';

/**
 * API key of the Document Signing Service. The key belongs to the workspace (personal or
 * organization) that was active when it was created; that workspace decides which
 * envelopes and templates are visible and whose credits are used.
 */
export class DocumentSigningApi implements ICredentialType {
	name = 'documentSigningApi';

	displayName = 'Document Signing API';

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-document-signing#credentials';

	icon: Icon = {
		light: 'file:../icons/documentSigning.svg',
		dark: 'file:../icons/documentSigning.dark.svg',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://<your-service>/api/v1',
			hint: 'The service address including the path prefix /api/v1. If the test answers ECONNREFUSED, ENOTFOUND or ERR_INVALID_URL, n8n cannot reach this address: check its spelling and that it starts with https://.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Key created in the dashboard under Settings, API Keys',
			hint: 'Create it in the dashboard (Settings, API Keys) while the workspace whose envelopes, templates and credits n8n should use is active',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'Used by the trigger to verify deliveries',
			description: 'Secret of the webhook configured in the dashboard under Settings, Webhooks',
		},
		// Paths the specification does not show (docs/assumptions.md): the guesses are the
		// defaults; a service that serves them elsewhere is followed by changing them here.
		...GUESSED_PATH_PROPERTIES,
	];

	// A function rather than a `generic` block: n8n evaluates a block's `{{ }}` expression in
	// its expression sandbox for every request (about 1 ms each in n8n 2.41), which a batch of
	// a thousand requests pays a thousand times.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
		};
		return requestOptions;
	}

	// A cheap read: one envelope of the key's workspace. The rules turn the usual failures
	// into a sentence that says what to fix (n8n checks them in order on an error status).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: ENDPOINTS.envelopes,
			method: 'GET',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API key was not accepted: check it in the dashboard (Settings, API Keys)',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: `The API key is disabled, or it lacks the ${GUESSED_SCOPES.documentsRead} permission`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Nothing found at this Base URL: it should end in /api/v1',
				},
			},
		],
	};
}
