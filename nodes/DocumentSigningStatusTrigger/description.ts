import type { INodeProperties } from 'n8n-workflow';

import { ENVELOPE_STATUS_OPTIONS } from '../shared/api/envelopeStatus';

/**
 * The Status Trigger's panel. Version 1 shows the fields of Envelope Reached a Status in both
 * modes (a hint says they are not used with Recipient Acted); from 1.1 each mode shows only
 * its own fields, as n8n's own nodes do. Saved version-1 nodes keep their panel.
 */

const RECIPIENT_MODE = { show: { event: ['recipientActed'] } };
const V1 = { '@version': [1] };
const FROM_1_1 = { '@version': [{ _cnd: { gte: 1.1 } }] };
const STATUS_MODE_FROM_1_1 = { ...FROM_1_1, event: ['statusReached'] };

const triggerOn: INodeProperties = {
	displayName: 'Trigger On',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Envelope Reached a Status',
			value: 'statusReached',
			description: 'One run per envelope that reaches a chosen status',
		},
		{
			name: 'Recipient Acted',
			value: 'recipientActed',
			description:
				'One run per recipient who signs, approves, declines or otherwise changes status',
		},
	],
	default: 'statusReached',
};

const recipientFields: INodeProperties[] = [
	{
		displayName: 'Roles',
		name: 'roles',
		type: 'multiOptions',
		options: [
			{ name: 'Signer', value: 'signer' },
			{ name: 'Approver', value: 'approver' },
			{ name: 'Cc', value: 'cc' },
		],
		default: ['signer', 'approver', 'cc'],
		description: 'Start only for recipients of these roles',
		displayOptions: RECIPIENT_MODE,
	},
	{
		displayName: 'Changes',
		name: 'recipientChanges',
		type: 'multiOptions',
		options: [
			{ name: 'Signed', value: 'signed', description: 'The recipient status became signed' },
			{
				name: 'Any Other Status Change',
				value: 'other',
				description:
					'Any other new recipient status (approved, declined, ...), passed through as the service gives it',
			},
		],
		default: ['signed', 'other'],
		description: 'Which recipient status changes start a run',
		hint: 'Checked at the Poll Times above: one run per recipient action since the last check. Actions before the workflow is first published do not start it.',
		displayOptions: RECIPIENT_MODE,
	},
];

/** The fields of Envelope Reached a Status, shown where `show` says. */
function statusFields(show: Record<string, unknown>): INodeProperties[] {
	const where = Object.keys(show).length ? { displayOptions: { show } } : {};
	return [
		{
			displayName: 'Trigger on Status',
			name: 'statuses',
			type: 'multiOptions',
			options: ENVELOPE_STATUS_OPTIONS,
			default: ['completed'],
			description:
				'Start when an envelope reaches one of these statuses (Completed: every signer signed)',
			hint: 'Checked at the Poll Times above: starts once for each envelope that reached a status since the last check. Envelopes already there when the workflow is first published do not start it.',
			...where,
		},
		{
			displayName: 'Other Statuses',
			name: 'otherStatuses',
			type: 'string',
			default: '',
			placeholder: 'e.g. declined, expired',
			description:
				'Statuses your service uses beyond the list above, separated by commas; each is matched as the service writes it',
			...where,
		},
		{
			displayName: 'Download Signed PDF',
			name: 'downloadSignedPdf',
			type: 'boolean',
			default: false,
			description:
				'Whether to attach the signed PDF as binary data to each completed envelope (other statuses get no file)',
			...where,
		},
	] as INodeProperties[];
}

const downloadFields = (show: Record<string, unknown>): INodeProperties[] => [
	{
		displayName:
			'Only a completed envelope has a signed PDF: envelopes reaching another status chosen above start without a file, their <code>signedPdfSkipped</code> saying why',
		name: 'downloadOtherStatusesNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: {
				...show,
				event: ['statusReached'],
				downloadSignedPdf: [true],
				statuses: ENVELOPE_STATUS_OPTIONS.map((o) => o.value).filter((v) => v !== 'completed'),
			},
		},
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the signed PDF in',
		displayOptions: { show: { ...show, downloadSignedPdf: [true] } },
	},
];

export const statusTriggerProperties: INodeProperties[] = [
	{
		...triggerOn,
		hint: 'With Recipient Acted, Trigger on Status, Other Statuses and Download Signed PDF below are not used',
		displayOptions: { show: V1 },
	},
	{ ...triggerOn, displayOptions: { show: FROM_1_1 } },
	...recipientFields,
	...statusFields(V1),
	...statusFields(STATUS_MODE_FROM_1_1),
	...downloadFields(V1),
	...downloadFields(STATUS_MODE_FROM_1_1),
];
