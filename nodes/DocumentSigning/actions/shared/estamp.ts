import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { getArticles } from '../../../shared/estamp/articles';
import { ESTAMP_STATES, getEstampState, INDIAN_STATE_NAMES, MIN_DUTY } from '../../../shared/estamp/states';
import { EstampPayeeSchema } from '../../../shared/schemas';
import { inputError } from '../../../shared/validation';
import { compact, enumOptions } from './params';

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
	// Only KA's maximum is published; for the others the ceiling is assumed (assumptions.ts).
	description: s.maxDutyShown
		? `Maximum duty ${rupees(s.maxDuty)}`
		: `Maximum duty ${rupees(s.maxDuty)} (assumed; not published for this state)`,
}));

const SHIPPING_STATE_OPTIONS: INodePropertyOptions[] = INDIAN_STATE_NAMES.map((name) => ({
	name,
	value: name,
}));

const partyValues = (who: string): INodeProperties[] => [
	{
		displayName: 'Legal Name',
		name: 'name',
		type: 'string',
		default: '',
		description: `Legal name of the ${who}; the two parties must have different names`,
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
	},
	{
		displayName: 'Mobile',
		name: 'mobile',
		type: 'string',
		default: '',
		placeholder: 'e.g. 9876543210',
		description: 'Optional. 10 digits, without country code.',
	},
	{
		displayName: 'Address',
		name: 'address',
		type: 'string',
		default: '',
	},
];

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
			displayOptions,
		},
		{
			displayName:
				'E-stamping is asynchronous: Send answers with status "estamping". Use the Document Signing Trigger (e-stamp events) or poll Get Status to learn when recipients are notified.',
			name: 'estampNotice',
			type: 'notice',
			default: '',
			displayOptions: when(),
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
		{
			displayName: 'Article Name or ID',
			name: 'estampArticle',
			type: 'options',
			typeOptions: {
				loadOptionsMethod: 'getEstampArticles',
				loadOptionsDependsOn: ['estampState'],
			},
			default: ARTICLE_EXACT_VALUE,
			required: true,
			description:
				'Instrument name from the state\'s catalog. For states whose catalog is not bundled, choose "Type the Exact Value" and enter it below. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			hint: 'Choose the article again after changing the state',
			displayOptions: when(),
		},
		{
			displayName: 'Article (Exact Value)',
			name: 'estampArticleValue',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Affidavit',
			description:
				"Exact instrument name from the state's catalog; capitalization and punctuation matter",
			hint: 'Do not include the Stamp Act article number',
			displayOptions: when({ estampArticle: [ARTICLE_EXACT_VALUE] }),
		},
		{
			displayName: 'Stamp Duty Amount',
			name: 'estampAmount',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 100',
			description: `Duty in rupees, a whole number from ${MIN_DUTY} up to the state's maximum`,
			displayOptions: when(),
		},
		{
			displayName: 'Consideration Amount',
			name: 'estampConsiderationAmount',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 500000',
			description: 'Value of the instrument in rupees, a whole number of 0 or more',
			displayOptions: when(),
		},
		{
			displayName: 'First Party',
			name: 'estampFirstParty',
			type: 'fixedCollection',
			// One entry from the start, so the fields show at once (n8n's way of a one-entry default).
			typeOptions: { multipleValues: true, maxAllowedFields: 1 },
			default: { party: [{}] },
			required: true,
			placeholder: 'Add First Party',
			options: [{ displayName: 'First Party', name: 'party', values: partyValues('first party') }],
			displayOptions: when(),
		},
		{
			displayName: 'Second Party',
			name: 'estampSecondParty',
			type: 'fixedCollection',
			// One entry from the start, so the fields show at once (n8n's way of a one-entry default).
			typeOptions: { multipleValues: true, maxAllowedFields: 1 },
			default: { party: [{}] },
			required: true,
			placeholder: 'Add Second Party',
			options: [{ displayName: 'Second Party', name: 'party', values: partyValues('second party') }],
			displayOptions: when(),
		},
		{
			displayName: 'Duty Paid By',
			name: 'estampPayee',
			type: 'options',
			options: enumOptions(EstampPayeeSchema, { 'first-party': 'First Party', 'second-party': 'Second Party' }),
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
 * Refuses an article picked from a list when the chosen state has no bundled list: it was
 * picked for another state (the editor keeps the old choice when the state changes). An
 * expression is the user's own value and is left to the schema.
 */
function refuseStaleArticle(this: IExecuteFunctions, i: number, state: unknown, picked: string): void {
	if (picked === ARTICLE_EXACT_VALUE || typeof state !== 'string') return;
	if (!getEstampState(state) || getArticles(state)) return;
	const raw = this.getNode().parameters.estampArticle;
	if (typeof raw === 'string' && raw.startsWith('=')) return;
	throw inputError(
		this.getNode(),
		`E-stamp article: "${picked}" comes from another state's list; for ${state} choose "Type the Exact Value" and enter the exact instrument name`,
		i,
		`Article lists are bundled for ${ESTAMP_STATES.filter((s) => getArticles(s.code)).map((s) => s.code).join(', ')} only. Choose the article again after changing the state.`,
	);
}

/**
 * Whether e-stamping is switched on, and the raw `estampConfig` for item `i`
 * (unchecked: the schema decides whether it is complete and valid).
 */
export function readEstampConfig(
	this: IExecuteFunctions,
	i: number,
): { enabled: boolean; config?: IDataObject } {
	const enabled = this.getNodeParameter('estampEnabled', i, false) as boolean;
	if (!enabled) return { enabled: false };

	const get = (name: string, fallback: IDataObject[string] = '') =>
		this.getNodeParameter(name, i, fallback) as IDataObject[string];
	const state = asText(get('estampState'));
	const picked = get('estampArticle', ARTICLE_EXACT_VALUE) as string;
	refuseStaleArticle.call(this, i, state, picked);
	const article = picked === ARTICLE_EXACT_VALUE ? get('estampArticleValue') : picked;
	const hardcopy = get('estampHardcopy', false) as boolean;
	// Required values stay in, even when empty, so the schema names them with its own rule.
	const group = (name: string, key: string, optional: string[] = []) => {
		let values = (get(name, {}) as IDataObject)[key] as IDataObject | IDataObject[] | undefined;
		// The party collections are lists of one entry (n8n's own check refuses a second one).
		if (Array.isArray(values)) values = values[0];
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
	const firstParty = group('estampFirstParty', 'party', ['mobile']);
	if (firstParty) config.firstParty = firstParty;
	const secondParty = group('estampSecondParty', 'party', ['mobile']);
	if (secondParty) config.secondParty = secondParty;
	if (hardcopy) {
		const shipping = group('estampShipping', 'address');
		if (shipping) config.shipping = shipping;
	}
	return { enabled: true, config };
}
