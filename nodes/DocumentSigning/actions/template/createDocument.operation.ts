import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import {
	DocumentCreateSchema,
	documentCreateIssues,
	MAX_RECIPIENTS,
} from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { issueLines } from '../../../shared/api/fieldNames';
import { validateInput, validationError } from '../../../shared/api/validation';
import { readText } from '../shared/params';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';
import {
	type DocumentTemplate,
	fetchTemplate,
	readPrefillValues,
	readRecipientMapping,
	roleLabel,
} from './documentMapping';
import { sendDraftDocument } from './sendDocument.operation';
import { checkAllowedRecipients } from '../shared/allowedRecipients';
import { simplifyOutput } from '../shared/output';
import { isDraftOnly, readSigningLinks } from '../shared/safeguards';
import { getTemplateId, templateIdProperty } from '../shared/locators';
import { safetySetting } from '../../../shared/api/parameters';

const show = { resource: ['template'], operation: ['createDocument'] };

const mapper = (
	method: string,
	valuesLabel: string,
	singular: string,
	plural: string,
	supportAutoMap = false,
) => ({
	loadOptionsDependsOn: ['templateId.value'],
	resourceMapper: {
		resourceMapperMethod: method,
		mode: 'add' as const,
		valuesLabel,
		fieldWords: { singular, plural },
		addAllFields: true,
		multiKeyMatch: false,
		supportAutoMap,
	},
});

const properties: INodeProperties[] = [
	{
		...templateIdProperty,
		description: 'The template to create the document from (the list shows active templates)',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Rental agreement - {{ $json.name }}',
		description: 'Title of the new document',
	},
	{
		displayName: 'Recipients Input',
		name: 'recipientsInput',
		type: 'options',
		options: [
			{
				name: 'Map Each Role',
				value: 'roles',
				description: "Name, e-mail and phone for each of the template's roles",
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'An array of recipientMapping entries, e.g. from Get Document Payload',
			},
		],
		default: 'roles',
	},
	{
		displayName: 'Recipients',
		name: 'recipientMapping',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		description: `The real person for each role of the template: a name plus an e-mail, a phone (E.164) or both. At most ${MAX_RECIPIENTS} recipients.`,
		typeOptions: mapper('getTemplateRoles', 'Recipients', 'recipient field', 'recipient fields'),
		displayOptions: { show: { recipientsInput: ['roles'] } },
	},
	{
		displayName: 'Recipients (JSON)',
		name: 'recipientMappingJson',
		type: 'json',
		default:
			'[\n  {\n    "templateRecipientId": "client",\n    "name": "",\n    "email": ""\n  }\n]',
		description: `Array of {templateRecipientId, name, email and/or phone}, exactly one per template role (at most ${MAX_RECIPIENTS}). A whole document payload is accepted too.`,
		displayOptions: { show: { recipientsInput: ['json'] } },
	},
	// The mapper shows its label only in Map Each Field; in Map Automatically its mode select
	// would read as part of Recipients. n8n 2.x draws this as a section header (as its Slack
	// node does); n8n 1.x, which has no section headers, as a small notice.
	{
		displayName: 'Prefill Fields',
		name: 'prefillHeading',
		type: 'notice',
		default: '',
		typeOptions: { sectionHeader: true },
	},
	{
		displayName: 'Prefill Fields',
		name: 'prefill',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description:
			"Values of the fields the sender fills. A field left empty keeps the template's stored default. Map Automatically takes the input item's fields named as a field's key (e.g. company_name); Get Document Payload lists the keys and the stored defaults.",
		// Map Automatically fits here (one item per document, its columns named as the
		// template's field keys), not for Recipients: a role's name, e-mail and phone are
		// three fields of one person, which items do not carry under the role's id.
		typeOptions: mapper('getPrefillFields', 'Values to Prefill', 'field', 'fields', true),
	},
	...signingSettingsProperties(
		{ show },
		"Settings that replace the template's own for this document; the others are kept from the template",
	),
	{
		displayName: 'Send Immediately',
		name: 'sendImmediately',
		type: 'boolean',
		default: false,
		description:
			'Whether to send the document to its recipients right after creating it. If the send fails, the error names the draft so it can be sent later instead of created again. Set by an expression, only true or the text "true" sends.',
	},
];

export const description = updateDisplayOptions({ show }, properties);

/** `Recipient 3 > Email` becomes `Recipient 3 (Client (signer)) > Email`: the role a user knows. */
function withRoleNames(
	lines: string[],
	mapping: IDataObject[],
	template?: DocumentTemplate,
): string[] {
	return lines.map((line) =>
		line.replace(/^Recipient (\d+)/, (path, n: string) => {
			const id = mapping[Number(n) - 1]?.templateRecipientId;
			const role = template?.recipients.find((r) => r.id === id);
			return `${path} (${role ? roleLabel(role) : `"${String(id ?? '')}"`})`;
		}),
	);
}

/** The body of item `i`, checked by every rule before the POST (no request for the rules that need no template). */
async function documentBody(this: IExecuteFunctions, i: number, templateId: string) {
	const overrides = readSigningSettings.call(this, i);
	const draft: IDataObject = {
		title: readText.call(this, 'title', i, 'Title'),
		recipientMapping: readRecipientMapping.call(this, i) as IDataObject[],
	};
	if (overrides) draft.workflow = overrides;
	try {
		validateInput(this, DocumentCreateSchema, draft, i, 'document');
	} catch (error) {
		const lines = withRoleNames(
			(error as NodeOperationError).context.fieldErrors as string[],
			draft.recipientMapping as IDataObject[],
		);
		throw validationError(this, 'document', lines, i);
	}
	checkAllowedRecipients.call(this, i, draft.recipientMapping, 'Recipients');

	const template = await fetchTemplate.call(this, templateId, i);
	const prefillValues = readPrefillValues.call(this, i, template);
	const body = validateInput(
		this,
		DocumentCreateSchema,
		{ ...draft, prefillValues },
		i,
		'document',
	);
	const issues = documentCreateIssues(template, body);
	if (issues.length) {
		const lines = withRoleNames(
			issueLines(issues),
			draft.recipientMapping as IDataObject[],
			template,
		);
		throw validationError(
			this,
			'document',
			lines,
			i,
			`Invalid document for template "${template.name ?? template.id}"`,
		);
	}
	// Overrides on top of the template's settings: a given workflow replaces the template's.
	if (body.workflow) body.workflow = { ...(template.workflow ?? {}), ...body.workflow };
	return body;
}

/** A failed send after the document exists: the error names the draft, so it is sent rather than created again. */
function draftNotSent(
	this: IExecuteFunctions,
	i: number,
	envelopeId: string,
	error: unknown,
): Error {
	const reason = error instanceof Error ? error.message : String(error);
	const message = `The document was created as draft ${envelopeId}, but sending it failed: ${reason}`;
	const advice = `Send draft ${envelopeId} with Template > Send Document; do not create it again.`;
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(this.getNode(), reason, { itemIndex: i });
	failure.message = message;
	failure.description = [advice, failure.description].filter(Boolean).join('\n');
	failure.context.envelopeId = envelopeId;
	failure.context.itemIndex ??= i;
	return failure;
}

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	// Draft Only wins over Send Immediately: the document is created and stays a draft.
	const draftOnly = isDraftOnly.call(this, i);
	const sendImmediately =
		!draftOnly &&
		safetySetting('sendImmediately', this.getNodeParameter('sendImmediately', i, false));
	const asSet = readSigningLinks.call(this, i);
	const body = await documentBody.call(this, i, templateId);

	// Not resent after a lost connection (the transport's rule for creates): it could make a second document.
	const created = (await apiRequest.call(this, 'POST', apiPath('templateDocuments', templateId), {
		body: body as IDataObject,
		itemIndex: i,
	})) as IDataObject;
	const envelopeId = String(created.envelopeId);
	const json: IDataObject = {
		envelopeId,
		templateId,
		title: body.title,
		steps: ['createDocument'],
	};
	// As answered: absent when the answer lacks them.
	if (created.status !== undefined) json.status = created.status;
	if (created.message !== undefined) json.message = created.message;
	if (draftOnly)
		json.sendSkipped = 'Draft Only is on: the document stays a draft; a person sends it';
	if (!sendImmediately) return simplifyOutput.call(this, i, [{ json }]);

	let sent: IDataObject;
	try {
		sent = await sendDraftDocument.call(this, i, envelopeId);
	} catch (error) {
		throw draftNotSent.call(this, i, envelopeId, error);
	}
	const status = sent.status !== undefined ? { status: sent.status } : {};
	return simplifyOutput.call(this, i, [
		{
			json: asSet({
				...json,
				...status,
				steps: ['createDocument', 'sendDocument'],
				send: sent,
			}),
		},
	]);
}
