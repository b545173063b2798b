import type { IDataObject } from 'n8n-workflow';

/**
 * The created envelope's id under `envelopeId`, as every later envelope step outputs it, so
 * one expression (`{{ $json.envelopeId }}`) maps the next node's "By ID" after any step.
 * The API's own fields stay as they are (`id` after Create keeps working in saved
 * workflows); an `envelopeId` the service sends itself wins.
 *
 * Where the id is found: Create answers the envelope (`id`); a signing-workflow run answers
 * the envelope under `envelope` (`{ run, envelope, envelopes, approval }`) or lists
 * `envelopeIds` (taken only when it holds exactly one: several envelopes have no one id).
 */
export function withEnvelopeId(answer: IDataObject, from: 'envelope' | 'run' = 'run'): IDataObject {
	if (typeof answer.envelopeId === 'string' && answer.envelopeId) return answer;
	const id = from === 'envelope' ? answer.id : createdByRun(answer);
	return typeof id === 'string' && id ? { envelopeId: id, ...answer } : answer;
}

function createdByRun(answer: IDataObject): unknown {
	const envelope = answer.envelope as IDataObject | undefined;
	if (envelope && typeof envelope === 'object' && typeof envelope.id === 'string')
		return envelope.id;
	const ids = answer.envelopeIds;
	return Array.isArray(ids) && ids.length === 1 ? ids[0] : undefined;
}
