import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isToolRun } from '../../../shared/run/runCache';
import { inputError } from '../../../shared/api/validation';
import { safetySetting } from '../../../shared/api/parameters';

/**
 * Safeguards: what the owner of a workflow allows this node (above all its tool variant,
 * driven by an AI model) to do, checked before any request (Draft Only is a parameter of
 * its own, the others are options of Safeguards).
 * - Allowed Recipients: who may be added as a recipient (allowedRecipients.ts).
 * - Draft Only: nothing is sent; a person sends the draft.
 * - Include Signing Links: each recipient's `actionUrl` lets its holder sign in that
 *   recipient's name, so the tool variant leaves it out unless this is on; the regular
 *   node keeps it (its output goes to later nodes the owner built, e.g. a custom e-mail).
 * Off (empty) by default: the node behaves as before until an option is added.
 */
export interface Safeguards {
	allowedRecipients?: string;
	includeSigningLinks?: boolean;
}

const ALLOWED: INodeProperties = {
	displayName: 'Allowed Recipients',
	name: 'allowedRecipients',
	type: 'string',
	default: '',
	placeholder: 'e.g. example.com, *.partner.org, asha@gmail.com, +9198',
	description:
		'Who may be added as a recipient: e-mail domains (example.com; *.example.com with subdomains), exact e-mail addresses and phone number prefixes (starting with +), separated by commas. Anyone else is refused before any request, naming the address. Every contact of a recipient must be allowed.',
};
// A parameter of its own, not a Safeguards option: n8n's display conditions (which pick the
// tool description for the configuration) do not see values inside a collection.
const DRAFT_ONLY: INodeProperties = {
	displayName: 'Draft Only',
	name: 'draftOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether this node must never send: a created document stays a draft (Send Immediately is ignored) and a send is refused before any request, saying that a person sends it. Set by an expression, only false or the text "false" turns it off.',
};
const LINKS: INodeProperties = {
	displayName: 'Include Signing Links',
	name: 'includeSigningLinks',
	type: 'boolean',
	default: false,
	description:
		"Whether the output keeps each recipient's signing link (actionUrl), with which anyone holding it signs in that recipient's name. Added, it is off: links are left out until you turn it on. Not added, the tool variant leaves the links out and the node keeps them. Set by an expression, only true or the text 'true' keeps them.",
	// Shown under the switch, not only in its tooltip: the risk of turning it on.
	hint: "On, the output holds each recipient's signing link: whoever gets it (an AI model too) can sign in that recipient's name",
};

/** Which safeguards each operation offers: those that add people, send, or answer with links. */
const OFFERED: Record<string, Record<string, INodeProperties[]>> = {
	envelope: { create: [ALLOWED], addRecipients: [ALLOWED], send: [LINKS] },
	template: { createDocument: [ALLOWED, LINKS], sendDocument: [LINKS] },
	workflow: { run: [ALLOWED, LINKS] },
};
/** The operations that send. */
const SENDING: Record<string, string[]> = {
	envelope: ['send'],
	template: ['createDocument', 'sendDocument'],
	workflow: ['run'],
};

const safeguardsCollection = (
	resource: string,
	operation: string,
	options: INodeProperties[],
): INodeProperties => ({
	displayName: 'Safeguards',
	name: 'safeguards',
	type: 'collection',
	placeholder: 'Add Safeguard',
	default: {},
	description: 'Limits the owner of the workflow sets, above all for the tool an AI agent uses',
	options,
	displayOptions: { show: { resource: [resource], operation: [operation] } },
});

export const safeguardProperties: INodeProperties[] = [
	...Object.entries(SENDING).map(
		([resource, operation]): INodeProperties => ({
			...DRAFT_ONLY,
			displayOptions: { show: { resource: [resource], operation } },
		}),
	),
	...Object.entries(OFFERED).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, options]) =>
			safeguardsCollection(resource, operation, options),
		),
	),
];

export function readSafeguards(this: IExecuteFunctions, i: number): Safeguards {
	const value = this.getNodeParameter('safeguards', i, {}) as unknown;
	return value && typeof value === 'object' ? (value as Safeguards) : {};
}

export function isDraftOnly(this: IExecuteFunctions, i: number): boolean {
	return safetySetting('draftOnly', this.getNodeParameter('draftOnly', i, false));
}

/** Refuses a send under Draft Only, before any request. `what` says what was not done. */
export function refuseSendWhenDraftOnly(this: IExecuteFunctions, i: number, what: string): void {
	if (!isDraftOnly.call(this, i)) return;
	throw inputError(
		this.getNode(),
		`Draft Only is on: this node does not send; ${what}. A person sends it.`,
		i,
		'The owner of this workflow set Draft Only: documents are prepared here and sent by a person, in the service or with a node without Draft Only.',
	);
}

function stripLinks(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stripLinks);
	if (!value || typeof value !== 'object') return value;
	const out: IDataObject = {};
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		if (key !== 'actionUrl') out[key] = stripLinks(inner) as IDataObject;
	}
	return out;
}

/**
 * What to do with signing links in this item's answer: keep them, or leave out every
 * `actionUrl` (wherever nested). Read before any request, so a refused value sends nothing.
 */
export function readSigningLinks(
	this: IExecuteFunctions,
	i: number,
): (json: IDataObject) => IDataObject {
	const set = readSafeguards.call(this, i).includeSigningLinks;
	// Not added: the node keeps the links, the tool variant leaves them out.
	const keep = set === undefined ? !isToolRun(this) : safetySetting('includeSigningLinks', set);
	return (json) => (keep ? json : (stripLinks(json) as IDataObject));
}
