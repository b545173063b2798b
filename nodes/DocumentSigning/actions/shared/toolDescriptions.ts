import type { INodeProperties } from 'n8n-workflow';

import { defaultChangedIn1_1 } from './versions';

/**
 * What each operation tells an AI model when the node is used as a tool (the node's
 * "Document Signing Tool" variant, under an AI Agent or an MCP Server Trigger).
 *
 * n8n adds a generic "Tool Description" (e.g. "Get many templates in Document Signing")
 * unless the node has its own `toolDescription` parameter; with ours, n8n uses this
 * parameter's value as the tool's description. Its default is the text below for the
 * chosen operation, so a model learns what the tool does, when to use it, what it needs
 * (and in which format) and what it returns. Users can still edit it per node.
 * Shown only on the tool variant (`@tool`), so the regular node is unchanged.
 */
const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {
	envelope: {
		create:
			'Create a draft envelope (a PDF to be signed) with its recipients. Needs: a title, the PDF (as a public https URL of a PDF when the tool reads it from a URL), and for each recipient a name plus an e-mail address or a phone number in E.164 format (e.g. +919876543210). Returns the envelope id and status "draft"; send it with the Send tool.',
		getMany:
			'List envelopes, newest first, optionally filtered by status (draft, estamping, pending, completed) or by text in the title. Use it to find an envelope id by title. Returns id, title, status and progress of each envelope.',
		getStatus:
			'Check whether an envelope is signed. Needs: the envelope id (e.g. env_8f3a2c). Returns the status (draft, estamping, pending or completed: "completed" means everyone signed), the percentage done and, for each recipient, name, e-mail, status and signedAt (ISO 8601 time).',
		send: 'Send a draft envelope to its recipients so they can sign it. Needs: the id of a draft envelope that has recipients. Returns the envelope with status "pending". Sending cannot be undone.',
		downloadFile:
			'Download the PDF of an envelope (the signed PDF once the envelope is completed). Needs: the envelope id. Returns the file name and size, envelopeStatus and signed (true when completed: the file is the signed PDF, otherwise the PDF as sent); the PDF itself is kept as binary data in the workflow.',
		getFields:
			'List the form fields of an envelope (signature and text fields, their page and recipient). Needs: the envelope id.',
		addRecipients:
			'Add recipients to a draft envelope, or replace them. Needs: the draft envelope id and for each recipient a name plus an e-mail address or an E.164 phone number.',
		checkEstamp:
			'Ask the service to re-check a pending e-stamp of an envelope now. Needs: the envelope id. Returns the e-stamp status.',
	},
	template: {
		create:
			'Create a template from a PDF, with recipient roles and form fields. Needs: a template name and the PDF.',
		getMany:
			'List the templates documents can be created from, optionally filtered by text in the name. Use it to find a template id by name. Returns id, name, status and number of roles of each template.',
		get: 'Read one template: its recipient roles (the ids to fill when creating a document) and the fields the sender prefills. Needs: the template id (e.g. tpl_8f3a2c).',
		update:
			'Change the name, description, roles, fields or signing settings of a template. Needs: the template id.',
		archive: 'Archive a template so no new documents are created from it. Needs: the template id.',
		restore: 'Restore an archived template. Needs: the template id.',
		duplicate: 'Copy a template under a new name. Needs: the template id and the new name.',
		deleteTemplate: 'Delete a template for good. Needs: the template id. Cannot be undone.',
		getDocumentPayload:
			'Get a ready-to-fill example of what Create Document needs for a template: its roles (templateRecipientId) and prefill fields. Needs: the template id.',
		createDocument:
			"Create a document to sign from a template for named people. Needs: the template id, a document title, and for each role of the template the person's full name and e-mail address (or E.164 phone number). Returns the new document (an envelope) with its id and status; it is sent right away only when the tool is set to send immediately.",
		sendDocument:
			'Send a document created from a template to its recipients. Needs: the document (envelope) id. Returns the document with status "pending".',
	},
	workflow: {
		create:
			'Create a reusable signing workflow (documents and participants). Needs: a name and its configuration.',
		update: 'Change a draft reusable signing workflow. Needs: the signing workflow id.',
		publish:
			'Publish a reusable signing workflow so it can be run. Needs: the signing workflow id.',
		run: 'Run a published signing workflow for real people: creates and sends its envelope. Needs: the signing workflow id and for each participant a name plus an e-mail address or E.164 phone number. Returns the run and its envelope.',
		getMany:
			'List the reusable signing workflows. Returns id, name, status and latest published version of each.',
		get: 'Read one reusable signing workflow: its documents and participants. Needs: the signing workflow id.',
	},
	credit: {
		getBalance:
			'Read how many signing credits are left. Needs nothing. Returns the balance and which wallet it is (personal, organization or member allocation). Check it before Aadhaar signing, which costs credits.',
		getTransactions:
			'List credit transactions (consume, purchase, refund, adjustment), newest first. Returns amount, balance after, reason, envelope id and time of each.',
		getUsage:
			'Report how many credits were used in a period, split by kind. Optional inputs: start and end dates (YYYY-MM-DD, e.g. 2026-01-31; empty means the last 30 days up to today).',
	},
};

/** Where version 1's tool says something else (its Download File reads no status). */
const V1_TOOL_DESCRIPTIONS: Record<string, string> = {
	'envelope.downloadFile':
		'Download the PDF of an envelope (the signed PDF once the envelope is completed). Needs: the envelope id. Returns the file name and size; the PDF itself is kept as binary data in the workflow.',
};

const SENDS_NOTHING =
	'This tool is set to Draft Only: it never sends. Returns an error saying so; tell the user that a person sends the document.';

/**
 * From version 1.2 the text follows the tool's configuration, as n8n shows the variant whose
 * display conditions hold (a default is not stored, so the text changes with the settings):
 * whether the tool sends or only drafts (Send Immediately, Draft Only). Inputs
 * are not listed where the tool may fix them (a template id set by the owner): the input
 * schema says what the model gives.
 */
type Variant = { when?: Record<string, unknown>; unless?: Record<string, unknown>; text: string };
const DRAFT_ONLY = { draftOnly: [true] };
const TOOL_DESCRIPTIONS_1_2: Record<string, Variant[]> = {
	'envelope.create': [
		{
			text: 'Create a draft envelope (a PDF to be signed) with its recipients; nothing is sent. Give the title, the PDF (a public https URL of a PDF when the tool asks for one) and, for each recipient, a name plus an e-mail address or a phone number in E.164 format (e.g. +919876543210). Returns the envelope id and status "draft".',
		},
	],
	'envelope.send': [
		{ when: DRAFT_ONLY, text: `Would send a draft envelope to its recipients. ${SENDS_NOTHING}` },
		{
			unless: DRAFT_ONLY,
			text: 'Send a draft envelope to its recipients so they can sign it. Give the id of a draft envelope that has recipients. Returns the status "pending" and each recipient\'s signing status. Sending cannot be undone: send only what the user asked to send.',
		},
	],
	'template.createDocument': [
		{
			when: DRAFT_ONLY,
			text: `Create a document to sign from a template for named people, as a draft: one recipient per role of the template (full name plus e-mail address or E.164 phone number). Returns the new document (an envelope) with its id and status "draft". ${SENDS_NOTHING}`,
		},
		{
			unless: DRAFT_ONLY,
			when: { sendImmediately: [true] },
			text: 'Create a document to sign from a template for named people and send it to them at once: one recipient per role of the template (full name plus e-mail address or E.164 phone number). Returns the document (an envelope) with its id and status "pending". Sending cannot be undone: use it only for the people the user named.',
		},
		{
			unless: { ...DRAFT_ONLY, sendImmediately: [true] },
			text: 'Create a document to sign from a template for named people, as a draft (not sent): one recipient per role of the template (full name plus e-mail address or E.164 phone number). Returns the new document (an envelope) with its id and status "draft".',
		},
	],
	'template.sendDocument': [
		{ when: DRAFT_ONLY, text: `Would send a document created from a template. ${SENDS_NOTHING}` },
		{
			unless: DRAFT_ONLY,
			text: 'Send a draft document created from a template to its recipients. Give the document (envelope) id. Returns the status "pending". Sending cannot be undone.',
		},
	],
	'workflow.run': [
		{
			when: DRAFT_ONLY,
			text: `Would run a published signing workflow, which sends its envelope. ${SENDS_NOTHING}`,
		},
		{
			unless: DRAFT_ONLY,
			text: 'Run a published signing workflow for real people: creates and sends its envelope. Give for each participant a name plus an e-mail address or E.164 phone number. Returns the run and its envelope. Sending cannot be undone.',
		},
	],
	'credit.getBalance': [
		{
			text: 'Read how many signing credits are left. Needs nothing. Returns the balance and which wallet it is (personal, organization or member allocation).',
		},
	],
};

const UP_TO_1_1 = { _cnd: { lte: 1.1 } };
const FROM_1_2 = { _cnd: { gte: 1.2 } };

/** One "Description" parameter per operation (and configuration from 1.2), on the tool variant only. */
export const toolDescriptionProperties: INodeProperties[] = Object.entries(
	TOOL_DESCRIPTIONS,
).flatMap(([resource, operations]) =>
	Object.entries(operations).flatMap(([operation, text]): INodeProperties[] => {
		const key = `${resource}.${operation}`;
		const property = toolDescription(resource, operation, text);
		const v1 = V1_TOOL_DESCRIPTIONS[key];
		const variants = TOOL_DESCRIPTIONS_1_2[key];
		if (!variants) return v1 === undefined ? [property] : defaultChangedIn1_1(property, v1);
		const show = property.displayOptions?.show ?? {};
		return [
			{ ...property, displayOptions: { show: { ...show, '@version': [UP_TO_1_1] } } },
			...variants.map(({ when, unless, text: variant }) => ({
				...property,
				default: variant,
				displayOptions: {
					show: { ...show, ...(when ?? {}), '@version': [FROM_1_2] },
					...(unless ? { hide: unless } : {}),
				} as INodeProperties['displayOptions'],
			})),
		];
	}),
);

function toolDescription(resource: string, operation: string, text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 3 },
		description:
			'What the AI model is told about this tool. The default describes the chosen operation, its inputs and its output.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}
