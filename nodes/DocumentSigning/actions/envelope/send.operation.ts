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
import { refuseSendWhenDraftOnly, readSigningLinks } from '../shared/safeguards';
import { normalizeSendResponse } from '../shared/sendAnswer';

const properties: INodeProperties[] = [
	{
		...draftEnvelopeIdProperty,
		hint: 'With e-stamping on, the envelope goes to "estamping" and recipients are notified only after the stamp is attached: use the Document Signing Trigger or Get Status to follow it.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['send'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	refuseSendWhenDraftOnly.call(this, i, `envelope ${envelopeId} was not sent and stays a draft`);
	const asSet = readSigningLinks.call(this, i);
	// Not resent on a lost connection: the service may already have notified recipients.
	const response = (await apiRequest.call(this, 'POST', apiPath('envelopeSend', envelopeId), {
		body: {},
		itemIndex: i,
	})) as IDataObject;
	return simplifyOutput.call(this, i, [
		{ json: asSet(normalizeSendResponse(envelopeId, response)) },
	]);
}
