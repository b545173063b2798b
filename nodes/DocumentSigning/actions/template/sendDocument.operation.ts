import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { draftEnvelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { simplifyOutput } from '../shared/output';
import { readSigningLinks, refuseSendWhenDraftOnly } from '../shared/safeguards';
import { normalizeSendResponse } from '../shared/sendAnswer';
import { callApi, operationPanel } from '../shared/operation';

const properties: INodeProperties[] = [
	{
		...draftEnvelopeIdProperty,
		description: 'The draft created from a template (Create Document gives its envelope ID)',
		hint: 'Only documents created from a template are sent here; other envelopes use Envelope > Send',
	},
];

export const description = operationPanel('template', 'sendDocument', properties);

/**
 * POST /documents/{envelopeId}/send. Not resent after a lost connection: the service may
 * already have notified the recipients.
 */
export async function sendDraftDocument(
	this: IExecuteFunctions,
	i: number,
	envelopeId: string,
): Promise<IDataObject> {
	const path = apiPath('documentSend', envelopeId);
	const response = await callApi.call(this, i, 'POST', path, { body: {} });
	return normalizeSendResponse(envelopeId, response);
}

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	refuseSendWhenDraftOnly.call(this, i, `document ${envelopeId} was not sent and stays a draft`);
	const asSet = readSigningLinks.call(this, i);
	return simplifyOutput.call(this, i, [
		{ json: asSet(await sendDraftDocument.call(this, i, envelopeId)) },
	]);
}
