import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	MAX_RECIPIENTS,
	PlacementPositionSchema,
	RecipientRoleSchema,
	SignatureMethodSchema,
	VerificationMethodSchema,
} from '../../../shared/api/schemas';
import { compact, enumOptions, inputModeProperty, readJsonList } from './params';

export const ROLE_OPTIONS = enumOptions(RecipientRoleSchema, {
	signer: { name: 'Signer', description: 'Must sign' },
	approver: { name: 'Approver', description: 'Must approve, without a signature' },
	cc: { name: 'CC', description: 'Receives a copy, takes no action' },
});

const SIGNATURE_METHOD_OPTIONS = enumOptions(SignatureMethodSchema, {
	electronic: 'Electronic (Draw or Type, Free)',
	aadhaar_otp: 'Aadhaar OTP (Uses Credits)',
	dsc_usb: 'DSC USB Token (Free)',
	all: 'Recipient Chooses',
});

export const VERIFICATION_OPTIONS = enumOptions(VerificationMethodSchema, {
	email_verification: 'Email Verification Code',
	link_only: 'Link Only',
});

const POSITION_OPTIONS = enumOptions(PlacementPositionSchema, {
	above: 'Above the Text',
	below: 'Below the Text',
});

/**
 * Signature Method and Verification Method of one signer: a recipient's (envelope, template),
 * or a signing workflow's participant. `verificationDefault` is the Verification Method's
 * default: '' adds the option "Signing Settings Default" (the signing settings decide).
 */
export function signingMethodProperties(
	verificationDefault: '' | 'email_verification',
): INodeProperties[] {
	return [
		{
			displayName: 'Signature Method',
			name: 'signatureMethod',
			type: 'options',
			options: SIGNATURE_METHOD_OPTIONS,
			default: 'electronic',
		},
		{
			displayName: 'Verification Method',
			name: 'verificationMethod',
			type: 'options',
			options:
				verificationDefault === ''
					? [{ name: 'Signing Settings Default', value: '' }, ...VERIFICATION_OPTIONS]
					: VERIFICATION_OPTIONS,
			default: verificationDefault,
		},
	];
}

/** Envelope recipients are real people; template recipients are role placeholders with an id. */
export type RecipientKind = 'envelope' | 'template';

function recipientValues(kind: RecipientKind): INodeProperties[] {
	const template = kind === 'template';
	const values: INodeProperties[] = [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			...(template
				? { placeholder: 'e.g. Client', description: 'Name of the role, e.g. Client or Landlord' }
				: {}),
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			default: '',
			placeholder: 'e.g. name@email.com',
			description: template
				? 'Optional on a template: the real contact is given when a document is created'
				: 'E-mail address where the signing link is sent, e.g. name@example.com',
			...(template ? {} : { hint: 'An email, a phone or both: at least one is needed' }),
		},
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: 'e.g. +919876543210',
			description: 'E.164 format; used for WhatsApp delivery',
		},
		{
			displayName: 'Role',
			name: 'role',
			type: 'options',
			options: ROLE_OPTIONS,
			default: 'signer',
		},
		{
			displayName: 'Signing Order',
			name: 'order',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Position in sequential signing, from 1. 0 leaves it to the service (the position in this list).',
			hint: '0 = the position in this list',
		},
		...signingMethodProperties(''),
		{
			displayName: 'Signature Placement',
			name: 'signaturePlacement',
			type: 'collection',
			placeholder: 'Add Placement Option',
			// Search Text shows in every new recipient: the one entry a placement needs (left
			// empty, no placement is sent; the other entries alone are refused naming it).
			default: { searchText: '' },
			description:
				'Place the signature next to a text in the PDF: Search Text is required for a placement, the other options adjust it',
			options: [
				{
					displayName: 'Gap',
					name: 'gap',
					type: 'number',
					default: 10,
					description: 'Distance from the text, in PDF points (1 pt = 1/72 inch)',
				},
				{
					displayName: 'Height',
					name: 'height',
					type: 'number',
					default: 50,
					description: 'Height of the signature box, in PDF points (1 pt = 1/72 inch)',
					hint: 'PDF points: 50 pt is about 1.8 cm',
				},
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
					options: POSITION_OPTIONS,
					default: 'below',
				},
				{
					displayName: 'Search Text',
					name: 'searchText',
					type: 'string',
					default: '',
					placeholder: 'e.g. Signature of tenant',
					description: 'Text to search the PDF for; the signature is placed next to it',
					hint: 'Required for a placement; left empty, no placement is sent',
				},
				{
					displayName: 'Width',
					name: 'width',
					type: 'number',
					default: 200,
					description: 'Width of the signature box, in PDF points (1 pt = 1/72 inch)',
					hint: 'PDF points: 200 pt is about 7 cm',
				},
			],
		},
	];
	if (template) {
		values.unshift({
			displayName: 'Recipient ID',
			name: 'id',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. client',
			description:
				'Your own ID for this role, unique in the template; form fields are assigned to a recipient by it, and documents map a real person to it',
		});
	}
	return values;
}

/** The starting value of the JSON input: one recipient to fill in. */
const jsonExample = (kind: RecipientKind) =>
	kind === 'template'
		? '[\n  {\n    "id": "client",\n    "name": "Client",\n    "role": "signer"\n  }\n]'
		: '[\n  {\n    "name": "",\n    "email": "",\n    "role": "signer"\n  }\n]';

/**
 * The recipient parameters (a list of fields, or JSON) shared by every resource that takes
 * recipients: envelope Create and Add Recipients, template Create and Update.
 */
export function recipientProperties(
	show: IDataObject,
	kind: RecipientKind = 'envelope',
): INodeProperties[] {
	const withInput = (mode: string) =>
		({ show: { ...show, recipientsInput: [mode] } }) as INodeProperties['displayOptions'];
	const template = kind === 'template';
	return [
		inputModeProperty({
			displayName: 'Recipients Input',
			name: 'recipientsInput',
			fields: 'Enter each recipient below',
			json: 'An array of recipients, e.g. mapped from a previous node',
			show,
		}),
		{
			displayName: 'Recipients',
			name: 'recipients',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			placeholder: 'Add Recipient',
			description: template
				? `Roles of the template (placeholders), up to ${MAX_RECIPIENTS} across all roles`
				: `Up to ${MAX_RECIPIENTS} recipients across all roles, with at least one signer`,
			displayOptions: withInput('fields'),
			options: [{ displayName: 'Recipient', name: 'recipient', values: recipientValues(kind) }],
		},
		{
			displayName: 'Recipients (JSON)',
			name: 'recipientsJson',
			type: 'json',
			default: jsonExample(kind),
			description: template
				? 'Array of template recipients: id, name, role, order, signatureMethod, verificationMethod, optional email and phone'
				: 'Array of recipients: name, email and/or phone, role, order, signatureMethod, verificationMethod, signaturePlacement',
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
		return readJsonList.call(
			this,
			'recipientsJson',
			i,
			'Recipients (JSON)',
			'recipients',
			'recipients',
		);
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
