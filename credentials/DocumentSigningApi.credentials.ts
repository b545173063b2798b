import type {
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { checkBaseUrl, originOf } from '../nodes/shared/guard/baseUrl';
import { GUESSED_PATH_PROPERTIES } from '../nodes/shared/api/pathSettings';
import { credentialSafetySetting } from '../nodes/shared/api/parameters';

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
			hint: 'The service address including the path prefix /api/v1. If the test answers ECONNREFUSED or ENOTFOUND, n8n cannot reach this address: check its spelling and that it starts with https://.',
			description:
				'The API key is sent only to this address: never over a redirect to another one, never to a link-local or cloud metadata address, and over plain http:// only to this machine (loopback) unless Allow Insecure HTTP is on',
		},
		{
			displayName: 'Allow Insecure HTTP',
			name: 'allowInsecureHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether a Base URL starting with http:// may point at another machine. The API key then travels unencrypted: turn this on only for a service on a network you trust. Only true or the text "true" turns it on.',
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
	// The key is attached only to requests for the Base URL's origin (a second guard beside
	// the transport's checks).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const base = checkBaseUrl(
			credentials.baseUrl,
			credentialSafetySetting('allowInsecureHttp', credentials.allowInsecureHttp),
		);
		// n8n's HTTP Request node sends the address as `uri` (its legacy request options).
		const address = requestOptions.url ?? String((requestOptions as { uri?: unknown }).uri ?? '');
		const target = originOf(
			address,
			requestOptions.baseURL ? `${requestOptions.baseURL}/` : undefined,
		);
		if (!base.ok || target !== base.origin) return requestOptions;
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
		};
		return requestOptions;
	}

	// No declarative `test`: n8n would follow redirects with the key and could not check the
	// Base URL. The nodes name a function test instead (`testedBy`, nodes/shared/http/credentialTest.ts).
}
