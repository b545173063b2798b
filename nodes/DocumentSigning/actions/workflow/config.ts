import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { inputError } from '../../../shared/api/validation';
import { compact, inputModeProperty, readJsonParameter } from '../shared/params';
import { ROLE_OPTIONS, signingMethodProperties } from '../shared/recipients';
import { readSigningSettings, signingSettingsProperties } from '../shared/signingSettings';
import { templateIdProperty } from '../shared/locators';

const EXAMPLE_CONFIG = {
	documents: [{ templateId: 'tpl_8f3a2c', label: 'Sales agreement', required: true }],
	participants: [
		{ key: 'buyer', label: 'Buyer', order: 1, role: 'signer' },
		{ key: 'seller', label: 'Seller', order: 2, role: 'signer' },
	],
	execution: { mode: 'sequential', expiresInDays: 14 },
	approvalStages: [],
	allowedOverrides: [],
};

/** Where the shape of a config list the API reference leaves unshown comes from. */
const SHAPE_HINT = (key: string) =>
	`To reuse stages set up in the service, map them from Signing Workflow > Get: <code>{{ $json.version.config.${key} }}</code>.`;

/** Execution-only settings added to the shared signing settings (which bring Expires At, not used here). */
const executionOptions: INodeProperties[] = [
	{
		displayName: 'Expires in (Days)',
		name: 'expiresInDays',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 30,
		description: 'Days after a run until its envelopes expire if not completed',
	},
	{
		displayName: 'Require Final Sender Confirmation',
		name: 'requireFinalSenderConfirmation',
		type: 'boolean',
		default: false,
		description: 'Whether a run waits for the sender to confirm before the envelopes go out',
	},
];

function executionProperties(displayOptions: IDisplayOptions): INodeProperties[] {
	const [settings, ...estamp] = signingSettingsProperties(
		displayOptions,
		'How each run sends its envelopes (none set: the service defaults)',
	);
	const options = [
		...((settings.options as INodeProperties[]) ?? []).filter((o) => o.name !== 'expiresAt'),
		...executionOptions,
	].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return [{ ...settings, displayName: 'Execution Settings', options }, ...estamp];
}

/**
 * The configuration of a signing workflow: documents (templates), participants, execution
 * settings, approval stages and allowed overrides, in fields or as one JSON object.
 */
export function configProperties(show: NonNullable<IDisplayOptions['show']>): INodeProperties[] {
	const inFields = { show: { ...show, configInput: ['fields'] } };
	return [
		inputModeProperty({
			displayName: 'Configuration Input',
			name: 'configInput',
			fields: 'Enter the documents, participants and settings below',
			json: 'The whole config object as the API takes it',
			show,
		}),
		{
			displayName: 'Configuration (JSON)',
			name: 'configJson',
			type: 'json',
			default: JSON.stringify(EXAMPLE_CONFIG, null, 2),
			required: true,
			description:
				'Object with documents[] (templateId, label, required), participants[] (key, label, order, role, signatureMethod, verificationMethod, required), execution, approvalStages[] and allowedOverrides[]',
			displayOptions: { show: { ...show, configInput: ['json'] } },
		},
		{
			displayName: 'Documents',
			name: 'documents',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Document',
			default: {},
			description: 'The templates each run creates a document from (at least one)',
			displayOptions: inFields,
			options: [
				{
					displayName: 'Document',
					name: 'document',
					values: [
						{
							...templateIdProperty,
							description: 'The template of this document (the list shows active templates)',
						},
						{
							displayName: 'Label',
							name: 'label',
							type: 'string',
							default: '',
							required: true,
							placeholder: 'e.g. Sales agreement',
						},
						{
							displayName: 'Required',
							name: 'required',
							type: 'boolean',
							default: true,
							description: 'Whether every run must include this document',
						},
					],
				},
			],
		},
		{
			displayName: 'Participants',
			name: 'participants',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Participant',
			default: {},
			description:
				'The people of a run, by key: a run names one recipient per key. A key equal to a template recipient ID takes that role in the document.',
			displayOptions: inFields,
			options: [
				{
					displayName: 'Participant',
					name: 'participant',
					values: [
						{
							displayName: 'Key',
							name: 'key',
							type: 'string',
							default: '',
							required: true,
							placeholder: 'e.g. buyer',
						},
						{
							displayName: 'Label',
							name: 'label',
							type: 'string',
							default: '',
							required: true,
							placeholder: 'e.g. Buyer',
						},
						{
							displayName: 'Order',
							name: 'order',
							type: 'number',
							typeOptions: { minValue: 1 },
							default: 1,
							description: 'Signing position, from 1',
						},
						{
							displayName: 'Required',
							name: 'required',
							type: 'boolean',
							default: true,
							description: 'Whether every run must name a recipient for this participant',
						},
						{
							displayName: 'Role',
							name: 'role',
							type: 'options',
							options: ROLE_OPTIONS,
							default: 'signer',
						},
						...signingMethodProperties('email_verification'),
					],
				},
			],
		},
		...executionProperties(inFields),
		// The API reference shows both only empty and names no item shape (spec 2.11, not in
		// DESIGN.md either), so there is nothing to build fields from: they stay JSON, with
		// where a shape comes from, and a check that names the field.
		{
			displayName: 'Approval Stages (JSON)',
			name: 'approvalStages',
			type: 'json',
			default: '[]',
			description:
				'Optional internal approval a run passes before its envelopes go out: a JSON array of stages, sent to the service as given',
			hint: `Keep <code>[]</code> for none. ${SHAPE_HINT('approvalStages')}`,
			displayOptions: inFields,
		},
		{
			displayName: 'Allowed Overrides (JSON)',
			name: 'allowedOverrides',
			type: 'json',
			default: '[]',
			description:
				'What the caller of a run may change from this configuration: a JSON array, sent to the service as given',
			hint: `Keep <code>[]</code> for none. ${SHAPE_HINT('allowedOverrides')}`,
			displayOptions: inFields,
		},
	];
}

/** A resource locator value (or a plain id) as the id text, unchecked (the schema names it). */
function locatorValue(value: unknown): unknown {
	if (value && typeof value === 'object' && '__rl' in value)
		return (value as { value?: unknown }).value;
	return value;
}

function jsonArray(
	this: IExecuteFunctions,
	name: string,
	label: string,
	i: number,
): unknown[] | undefined {
	const value = readJsonParameter.call(this, name, i, label, '[]');
	if (value === undefined) return undefined;
	if (!Array.isArray(value)) {
		const got =
			value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
		throw inputError(
			this.getNode(),
			`${label}: must be a JSON array, not ${got}`,
			i,
			`Give [] for none, or the array as the service shows it (Signing Workflow > Get, version.config.${name}).`,
		);
	}
	return value;
}

/** The config of item `i` in the API's shape, unchecked (the schema decides). */
export function readConfig(this: IExecuteFunctions, i: number): unknown {
	if (this.getNodeParameter('configInput', i, 'fields') === 'json') {
		return readJsonParameter.call(this, 'configJson', i, 'Configuration (JSON)');
	}
	const documents = (
		(this.getNodeParameter('documents.document', i, []) as IDataObject[]) ?? []
	).map((d) => ({
		...d,
		templateId:
			typeof locatorValue(d.templateId) === 'string'
				? String(locatorValue(d.templateId)).trim()
				: locatorValue(d.templateId),
		label: typeof d.label === 'string' ? d.label.trim() : d.label,
	}));
	const participants = (
		(this.getNodeParameter('participants.participant', i, []) as IDataObject[]) ?? []
	).map((p) => compact(p) ?? {});
	const config: IDataObject = { documents, participants };
	const execution = readSigningSettings.call(this, i);
	if (execution) config.execution = execution;
	const approvalStages = jsonArray.call(this, 'approvalStages', 'Approval Stages (JSON)', i);
	if (approvalStages) config.approvalStages = approvalStages as IDataObject[];
	const allowedOverrides = jsonArray.call(this, 'allowedOverrides', 'Allowed Overrides (JSON)', i);
	if (allowedOverrides) config.allowedOverrides = allowedOverrides as IDataObject[];
	return config;
}
