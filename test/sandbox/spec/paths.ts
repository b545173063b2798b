/**
 * The API paths the specification shows (part 4), as express routes below /api/v1.
 * Paths it does not show (balance, workflow list and get) are choices of the mode
 * (variant.ts).
 */
export const PATHS = {
	envelopes: '/envelopes',
	envelopeSend: '/envelopes/:envelopeId/send',
	envelopeStatus: '/envelopes/:envelopeId/status',
	envelopeFile: '/envelopes/:envelopeId/file',
	envelopeFields: '/envelopes/:envelopeId/fields',
	envelopeRecipients: '/envelopes/:envelopeId/recipients',
	envelopeEstampCheck: '/envelopes/:envelopeId/estamp/check',
	documentSend: '/documents/:envelopeId/send',

	templates: '/templates',
	template: '/templates/:templateId',
	templateCopies: '/templates/:templateId/copies',
	templateDocumentPayload: '/templates/:templateId/document-payload',
	templateDocuments: '/templates/:templateId/documents',

	workflows: '/workflows',
	workflow: '/workflows/:workflowId',
	workflowPublish: '/workflows/:workflowId/publish',
	workflowRuns: '/workflows/:workflowId/runs',

	creditTransactions: '/credits/transactions',
	creditUsage: '/credits/usage',
} as const;
