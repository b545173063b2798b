import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { GUESSED_VALUES } from '../../../shared/assumptions';
import { compact } from '../../../shared/estamp/picker';
import { inputError, resourceId } from '../../../shared/validation';

/** Path of one envelope's sub-resource, with the id encoded. */
export const envelopePath = (envelopeId: string, sub = '') =>
	`/envelopes/${encodeURIComponent(envelopeId)}${sub ? `/${sub}` : ''}`;

/** An envelope picker: a list (from `searchListMethod`, searchable by title), or an id typed or mapped. */
function envelopeLocator(searchListMethod: string, description: string, placeholder: string): INodeProperties {
	return {
		displayName: 'Envelope',
		name: 'envelopeId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder,
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. env_8f3a2c',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\S+$', errorMessage: 'An envelope ID has no spaces' },
					},
				],
			},
		],
	};
}

/** The envelope picker of operations that work on any envelope. */
export const envelopeIdProperty = envelopeLocator(
	'searchEnvelopes',
	'The envelope to work on',
	'Select an envelope...',
);

/** The envelope picker of Send and Add Recipients: its list offers drafts only. */
export const draftEnvelopeIdProperty = envelopeLocator(
	'searchDraftEnvelopes',
	'The draft envelope to work on (the list shows drafts only)',
	'Select a draft envelope...',
);

/** The envelope id of item `i`, checked by the one id rule. */
export function getEnvelopeId(this: IExecuteFunctions, i: number): string {
	return resourceId(this.getNode(), 'Envelope', this.getNodeParameter('envelopeId', i, '', { extractValue: true }), i);
}

const ROLE_OPTIONS = [
	{ name: 'Signer', value: 'signer', description: 'Must sign' },
	{ name: 'Approver', value: 'approver', description: 'Must approve, without a signature' },
	{ name: 'CC', value: 'cc', description: 'Receives a copy, takes no action' },
];

const SIGNATURE_METHOD_OPTIONS = [
	{ name: 'Electronic (Draw or Type, Free)', value: 'electronic' },
	{ name: 'Aadhaar OTP (Uses Credits)', value: 'aadhaar_otp' },
	{ name: 'DSC USB Token (Free)', value: 'dsc_usb' },
	{ name: 'Recipient Chooses', value: 'all' },
];

export const VERIFICATION_OPTIONS = [
	{ name: 'Email Verification Code', value: 'email_verification' },
	{ name: 'Link Only', value: 'link_only' },
];

/** Recipient parameters shared by Create and Add Recipients. */
export function recipientProperties(show: IDataObject): INodeProperties[] {
	const displayOptions = { show } as INodeProperties['displayOptions'];
	const withInput = (mode: string) =>
		({ show: { ...show, recipientsInput: [mode] } }) as INodeProperties['displayOptions'];
	return [
		{
			displayName: 'Recipients Input',
			name: 'recipientsInput',
			type: 'options',
			options: [
				{ name: 'Fields', value: 'fields', description: 'Enter each recipient below' },
				{
					name: 'JSON',
					value: 'json',
					description: 'An array of recipients, e.g. mapped from a previous node',
				},
			],
			default: 'fields',
			displayOptions,
		},
		{
			displayName: 'Recipients',
			name: 'recipients',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			placeholder: 'Add Recipient',
			description: 'Up to 15 recipients across all roles, with at least one signer',
			displayOptions: withInput('fields'),
			options: [
				{
					displayName: 'Recipient',
					name: 'recipient',
					values: [
						{
							displayName: 'Email',
							name: 'email',
							type: 'string',
							default: '',
							placeholder: 'name@email.com',
							description: 'Email and/or phone is required',
						},
						{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
						{
							displayName: 'Phone',
							name: 'phone',
							type: 'string',
							default: '',
							placeholder: 'e.g. +919876543210',
							description: 'E.164 format; used for WhatsApp delivery',
						},
						{ displayName: 'Role', name: 'role', type: 'options', options: ROLE_OPTIONS, default: 'signer' },
						{
							displayName: 'Signature Method',
							name: 'signatureMethod',
							type: 'options',
							options: SIGNATURE_METHOD_OPTIONS,
							default: 'electronic',
						},
						{
							displayName: 'Signature Placement',
							name: 'signaturePlacement',
							type: 'collection',
							placeholder: 'Add Placement Option',
							default: {},
							description:
								'Place the signature next to a text in the PDF. Add Search Text: the placement is found by searching the PDF for it.',
							options: [
								{ displayName: 'Gap', name: 'gap', type: 'number', default: 10, description: 'Distance from the text in PDF points' },
								{ displayName: 'Height', name: 'height', type: 'number', default: 50 },
								{
									displayName: 'Pages',
									name: 'pages',
									type: 'string',
									default: '',
									placeholder: 'e.g. 1, 3',
									description: 'Comma-separated page numbers to search (all pages when empty)',
								},
								{
									displayName: 'Position',
									name: 'position',
									type: 'options',
									options: [
										{ name: 'Above the Text', value: 'above' },
										{ name: 'Below the Text', value: 'below' },
									],
									default: 'below',
								},
								{
									displayName: 'Search Text',
									name: 'searchText',
									type: 'string',
									default: '',
									placeholder: 'e.g. Signature of tenant',
									description: 'Text to search the PDF for; required for a placement',
								},
								{ displayName: 'Width', name: 'width', type: 'number', default: 200 },
							],
						},
						{
							displayName: 'Signing Order',
							name: 'order',
							type: 'number',
							typeOptions: { minValue: 0 },
							default: 0,
							description:
								'Position in sequential signing, from 1. 0 leaves it to the service (the position in this list).',
						},
						{
							displayName: 'Verification Method',
							name: 'verificationMethod',
							type: 'options',
							options: [{ name: 'Envelope Setting', value: '' }, ...VERIFICATION_OPTIONS],
							default: '',
						},
					],
				},
			],
		},
		{
			displayName: 'Recipients (JSON)',
			name: 'recipientsJson',
			type: 'json',
			default: '[\n  {\n    "name": "",\n    "email": "",\n    "role": "signer"\n  }\n]',
			description:
				'Array of recipients: name, email and/or phone, role, order, signatureMethod, verificationMethod, signaturePlacement',
			displayOptions: withInput('json'),
		},
	];
}

function placementFromFields(values: IDataObject | undefined): IDataObject | undefined {
	const placement = compact(values);
	if (!placement) return undefined;
	if (typeof placement.pages === 'string') {
		// "1, 3" -> [1, 3]; anything that is not a number is passed on for the schema to name
		placement.pages = placement.pages
			.split(',')
			.map((p) => p.trim())
			.filter(Boolean)
			.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
	}
	return { type: 'text', ...placement };
}

/** Recipients of item `i` as the API body expects them (unchecked: the schema decides). */
export function readRecipients(this: IExecuteFunctions, i: number): unknown[] | undefined {
	const input = this.getNodeParameter('recipientsInput', i, 'fields') as string;

	if (input === 'json') {
		let value = this.getNodeParameter('recipientsJson', i, '[]') as unknown;
		if (typeof value === 'string') {
			if (!value.trim()) return undefined;
			try {
				value = JSON.parse(value);
			} catch (error) {
				throw inputError(
					this.getNode(),
					'Recipients (JSON): not valid JSON',
					i,
					(error as Error).message,
				);
			}
		}
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			// also accept { recipients: [...] }, as earlier nodes often produce
			value = (value as IDataObject).recipients ?? [value];
		}
		if (!Array.isArray(value)) {
			throw inputError(this.getNode(), 'Recipients (JSON): must be an array of recipients', i);
		}
		return value;
	}

	const collection = this.getNodeParameter('recipients', i, {}) as IDataObject;
	const rows = (collection.recipient as IDataObject[] | undefined) ?? [];
	if (rows.length === 0) return undefined;
	return rows.map((row) => {
		const { signaturePlacement, order, ...rest } = row;
		const recipient = compact(rest) ?? {};
		// name is required: kept even when empty so the schema names it
		recipient.name = typeof rest.name === 'string' ? rest.name.trim() : (rest.name ?? '');
		if (typeof order === 'number' && order !== 0) recipient.order = order;
		const placement = placementFromFields(signaturePlacement as IDataObject | undefined);
		if (placement) recipient.signaturePlacement = placement;
		return recipient;
	});
}

/** Display names of envelope statuses; any status without one is title-cased from its value. */
const STATUS_NAMES: Record<string, string> = {
	estamping: 'E-Stamping',
	estamp_failed: 'E-Stamp Failed',
};

export const ENVELOPE_STATUS_OPTIONS = GUESSED_VALUES.envelopeStatuses.map((status) => ({
	name:
		STATUS_NAMES[status] ??
		status
			.split('_')
			.map((w) => w[0].toUpperCase() + w.slice(1))
			.join(' '),
	value: status,
}));
