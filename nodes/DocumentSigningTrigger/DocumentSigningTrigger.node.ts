import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { WEBHOOK_SIGNATURE } from '../shared/assumptions';
import {
	DEFAULT_SIGNATURE_ALGORITHM,
	DEFAULT_SIGNATURE_ENCODING,
	isSignatureAlgorithm,
	isSignatureEncoding,
	verifySignature,
} from '../shared/signature';
import {
	parseEvent,
	recordEventId,
	toEvent,
	WEBHOOK_EVENT_VALUES,
	WEBHOOK_EVENTS,
	type ParseResult,
} from './delivery';

const NOT_VERIFIED_NOTE =
	'No webhook secret is set in the credential, so the signature of this delivery was not checked.';

/**
 * Starts a workflow on the service's webhook events. The service has no API to register
 * webhooks: the user pastes this node's production URL into the dashboard, so the
 * registration hooks below have nothing to do.
 */
export class DocumentSigningTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Signing Trigger',
		name: 'documentSigningTrigger',
		icon: {
			light: 'file:../../icons/documentSigning.svg',
			dark: 'file:../../icons/documentSigning.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: `={{ ($parameter["events"] || []).length + " of ${WEBHOOK_EVENTS.length} events" }}`,
		// n8n shows this description for the whole package in the node creator, so it names both nodes' purpose.
		description: 'E-signature for PDFs: react to e-stamp and document-sent events',
		defaults: {
			name: 'Document Signing Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The service delivers only to the URL registered in its dashboard, so "make an event
		// happen" alone does not reach the editor: the panel says which URL to register.
		triggerPanel: {
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
		},
		credentials: [
			{
				name: 'documentSigningApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The service has no API to register webhooks. Copy the Production URL above into the dashboard (Settings, Webhooks) and subscribe to the events there. Set the webhook secret in the credential (optional, but without it deliveries are not verified).',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: WEBHOOK_EVENTS.map((e) => ({ ...e })),
				default: [...WEBHOOK_EVENT_VALUES],
				description:
					'Events that start the workflow. Other events are acknowledged and start nothing.',
			},
			{
				displayName: 'Ignore Repeated Deliveries',
				name: 'deduplicate',
				type: 'boolean',
				default: true,
				description:
					'Whether a delivery of an event ID seen recently (last 1000 events) is acknowledged without starting the workflow again',
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
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const events = this.getNodeParameter('events', []) as string[];
		const deduplicate = this.getNodeParameter('deduplicate', true) as boolean;

		// Answers the request here and starts nothing.
		const refuse = (status: number, code: string, message: string): IWebhookResponseData => {
			this.getResponseObject().status(status).json({ code, message });
			return { noWebhookResponse: true };
		};

		const credentials = await this.getCredentials('documentSigningApi');
		const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
		const rawBody: unknown = req.rawBody;

		let parsed: ParseResult;
		if (secret !== '') {
			const algorithm = options.algorithm ?? DEFAULT_SIGNATURE_ALGORITHM;
			const encoding = options.encoding ?? DEFAULT_SIGNATURE_ENCODING;
			if (!isSignatureAlgorithm(algorithm) || !isSignatureEncoding(encoding)) {
				return refuse(500, 'CONFIGURATION_ERROR', 'Unsupported signature algorithm or encoding');
			}
			const headerName = ((options.signatureHeader as string) || WEBHOOK_SIGNATURE.header).toLowerCase();
			const result = verifySignature({
				// Only the bytes received can be verified; a parsed body is never serialised again.
				rawBody: Buffer.isBuffer(rawBody) ? rawBody : undefined,
				header: req.headers[headerName],
				secret,
				algorithm,
				encoding,
			});
			if (!result.ok) {
				return refuse(401, 'INVALID_SIGNATURE', 'Signature missing or invalid');
			}
			parsed = parseEvent(rawBody as Buffer);
		} else if (Buffer.isBuffer(rawBody)) {
			parsed = parseEvent(rawBody);
		} else if (typeof req.body === 'string') {
			parsed = parseEvent(Buffer.from(req.body, 'utf8'));
		} else {
			parsed = toEvent(req.body);
		}

		if (!parsed.ok) return refuse(400, 'INVALID_PAYLOAD', parsed.message);
		const { event } = parsed;

		if (!events.includes(event.event)) {
			return { webhookResponse: { received: true, started: false, reason: 'event not selected' } };
		}

		if (deduplicate && !recordEventId(this.getWorkflowStaticData('node'), event.id)) {
			return { webhookResponse: { received: true, started: false, reason: 'duplicate delivery' } };
		}

		const json: IDataObject = {
			id: event.id,
			event: event.event,
			createdAt: event.createdAt,
			data: event.data,
			verified: secret !== '',
		};
		if (secret === '') json.verificationNote = NOT_VERIFIED_NOTE;
		if (options.includeHeaders === true) json.headers = { ...req.headers } as IDataObject;

		return { workflowData: [[{ json }]] };
	}
}
