/**
 * Every endpoint path of the API, written as the specification writes them (`{id}` for a
 * path parameter). The node fills them with `apiPath`, so a path changes in one place (the
 * sandbox, a second reading of the specification, writes its routes itself).
 */
export const ENDPOINTS = {
	envelopes: '/envelopes',
	envelopeSend: '/envelopes/{envelopeId}/send',
	envelopeStatus: '/envelopes/{envelopeId}/status',
	envelopeFile: '/envelopes/{envelopeId}/file',
	envelopeFields: '/envelopes/{envelopeId}/fields',
	envelopeRecipients: '/envelopes/{envelopeId}/recipients',
	envelopeEstampCheck: '/envelopes/{envelopeId}/estamp/check',
	documentSend: '/documents/{envelopeId}/send',

	templates: '/templates',
	template: '/templates/{templateId}',
	templateCopies: '/templates/{templateId}/copies',
	templateDocumentPayload: '/templates/{templateId}/document-payload',
	templateDocuments: '/templates/{templateId}/documents',

	/** POST shown; GET (list) guessed. */
	workflows: '/workflows',
	/** PATCH shown; GET guessed. */
	workflow: '/workflows/{workflowId}',
	workflowPublish: '/workflows/{workflowId}/publish',
	workflowRuns: '/workflows/{workflowId}/runs',

	creditTransactions: '/credits/transactions',
	creditUsage: '/credits/usage',
	creditBalance: '/credits/balance',
} as const;

export type Endpoint = keyof typeof ENDPOINTS;

/**
 * Endpoints whose path (or method on the path) the specification does not show: the
 * conventional REST guess, listed in assumptions.ts and docs/assumptions.md.
 */
export const GUESSED_ENDPOINTS: ReadonlyArray<{ method: string; endpoint: Endpoint }> = [
	{ method: 'GET', endpoint: 'creditBalance' },
	{ method: 'GET', endpoint: 'workflows' },
	{ method: 'GET', endpoint: 'workflow' },
];

const PARAMETER = /\{(\w+)\}/g;

/** The path of `endpoint` with its parameters filled in order, each encoded. */
export function apiPath(endpoint: Endpoint, ...ids: string[]): string {
	const template: string = ENDPOINTS[endpoint];
	const names = template.match(PARAMETER) ?? [];
	if (names.length !== ids.length) {
		throw new Error(`${endpoint} takes ${names.length} path parameter(s), got ${ids.length}`);
	}
	let next = 0;
	return template.replace(PARAMETER, () => encodeURIComponent(ids[next++]));
}
