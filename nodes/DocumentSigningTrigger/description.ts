/** The trigger's parameters: events, repeat handling, and the limits a delivery must keep. */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { REPLAY_WINDOW_MINUTES } from '../shared/api/assumptions';
import {
	DEFAULT_SIGNATURE_ALGORITHM,
	DEFAULT_SIGNATURE_ENCODING,
	DEFAULT_SIGNATURE_SCHEME,
} from './scheme';
import {
	DEFAULT_MAX_BODY_KB,
	DEFAULT_MAX_CLOCK_SKEW_MINUTES,
	DEFAULT_MAX_DATA_DEPTH,
	OTHER_EVENTS,
	WEBHOOK_EVENT_VALUES,
	WEBHOOK_EVENTS,
} from './delivery';
import { SEEN_EVENTS_LIMIT } from './memory';

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"The service has no API to register webhooks: register this node's URL in the dashboard (Settings, Webhooks) and subscribe to the events there. To test from the editor, register this node's Test URL (Webhook URLs above), then Execute step and cause an event; for production, the Production URL. Set the dashboard's webhook secret in the credential: deliveries without a valid signature are refused.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: [...WEBHOOK_EVENTS.map((e) => ({ ...e })), { ...OTHER_EVENTS }],
		default: [...WEBHOOK_EVENT_VALUES],
		description:
			'Events that start the workflow. Events not chosen are acknowledged and start nothing.',
		hint: 'The service sends other event kinds too: choose Any Other Event to start on those, or give kinds in an expression (e.g. {{ ["document.sent", "document.completed"] }}). For completed envelopes without webhooks, use the Document Signing Status trigger.',
	},
	{
		displayName: 'Ignore Repeated Deliveries',
		name: 'deduplicate',
		type: 'boolean',
		default: true,
		description: `Whether a delivery of an event ID seen before (within the replay window, up to ${SEEN_EVENTS_LIMIT.toLocaleString('en-US')} events) is acknowledged without starting the workflow again`,
	},
	{
		displayName: 'Accept Unsigned Deliveries',
		name: 'acceptUnsigned',
		type: 'boolean',
		default: false,
		description:
			'Whether to start the workflow for deliveries that cannot be verified because the credential has no webhook secret. Anyone who learns the URL could then start this workflow. Set by an expression, only true or the text "true" turns it on; other text refuses every delivery.',
	},
	{
		displayName:
			'Unsigned deliveries are accepted: anyone who knows this URL can start the workflow with any event. Set the webhook secret in the credential and turn this off.',
		name: 'unsignedWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { acceptUnsigned: [true] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description: 'Whether to add the request headers to the output',
			},
			{
				displayName: 'Max Body Size (KB)',
				name: 'maxBodyKb',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_BODY_KB,
				description:
					'Larger deliveries are refused (413) and start nothing. The service sends events of a few KB.',
			},
			{
				displayName: 'Max Clock Skew (Minutes)',
				name: 'maxClockSkewMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_MAX_CLOCK_SKEW_MINUTES,
				description:
					'Events dated further ahead than this (from the signed createdAt, or the signed timestamp of the Timestamped scheme) are acknowledged without starting the workflow: a clock that is only a little off still works, a delivery dated far ahead is refused. 0 turns the check off.',
			},
			{
				displayName: 'Max Event Age (Minutes)',
				name: 'maxEventAgeMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: REPLAY_WINDOW_MINUTES,
				description:
					'Events created longer ago than this (from the signed createdAt) are acknowledged without starting the workflow, so a captured delivery cannot be replayed later. 0 turns the check off (then only the last event IDs are remembered).',
			},
			{
				displayName: 'Max Nesting Depth',
				name: 'maxDataDepth',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_MAX_DATA_DEPTH,
				description:
					'Deliveries whose data nests objects or lists deeper than this are refused (400) and start nothing',
			},
			{
				displayName: 'Signature Algorithm',
				name: 'algorithm',
				type: 'options',
				options: [
					{ name: 'SHA-256', value: 'sha256' },
					{ name: 'SHA-512', value: 'sha512' },
					{ name: 'SHA-1', value: 'sha1' },
				],
				default: DEFAULT_SIGNATURE_ALGORITHM,
				description: 'HMAC hash the service signs deliveries with',
			},
			{
				displayName: 'Signature Encoding',
				name: 'encoding',
				type: 'options',
				options: [
					{ name: 'Hex', value: 'hex' },
					{ name: 'Base64', value: 'base64' },
					{ name: 'Base64url', value: 'base64url' },
				],
				default: DEFAULT_SIGNATURE_ENCODING,
				description: 'How the signature is written in the header',
			},
			{
				displayName: 'Signature Header',
				name: 'signatureHeader',
				type: 'string',
				default: 'X-Service-Signature',
				description: 'Name of the request header carrying the signature',
			},
			{
				displayName: 'Signature Scheme',
				name: 'signatureScheme',
				type: 'options',
				options: [
					{
						name: 'HMAC of the Body',
						value: 'body',
						description:
							'The header holds the HMAC of the raw body, bare or prefixed (sha256=..., v1=...); several comma-separated signatures are accepted while a secret is rotated',
					},
					{
						name: 'Timestamped',
						value: 'timestamped',
						description:
							'The header holds t=(unix seconds),v1=(signature), signed over the timestamp, a dot and the raw body; t must be within Max Event Age and Max Clock Skew',
					},
					{
						name: 'Standard Webhooks',
						value: 'standardWebhooks',
						description:
							'Headers webhook-ID, webhook-timestamp and webhook-signature (v1,(base64) entries), HMAC-SHA256 of ID.timestamp.body with the base64 part of a whsec_ secret; the timestamp must be within Max Event Age and Max Clock Skew, and webhook-ID is the event ID for repeated deliveries. Algorithm, encoding and header options do not apply.',
					},
				],
				default: DEFAULT_SIGNATURE_SCHEME,
				description: 'What the service signs and how the signature header is written',
			},
		],
	},
];

/** The panel while listening: which URL to register, since the service delivers only to it. */
export const triggerPanel: INodeTypeDescription['triggerPanel'] = {
	header: 'Register the Test URL in the Document Signing dashboard',
	executionsHelp: {
		inactive:
			"<b>To test from the editor</b>, register this node's <b>Test URL</b> (under Webhook URLs) in the dashboard (Settings, Webhooks) for now, click 'Execute step', then cause an event, for example by sending an envelope. The service delivers only to URLs registered there.<br /><br /><b>For production</b>, register the <b>Production URL</b> in the dashboard instead and publish the workflow. Those executions appear in the executions list, not in the editor.",
		active:
			"<b>This workflow is published</b>: every event the service delivers to the <b>Production URL</b> registered in the dashboard starts an execution, listed in the executions list.<br /><br /><b>To test from the editor</b>, register the <b>Test URL</b> in the dashboard (Settings, Webhooks) for now, click 'Execute step', then cause an event.",
	},
	activationHint: {
		inactive:
			'When the workflow is ready, register the Production URL in the dashboard (Settings, Webhooks) and publish the workflow.',
		active:
			'Events delivered to the Production URL registered in the dashboard also start this workflow (those executions are not shown here).',
	},
};
