import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { draftEnvelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { simplifyOutput } from '../shared/output';
import { readSigningLinks, refuseSendWhenDraftOnly } from '../shared/safeguards';
import { normalizeSendResponse } from '../shared/sendAnswer';

const properties: INodeProperties[] = [
	{
		...draftEnvelopeIdProperty,
		description: 'The draft created from a template (Create Document gives its envelope ID)',
		hint: 'Only documents created from a template are sent here; other envelopes use Envelope > Send',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['sendDocument'] } },
	properties,
);

/**
 * POST /documents/{envelopeId}/send. Not resent after a lost connection: the service may
 * already have notified the recipients.
 */
export async function sendDraftDocument(
	this: IExecuteFunctions,
	i: number,
	envelopeId: string,
): Promise<IDataObject> {
	const response = (await apiRequest.call(this, 'POST', apiPath('documentSend', envelopeId), {
		body: {},
		itemIndex: i,
	})) as IDataObject;
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
