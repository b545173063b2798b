import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { getArticles } from '../../../shared/api/estamp/articles';
import { ESTAMP_STATES, INDIAN_STATE_NAMES, MIN_DUTY } from '../../../shared/api/estamp/states';
import { EstampPayeeSchema } from '../../../shared/api/schemas';
import { checkEstampFields } from './estampCheck';
import { partyProperties, readParty } from './estampParties';
import { compact, enumOptions } from './params';
import { defaultChangedIn1_1 } from './versions';
import { toggle } from '../../../shared/api/parameters';

/**
 * The e-stamp part of a node's parameters (specification 2.6) and the code that reads it
 * back into an `estampConfig` object. The values are checked by the e-stamp schema in
 * `schemas/estamp.ts`; this file only collects them, and refuses what only the editor can get
 * wrong (an article left over from another state's list).
 *
 * Parameter names all start with `estamp` so that any operation can add the picker
 * next to its own parameters.
 */

/** Article option meaning "the user types the exact catalog value in the field below". */
export const ARTICLE_EXACT_VALUE = '__exactValue__';

/** 10000000 -> "10,000,000" (one grouping for every state, whatever the locale). */
const rupees = (amount: number) => `₹${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

const STATE_OPTIONS: INodePropertyOptions[] = ESTAMP_STATES.map((s) => ({
	name: `${s.name} (${s.code})`,
	value: s.code,
	// Only KA's maximum is published: the others show none (docs/assumptions.md has the
	// ceiling used for them, and the error names it when an amount is over it).
	...(s.maxDutyShown ? { description: `Maximum duty ${rupees(s.maxDuty)}` } : {}),
}));

const SHIPPING_STATE_OPTIONS: INodePropertyOptions[] = INDIAN_STATE_NAMES.map((name) => ({
	name,
	value: name,
}));

/** States whose article catalog is bundled: their article is picked from a list. */
const CATALOG_STATES = ESTAMP_STATES.filter((s) => getArticles(s.code)).map((s) => s.code);

const articleValueProperty = (displayOptions: IDisplayOptions): INodeProperties => ({
	displayName: 'Article (Exact Value)',
	name: 'estampArticleValue',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. Affidavit',
	description:
		"Exact instrument name from the state's catalog; capitalization and punctuation matter",
	hint: 'Do not include the Stamp Act article number',
	displayOptions,
});

/** The e-stamp parameters, shown when `estampEnabled` is on (and `show` matches). */
export function estampPickerProperties(displayOptions: IDisplayOptions): INodeProperties[] {
	const when = (extra: IDataObject = {}): IDisplayOptions => ({
		...displayOptions,
		show: { ...(displayOptions.show ?? {}), estampEnabled: [true], ...extra },
	});

	return [
		{
			displayName: 'E-Stamp Before Signing',
			name: 'estampEnabled',
			type: 'boolean',
			default: false,
			description:
				'Whether the service buys a government e-stamp and adds its certificate as page 1 before recipients are asked to sign',
			hint: 'Send then answers "estamping"; recipients are notified once the stamp is attached (follow it with the Document Signing Trigger or Get Status)',
			displayOptions,
		},
		{
			displayName: 'Stamp State',
			name: 'estampState',
			type: 'options',
			options: STATE_OPTIONS,
			default: '',
			required: true,
			description: 'State whose stamp duty applies',
			displayOptions: when(),
		},
		// Version 1 preselected "Type the Exact Value"; its saved workflows that typed a value rely on it.
		...defaultChangedIn1_1(
			{
				displayName: 'Article Name or ID',
				name: 'estampArticle',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: 'getEstampArticles',
					loadOptionsDependsOn: ['estampState'],
				},
				// Nothing picked: the user chooses the instrument (the editor marks it as required).
				default: '',
				required: true,
				description:
					'Instrument name from the state\'s catalog, verbatim. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				hint: 'Listed as the catalog prints them, sent verbatim: near-duplicates (e.g. "Up to" and "Upto") and trailing dots are separate entries. Pick the one your instrument uses.',
				displayOptions: when({ estampState: CATALOG_STATES }),
			},
			ARTICLE_EXACT_VALUE,
		),
		// Two definitions of one parameter: states without a bundled catalog (or a state given
		// by an expression) always type the value; catalog states when "Type the Exact Value"
		// is picked. A value picked for another state is then neither shown nor read.
		articleValueProperty({
			...displayOptions,
			show: { ...(displayOptions.show ?? {}), estampEnabled: [true] },
			hide: { ...(displayOptions.hide ?? {}), estampState: CATALOG_STATES },
		}),
		articleValueProperty(
			when({ estampState: CATALOG_STATES, estampArticle: [ARTICLE_EXACT_VALUE] }),
		),
		// Version 1 opened at 0, which the service always refuses.
		...defaultChangedIn1_1(
			{
				displayName: 'Stamp Duty Amount',
				name: 'estampAmount',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				// Empty until the user gives the duty: any number would be a guess at what is owed.
				default: '',
				required: true,
				placeholder: 'e.g. 100',
				description: `Duty in rupees, a whole number from ${MIN_DUTY} up to the state's maximum`,
				hint: `In rupees, at least ${MIN_DUTY}`,
				displayOptions: when(),
			},
			0,
		),
		{
			displayName: 'Consideration Amount',
			name: 'estampConsiderationAmount',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			required: true,
			description: 'Value of the instrument in rupees, a whole number of 0 or more',
			displayOptions: when(),
		},
		...partyProperties('First', when()),
		...partyProperties('Second', when()),
		{
			displayName: 'Duty Paid By',
			name: 'estampPayee',
			type: 'options',
			options: enumOptions(EstampPayeeSchema, {
				'first-party': 'First Party',
				'second-party': 'Second Party',
			}),
			default: 'first-party',
			displayOptions: when(),
		},
		{
			displayName: 'Deliver a Physical Copy',
			name: 'estampHardcopy',
			type: 'boolean',
			default: false,
			description: 'Whether a printed stamp paper is shipped (needs a shipping address)',
			displayOptions: when(),
		},
		{
			displayName: 'Shipping Address',
			name: 'estampShipping',
			type: 'fixedCollection',
			default: {},
			required: true,
			placeholder: 'Add Shipping Address',
			options: [
				{
					displayName: 'Address',
					name: 'address',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						{ displayName: 'Address', name: 'address', type: 'string', default: '' },
						{ displayName: 'City', name: 'city', type: 'string', default: '' },
						{
							displayName: 'State',
							name: 'state',
							type: 'options',
							options: SHIPPING_STATE_OPTIONS,
							default: '',
							required: true,
							description: 'Full state name (not the two-letter code)',
						},
						{
							displayName: 'Pincode',
							name: 'pincode',
							type: 'string',
							default: '',
							placeholder: 'e.g. 560001',
							description: '6 digits',
						},
						{
							displayName: 'Mobile',
							name: 'mobile',
							type: 'string',
							default: '',
							placeholder: 'e.g. 9876543210',
							description: '10 digits',
						},
					],
				},
			],
			displayOptions: when({ estampHardcopy: [true] }),
		},
	];
}

/** Options of the article parameter for a state: its catalog (if bundled) and the typed path. */
export function articleOptions(state: string): INodePropertyOptions[] {
	const catalog = getArticles(state);
	const exact: INodePropertyOptions = {
		name: catalog ? 'Other: Type the Exact Value' : 'Type the Exact Value',
		value: ARTICLE_EXACT_VALUE,
		description: catalog
			? 'Enter a catalog value in the field below'
			: 'The catalog of this state is not bundled; enter the exact value in the field below',
	};
	if (!catalog) return [exact];
	// Alphabetical for the dropdown; the catalog itself stays in the specification's order.
	const sorted = [...catalog].sort((a, b) => a.localeCompare(b));
	return [...sorted.map((article) => ({ name: article, value: article })), exact];
}

const asText = (value: unknown): IDataObject[string] =>
	// Numbers typed through an expression are sent as the strings the API expects.
	typeof value === 'number'
		? String(value)
		: typeof value === 'string'
			? value.trim()
			: (value as IDataObject[string]);

/**
 * Whether e-stamping is switched on, and the raw `estampConfig` for item `i`
 * (unchecked: the schema decides whether it is complete and valid).
 */
export function readEstampConfig(
	this: IExecuteFunctions,
	i: number,
): { enabled: boolean; config?: IDataObject } {
	const enabled = toggle(this.getNodeParameter('estampEnabled', i, false), false);
	if (!enabled) return { enabled: false };

	const get = (name: string, fallback: IDataObject[string] = '') =>
		this.getNodeParameter(name, i, fallback) as IDataObject[string];
	const state = asText(get('estampState'));
	// Only a catalog state reads the list; a choice left from another state is not read.
	const picked =
		typeof state === 'string' && getArticles(state)
			? (get('estampArticle', '') as string)
			: ARTICLE_EXACT_VALUE;
	const article = picked === ARTICLE_EXACT_VALUE ? get('estampArticleValue') : picked;
	const articleName =
		picked === ARTICLE_EXACT_VALUE ? 'Article (Exact Value)' : 'Article Name or ID';
	const hardcopy = toggle(get('estampHardcopy', false), false);
	// Required values stay in, even when empty, so the schema names them with its own rule.
	const group = (values: IDataObject | undefined, optional: string[] = []) => {
		if (!values || !compact(values)) return undefined;
		const out: IDataObject = {};
		for (const [field, value] of Object.entries(values)) out[field] = asText(value);
		for (const field of optional) if (out[field] === '') delete out[field];
		return out;
	};

	const config: IDataObject = {
		state,
		article: typeof article === 'string' ? article : asText(article),
		amount: asText(get('estampAmount')),
		considerationAmount: asText(get('estampConsiderationAmount')),
		payee: get('estampPayee', 'first-party'),
		hardcopy: hardcopy ? 'y' : 'n',
	};
	const firstParty = group(readParty('First', get), ['mobile']);
	if (firstParty) config.firstParty = firstParty;
	const secondParty = group(readParty('Second', get), ['mobile']);
	if (secondParty) config.secondParty = secondParty;
	if (hardcopy) {
		const shipping = group(
			(get('estampShipping', {}) as IDataObject).address as IDataObject | undefined,
		);
		if (shipping) config.shipping = shipping;
	}
	checkEstampFields.call(this, config, articleName, i);
	return { enabled: true, config };
}
