import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import {
	EmailNotificationsSchema,
	SigningModeSchema,
	SUGGESTED_WHATSAPP_NOTIFICATIONS,
} from '../../../shared/api/schemas';
import { estampPickerProperties, readEstampConfig } from './estamp';
import { compact, enumOptions, toTimestamp } from './params';
import { VERIFICATION_OPTIONS } from './recipients';

const settingOptions: INodeProperties[] = [
	{
		displayName: 'Email Notifications',
		name: 'emailNotifications',
		type: 'options',
		options: enumOptions(EmailNotificationsSchema, {
			all: 'All',
			completion_only: 'Completion Only',
			none: 'None',
		}),
		default: 'all',
	},
	{
		displayName: 'Expires At',
		name: 'expiresAt',
		type: 'dateTime',
		default: '',
		description: 'When the envelope expires if not completed',
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'Message to recipients',
	},
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		options: enumOptions(SigningModeSchema, {
			sequential: { name: 'Sequential', description: 'Recipients sign in order' },
			parallel: { name: 'Parallel', description: 'All recipients at once' },
		}),
		default: 'sequential',
	},
	{
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/signed',
		description:
			'HTTPS address signers return to; envelopeId, signerEmail, role, status and event are appended',
	},
	{
		displayName: 'Reminder Every (Hours)',
		name: 'reminderEveryHours',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 24,
	},
	{
		displayName: 'Verification Method',
		name: 'verificationMethod',
		type: 'options',
		options: VERIFICATION_OPTIONS,
		default: 'email_verification',
	},
	{
		displayName: 'WhatsApp Notifications',
		name: 'whatsappNotifications',
		type: 'options',
		options: enumOptions(
			{ options: SUGGESTED_WHATSAPP_NOTIFICATIONS },
			{ all: 'All', none: 'None' },
		),
		default: 'all',
		description: 'Messages to recipients that have a phone number',
		hint: 'Other values your service takes can be given as an expression: the node sends any value',
	},
];

/**
 * The signing settings (the API's `workflow` object: mode, verification, reminders,
 * notifications, expiry, redirect) and the e-stamp picker, shared by every resource that
 * sets them. `description` says when they apply, e.g. only at creation.
 */
export function signingSettingsProperties(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Signing Settings',
			name: 'signingSettings',
			type: 'collection',
			placeholder: 'Add Setting',
			default: {},
			description,
			options: settingOptions,
			displayOptions,
		},
		...estampPickerProperties(displayOptions),
	];
}

/** The signing settings of item `i` as the API's `workflow` object, or undefined when none is set. */
export function readSigningSettings(this: IExecuteFunctions, i: number): IDataObject | undefined {
	const settings = compact(this.getNodeParameter('signingSettings', i, {}) as IDataObject) ?? {};
	if (settings.expiresAt !== undefined)
		settings.expiresAt = toTimestamp(settings.expiresAt) as string;

	const estamp = readEstampConfig.call(this, i);
	if (estamp.enabled) {
		settings.estampEnabled = true;
		if (estamp.config) settings.estampConfig = estamp.config;
	}
	return Object.keys(settings).length ? settings : undefined;
}
