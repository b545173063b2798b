import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
			placeholder: 'https://<your-service>/api/v1',
			description: 'Address of the service including the path prefix /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Key created in the dashboard under Settings, API Keys',
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
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// A cheap read: one envelope of the key's workspace.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/envelopes',
			method: 'GET',
			qs: { limit: 1 },
		},
	};
}
