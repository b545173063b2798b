import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AddRecipientsSchema, hasSigner, MAX_RECIPIENTS } from '../../../shared/schemas';
import { apiPath } from '../../../shared/endpoints';
import { apiRequest } from '../../../shared/transport';
import { inputError, validateInput } from '../../../shared/validation';
import { readRecipients, recipientProperties } from '../shared/recipients';
import { draftEnvelopeIdProperty, getEnvelopeId } from './envelopeLocator';

const show = { resource: ['envelope'], operation: ['addRecipients'] };

const properties: INodeProperties[] = [
	{
		...draftEnvelopeIdProperty,
		hint: `Only draft envelopes accept recipients. At most ${MAX_RECIPIENTS} recipients per envelope across all roles.`,
	},
	...recipientProperties(show),
	{
		displayName: 'Replace Existing Recipients',
		name: 'replace',
		type: 'boolean',
		default: false,
		description:
			`Whether the list replaces all recipients of the envelope. Otherwise it is appended and existing recipients count toward the ${MAX_RECIPIENTS}.`,
	},
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const replace = this.getNodeParameter('replace', i, false) as boolean;
	const body: IDataObject = { recipients: (readRecipients.call(this, i) ?? []) as IDataObject[] };
	if (replace) body.replace = true;

	const checked = validateInput(this, AddRecipientsSchema, body, i, 'recipients');
	if (replace && !hasSigner(checked.recipients)) {
		// A replaced list is the whole list: without a signer the envelope could never be sent.
		throw inputError(
			this.getNode(),
			'Invalid recipients: recipients: must include at least one signer when replacing all recipients',
			i,
			'An envelope needs at least one signer to be sent.',
		);
	}

	const response = await apiRequest.call(this, 'POST', apiPath('envelopeRecipients', envelopeId), {
		body: checked as IDataObject,
		itemIndex: i,
	}) as IDataObject;
	return [{ json: { envelopeId, ...response } }];
}
