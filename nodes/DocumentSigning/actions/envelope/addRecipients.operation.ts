import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { AddRecipientsSchema, hasSigner, MAX_RECIPIENTS } from '../../../shared/api/schemas';
import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { inputError, validateInput } from '../../../shared/api/validation';
import { readJsonParameter } from '../shared/params';
import { checkAllowedRecipients } from '../shared/allowedRecipients';
import { readRecipients, recipientProperties } from '../shared/recipients';
import { draftEnvelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { toggle } from '../../../shared/api/parameters';

const show = { resource: ['envelope'], operation: ['addRecipients'] };

/** How a request asks for a replacement: not in the specification (assumption "Add recipients: append or replace"). */
const REPLACE_GUESS = { replace: true };

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
		description: `Whether the list replaces all recipients of the envelope. Otherwise it is appended and existing recipients count toward the ${MAX_RECIPIENTS}.`,
	},
	{
		displayName: 'Replace Request Fields (JSON)',
		name: 'replaceFields',
		type: 'json',
		default: JSON.stringify(REPLACE_GUESS),
		description:
			'Fields added to the request to ask for a replacement instead of an append. If the service appends anyway, the item fails and says so.',
		hint: 'Keep {"replace": true} unless the service asks for a replacement another way, e.g. {"mode": "replace"}. Do not put the recipients here: the Recipients above are sent.',
		displayOptions: { show: { replace: [true] } },
	},
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const replace = toggle(this.getNodeParameter('replace', i, false), false);
	const body: IDataObject = { recipients: (readRecipients.call(this, i) ?? []) as IDataObject[] };

	const checked = validateInput(this, AddRecipientsSchema, body, i, 'recipients');
	checkAllowedRecipients.call(this, i, checked.recipients, 'Recipients');
	if (replace && !hasSigner(checked.recipients)) {
		// A replaced list is the whole list: without a signer the envelope could never be sent.
		throw inputError(
			this.getNode(),
			'Invalid recipients: Recipients: must include at least one signer when replacing all recipients',
			i,
			'An envelope needs at least one signer to be sent.',
		);
	}
	// The replace fields are sent as given: they carry what the specification leaves open.
	const replaceFields = replace ? readReplaceFields.call(this, i) : {};

	const response = (await apiRequest.call(this, 'POST', apiPath('envelopeRecipients', envelopeId), {
		body: { ...(checked as IDataObject), ...replaceFields },
		itemIndex: i,
	})) as IDataObject;
	if (replace)
		checkReplaced.call(this, i, envelopeId, checked.recipients.length, response, replaceFields);
	return [{ json: { envelopeId, ...response } }];
}

function readReplaceFields(this: IExecuteFunctions, i: number): IDataObject {
	const value = readJsonParameter.call(
		this,
		'replaceFields',
		i,
		'Replace Request Fields (JSON)',
		JSON.stringify(REPLACE_GUESS),
	);
	if (value === undefined) return { ...REPLACE_GUESS };
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw inputError(
			this.getNode(),
			'Replace Request Fields (JSON): must be a JSON object, e.g. {"replace": true}',
			i,
		);
	}
	if ('recipients' in value) {
		throw inputError(
			this.getNode(),
			'Replace Request Fields (JSON): must not hold "recipients" (the Recipients above are sent)',
			i,
		);
	}
	return value as IDataObject;
}

/**
 * A replacement the service treated as an append leaves more recipients than were sent:
 * the item fails and says which guess the service does not follow and what to set.
 */
function checkReplaced(
	this: IExecuteFunctions,
	i: number,
	envelopeId: string,
	sent: number,
	response: IDataObject,
	replaceFields: IDataObject,
): void {
	if (!Array.isArray(response.recipients) || response.recipients.length <= sent) return;
	const error = new NodeOperationError(
		this.getNode(),
		`Add Recipients: the service appended instead of replacing (envelope ${envelopeId} now has ${response.recipients.length} recipients, ${sent} were sent to replace them)`,
		{
			itemIndex: i,
			description: `How a request asks for a replacement is not in the specification (assumption "Add recipients: append or replace"); this request added ${JSON.stringify(replaceFields)}, which the service ignored. Set "Replace Request Fields (JSON)" to what your service expects (e.g. {"mode": "replace"}), then replace again: the envelope keeps the appended recipients until then.`,
		},
	);
	error.context.envelopeId = envelopeId;
	throw error;
}
