import type {
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/**
 * What the rooms of nodes/shared pass to one another: the n8n contexts that make API calls
 * and the credential type they call with. Kept here, apart, so the transport, the pacing and
 * the run cache can each name them without importing one another.
 */
export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IExecuteSingleFunctions
	| IPollFunctions;

/** The credential every API call authenticates with. */
export const CREDENTIAL_TYPE = 'documentSigningApi';
