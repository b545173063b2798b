import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { REPLAY_WINDOW_MINUTES, WEBHOOK_SIGNATURE } from '../shared/assumptions';
import { CREDENTIAL_TEST_NAME, testCredential } from '../shared/credentialTest';
import { checkBounds, DEFAULT_LIMITS, DEFAULT_MAX_CLOCK_SKEW_MINUTES, eventChosen, parseEvent, WEBHOOK_EVENTS } from './delivery';
import { triggerProperties } from './description';
import { claimEvent } from './memory';
import {
	DEFAULT_SIGNATURE_ALGORITHM,
	DEFAULT_SIGNATURE_ENCODING,
	DEFAULT_SIGNATURE_SCHEME,
	isSignatureAlgorithm,
	isSignatureEncoding,
	isSignatureScheme,
	SIGNATURE_FAILURE_TEXT,
	verifySignature,
} from './signature';

const UNSIGNED_REFUSED =
	'This trigger has no webhook secret to verify deliveries with: set the webhook secret of the dashboard in the credential (or turn on Accept Unsigned Deliveries in the trigger)';

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
		subtitle: `={{ ($parameter["events"] || []).length + " of ${WEBHOOK_EVENTS.length + 1} events" }}`,
		// n8n's node creator shows one entry for the package's action and trigger nodes, with
		// this description; so it speaks of the whole service, not only of this trigger.
		description: 'E-signature: send PDFs for signature, create documents from templates, react to signing events',
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
				testedBy: 'documentSigningApiTest',
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
		properties: triggerProperties,
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testCredential } };

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
		const acceptUnsigned = this.getNodeParameter('acceptUnsigned', false) as boolean;

		// Every answer is written here, so n8n stores the static data (the memory of event
		// ids) before it starts the execution: with n8n's own "onReceived" answer it would
		// start the run first, and the run's start drops the pending change.
		const answer = (status: number, body: IDataObject, workflowData?: INodeExecutionData[][]): IWebhookResponseData => {
			this.getResponseObject().status(status).json(body);
			return { noWebhookResponse: true, workflowData };
		};
		// Every delivery that starts nothing says why in n8n's log: `warn` for what is forged,
		// malformed or misconfigured (worth a look), `debug` for the ordinary repeats and old or
		// unselected events. Never the secret, the signature or the body.
		// n8n prints only the message at levels above debug: the facts go in it. The id is
		// quoted as JSON, so a line break in it cannot start a line of its own.
		const log = (level: 'warn' | 'debug', reason: string, id?: string) => {
			const workflowId = this.getWorkflow().id ?? '';
			const eventId = id ? JSON.stringify(id.slice(0, 200)) : undefined;
			this.logger[level](
				`Document Signing Trigger did not start workflow ${workflowId}: ${reason}${eventId ? ` (event id ${eventId})` : ''}`,
				{ workflowId, node: this.getNode().name, ...(eventId ? { eventId } : {}) },
			);
		};
		const refuse = (status: number, code: string, message: string, logReason = message) => {
			log('warn', `${status} ${code}: ${logReason}`);
			return answer(status, { code, message });
		};
		const ignore = (level: 'warn' | 'debug', reason: string, id?: string) => {
			log(level, reason, id);
			return answer(200, { received: true, started: false, reason, ...(id ? { id } : {}) });
		};

		const credentials = await this.getCredentials('documentSigningApi');
		const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
		if (secret === '' && !acceptUnsigned) {
			return refuse(401, 'WEBHOOK_SECRET_MISSING', UNSIGNED_REFUSED);
		}

		const rawBody = bodyBytes(req.rawBody, req.body);
		const bounds = checkBounds(rawBody, {
			maxBytes: Math.round(numberOption(options.maxBodyKb, DEFAULT_LIMITS.maxBytes / 1024) * 1024),
			maxDataDepth: numberOption(options.maxDataDepth, DEFAULT_LIMITS.maxDataDepth),
		});
		if (!bounds.ok) return refuse(bounds.status, bounds.code, bounds.message);

		const maxAgeMinutes = numberOption(options.maxEventAgeMinutes, REPLAY_WINDOW_MINUTES);
		const maxSkewMinutes = numberOption(options.maxClockSkewMinutes, DEFAULT_MAX_CLOCK_SKEW_MINUTES);
		if (secret !== '') {
			const algorithm = options.algorithm ?? DEFAULT_SIGNATURE_ALGORITHM;
			const encoding = options.encoding ?? DEFAULT_SIGNATURE_ENCODING;
			const scheme = options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME;
			if (!isSignatureAlgorithm(algorithm) || !isSignatureEncoding(encoding) || !isSignatureScheme(scheme)) {
				return refuse(500, 'CONFIGURATION_ERROR', 'Unsupported signature algorithm, encoding or scheme');
			}
			const headerName = ((options.signatureHeader as string) || WEBHOOK_SIGNATURE.header).toLowerCase();
			const result = verifySignature({
				// Only the bytes received can be verified; a parsed body is never serialised again.
				rawBody: Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined,
				header: req.headers[headerName],
				secret,
				algorithm,
				encoding,
				scheme,
				maxAgeMs: maxAgeMinutes * 60_000,
				maxSkewMs: maxSkewMinutes * 60_000,
			});
			if (!result.ok) {
				const why = `${SIGNATURE_FAILURE_TEXT[result.reason]} (header ${headerName}, ${scheme} scheme, ${algorithm}, ${encoding})`;
				return refuse(401, 'INVALID_SIGNATURE', 'Signature missing or invalid', why);
			}
		}

		const parsed = parseEvent(rawBody);
		if (!parsed.ok) return refuse(400, 'INVALID_PAYLOAD', parsed.message);
		const { event } = parsed;

		if (!eventChosen(events, event.event)) return ignore('debug', 'event not selected', event.id);

		const createdAtMs = Date.parse(event.createdAt);
		const forgetBeforeMs = maxAgeMinutes > 0 ? Date.now() - maxAgeMinutes * 60_000 : -Infinity;
		if (createdAtMs < forgetBeforeMs) return ignore('debug', 'event older than Max Event Age', event.id);
		if (maxSkewMinutes > 0 && createdAtMs > Date.now() + maxSkewMinutes * 60_000) {
			return ignore('warn', 'event dated further ahead than Max Clock Skew', event.id);
		}

		if (deduplicate) {
			const workflow = this.getWorkflow();
			const isNew = claimEvent({
				key: `${this.getMode()}:${workflow.id ?? ''}:${this.getNode().name}`,
				store: this.getWorkflowStaticData('node'),
				id: event.id,
				createdAtMs,
				forgetBeforeMs,
			});
			if (!isNew) return ignore('debug', 'duplicate delivery', event.id);
		}

		// The event whole: fields the specification does not show reach the workflow too.
		const json: IDataObject = {
			...event.body,
			id: event.id,
			event: event.event,
			createdAt: event.createdAt,
			data: event.data,
			verified: secret !== '',
		};
		if (secret === '') json.verificationNote = NOT_VERIFIED_NOTE;
		if (options.includeHeaders === true) json.headers = { ...req.headers } as IDataObject;

		return answer(200, { received: true, started: true, id: event.id }, [[{ json }]]);
	}
}

/** The body's bytes: as received, or (no raw body kept) the text n8n parsed it from. */
function bodyBytes(rawBody: unknown, body: unknown): Buffer {
	if (Buffer.isBuffer(rawBody)) return rawBody;
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	return Buffer.from(JSON.stringify(body ?? null), 'utf8');
}

function numberOption(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}
