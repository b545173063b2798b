import type { IDataObject } from 'n8n-workflow';

/**
 * The two answers of send (200 sent, 202 e-stamping queued) in one shape, so the next
 * node reads the same fields either way. Used by envelope Send and template Send Document
 * (whose answer the specification does not show).
 */
export function normalizeSendResponse(envelopeId: string, response: IDataObject): IDataObject {
	const estampQueued = response.estamp === true || response.estampStatus !== undefined;
	return {
		// Every field the service answered stays (e.g. `sentAt`); the named ones are made uniform.
		...response,
		envelopeId: (response.envelopeId as string) ?? envelopeId,
		status: response.status ?? null,
		message: response.message ?? null,
		estamp: {
			enabled: estampQueued,
			status: estampQueued ? ((response.estampStatus as string) ?? null) : null,
		},
		recipients: Array.isArray(response.recipients) ? response.recipients : [],
		workflow: (response.workflow as IDataObject | undefined) ?? null,
	};
}
