import type { IDataObject } from 'n8n-workflow';

/**
 * The two answers of send (200 sent, 202 e-stamping queued) in one shape, so the next
 * node reads the same fields either way. Used by envelope Send and template Send Document
 * (whose answer the specification does not show). Nothing is added that the answer lacks.
 */
export function normalizeSendResponse(envelopeId: string, response: IDataObject): IDataObject {
	const estampQueued = response.estamp === true || response.estampStatus !== undefined;
	return {
		// Every field the service answered stays (e.g. `sentAt`); the named ones are made uniform.
		...response,
		envelopeId: (response.envelopeId as string) ?? envelopeId,
		// 200 is sent, 202 is e-stamping queued: told apart here, the status only as answered.
		estamp: {
			enabled: estampQueued,
			...(estampQueued && response.estampStatus !== undefined
				? { status: response.estampStatus }
				: {}),
		},
		// `status`, `message`, `recipients`, `workflow` stay only as answered: a field the
		// answer lacks is absent, never an empty list or null the service did not say.
	};
}
