import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { draftEnvelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { callApi, operationPanel } from '../shared/operation';
import { simplifyOutput } from '../shared/output';
import { refuseSendWhenDraftOnly, readSigningLinks } from '../shared/safeguards';
import { normalizeSendResponse } from '../shared/sendAnswer';

export const description = operationPanel('envelope', 'send', [
	{
		...draftEnvelopeIdProperty,
		hint: 'With e-stamping on, the envelope goes to "estamping" and recipients are notified only after the stamp is attached: use the Document Signing Trigger or Get Status to follow it.',
	},
]);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	refuseSendWhenDraftOnly.call(this, i, `envelope ${envelopeId} was not sent and stays a draft`);
	const asSet = readSigningLinks.call(this, i);
	// Not resent on a lost connection: the service may already have notified recipients.
	const path = apiPath('envelopeSend', envelopeId);
	const response = await callApi.call(this, i, 'POST', path, { body: {} });
	return simplifyOutput.call(this, i, [
		{ json: asSet(normalizeSendResponse(envelopeId, response)) },
	]);
}
