import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { REPLAY_WINDOW_MINUTES, WEBHOOK_SIGNATURE } from '../shared/assumptions';
import { safetySetting, toggle, typedTriggerParameters } from '../shared/api/parameters';
import { CREDENTIAL_TEST_NAME, testCredential } from '../shared/credentialTest';
import { type PendingClaim, settleOnAnswer, startedResult, testRefusal } from './answer';
import {
	bodyBytes,
	checkBounds,
	DEFAULT_LIMITS,
	DEFAULT_MAX_CLOCK_SKEW_MINUTES,
	eventChosen,
	firstUnselected,
	OTHER_EVENTS,
	numberOption,
	parseEvent,
	WEBHOOK_EVENTS,
} from './delivery';
import { triggerPanel, triggerProperties } from './description';
import { claimEvent } from './memory';
import {
	DEFAULT_SIGNATURE_ALGORITHM,
	DEFAULT_SIGNATURE_ENCODING,
	DEFAULT_SIGNATURE_SCHEME,
	isSignatureAlgorithm,
	isSignatureEncoding,
	isSignatureScheme,
	schemeHeadersSuggest,
	SIGNATURE_FAILURE_TEXT,
	SIGNATURE_SCHEME_NAMES,
	verifySignature,
} from './signature';

interface TriggerSettings {
	options: IDataObject;
	events: string[];
	deduplicate: boolean;
	acceptUnsigned: boolean;
}

function readSettings(read: IWebhookFunctions['getNodeParameter']): TriggerSettings {
	return {
		options: (read('options', {}) as IDataObject | undefined) ?? {},
		events: (read('events', []) as string[] | undefined) ?? [],
		deduplicate: toggle(read('deduplicate', true), true),
		acceptUnsigned: safetySetting('acceptUnsigned', read('acceptUnsigned', false)),
	};
}

/** How long a copy of an event waits for the outcome of the delivery n8n is still taking. */
const COPY_WAIT_MS = 25_000;

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
		// The Status Trigger cannot be listed under this entry (see docs/editor/README.md): it is named here.
		description:
			'E-signature: send PDFs for signature, create documents from templates, react to signing events. Completed envelopes without webhooks: search Document Signing Status.',
		defaults: {
			name: 'Document Signing Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The service delivers only to the URL registered in its dashboard, so "make an event
		// happen" alone does not reach the editor: the panel says which URL to register.
		triggerPanel,
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
				// n8n answers a delivery that starts a run only once it has the execution, with the
				// node's `webhookResponse` as the body ('' instead of n8n's default "firstEntryJson").
				responseMode: 'onReceived',
				responseData: '',
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

		// The answers for deliveries that start nothing are written here; a delivery that starts
		// a run is answered by n8n once it has the execution (see the end of this function).
		const answer = (status: number, body: IDataObject): IWebhookResponseData => {
			this.getResponseObject().status(status).json(body);
			return { noWebhookResponse: true };
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
			// Listening in the editor (a test delivery): a refusal fails the test run with the
			// reason, so the editor stops listening and shows why. n8n then answers the delivery
			// 500 itself. Live deliveries keep their answers (401, 400, 413, ...).
			if (this.getMode() === 'manual' && status !== 503)
				throw testRefusal(this.getNode(), status, code, logReason);
			return answer(status, { code, message });
		};
		const ignore = (level: 'warn' | 'debug', reason: string, id?: string) => {
			log(level, reason, id);
			return answer(200, { received: true, started: false, reason, ...(id ? { id } : {}) });
		};
		const triggerKey = `${this.getMode()}:${this.getWorkflow().id ?? ''}:${this.getNode().name}`;

		// Every setting read by its declared type: a value an expression gives that the field
		// does not take refuses the delivery (nothing starts) and names the field.
		let settings: TriggerSettings;
		try {
			settings = readSettings(typedTriggerParameters(this, triggerProperties));
		} catch (error) {
			return refuse(500, 'CONFIGURATION_ERROR', (error as Error).message);
		}
		const { options, events, deduplicate, acceptUnsigned } = settings;

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
		const maxSkewMinutes = numberOption(
			options.maxClockSkewMinutes,
			DEFAULT_MAX_CLOCK_SKEW_MINUTES,
		);
		// The id the signature covers (Standard Webhooks' webhook-id), if the scheme has one.
		let signedId: string | undefined;
		if (secret !== '') {
			const algorithm = options.algorithm ?? DEFAULT_SIGNATURE_ALGORITHM;
			const encoding = options.encoding ?? DEFAULT_SIGNATURE_ENCODING;
			const scheme = options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME;
			if (
				!isSignatureAlgorithm(algorithm) ||
				!isSignatureEncoding(encoding) ||
				!isSignatureScheme(scheme)
			) {
				return refuse(
					500,
					'CONFIGURATION_ERROR',
					'Unsupported signature algorithm, encoding or scheme',
				);
			}
			const headerName = (
				(options.signatureHeader as string) || WEBHOOK_SIGNATURE.header
			).toLowerCase();
			const result = verifySignature({
				// Only the bytes received can be verified; a parsed body is never serialised again.
				rawBody: Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined,
				header: req.headers[headerName],
				headers: req.headers,
				secret,
				algorithm,
				encoding,
				scheme,
				maxAgeMs: maxAgeMinutes * 60_000,
				maxSkewMs: maxSkewMinutes * 60_000,
			});
			if (!result.ok && result.reason === 'secret_not_base64') {
				return refuse(500, 'CONFIGURATION_ERROR', SIGNATURE_FAILURE_TEXT[result.reason]);
			}
			if (!result.ok) {
				const where =
					scheme === 'standardWebhooks'
						? 'webhook-* headers'
						: `header ${headerName}, ${algorithm}, ${encoding}`;
				const suggested = schemeHeadersSuggest(scheme, req.headers, headerName);
				const hint = suggested
					? `; the headers look signed with the ${SIGNATURE_SCHEME_NAMES[suggested]} scheme (option Signature Scheme)`
					: '';
				const why = `${SIGNATURE_FAILURE_TEXT[result.reason]} (${SIGNATURE_SCHEME_NAMES[scheme]} scheme, ${where})${hint}`;
				return refuse(401, 'INVALID_SIGNATURE', 'Signature missing or invalid', why);
			}
			signedId = result.eventId;
		}

		const parsed = parseEvent(rawBody);
		if (!parsed.ok) return refuse(400, 'INVALID_PAYLOAD', parsed.message);
		const { event } = parsed;

		if (!eventChosen(events, event.event)) {
			// The first of each kind per trigger says at warn which option would take it.
			const first = firstUnselected(triggerKey, event.event);
			const reason = first
				? `event not selected (kind ${JSON.stringify(event.event.slice(0, 100))}; choose it, or "${OTHER_EVENTS.name}", under Events to start on it)`
				: 'event not selected';
			log(first ? 'warn' : 'debug', reason, event.id);
			return answer(200, {
				received: true,
				started: false,
				reason: 'event not selected',
				id: event.id,
			});
		}
		const eventId = signedId ?? event.id;

		const createdAtMs = Date.parse(event.createdAt);
		const forgetBeforeMs = maxAgeMinutes > 0 ? Date.now() - maxAgeMinutes * 60_000 : -Infinity;
		if (createdAtMs < forgetBeforeMs)
			return ignore('debug', 'event older than Max Event Age', event.id);
		if (maxSkewMinutes > 0 && createdAtMs > Date.now() + maxSkewMinutes * 60_000) {
			return ignore('warn', 'event dated further ahead than Max Clock Skew', event.id);
		}

		let pending: PendingClaim | undefined;
		if (deduplicate) {
			const claim = await claimEvent({
				key: triggerKey,
				store: this.getWorkflowStaticData('node'),
				id: eventId,
				createdAtMs,
				forgetBeforeMs,
				waitMs: COPY_WAIT_MS,
			});
			if (claim.outcome === 'duplicate') return ignore('debug', 'duplicate delivery', eventId);
			if (claim.outcome === 'busy') {
				this.getResponseObject().setHeader('Retry-After', '30');
				return refuse(
					503,
					'DELIVERY_IN_PROGRESS',
					'An earlier delivery of this event is still being taken: retry later',
					`an earlier delivery of event ${JSON.stringify(eventId.slice(0, 200))} is still being taken`,
				);
			}
			// Remembered only once n8n has taken the execution and answered 2xx.
			settleOnAnswer(this.getResponseObject(), claim);
			pending = claim;
		}

		// The event whole: fields the specification does not show reach the workflow too. The
		// envelope's id also at the top (`envelopeId`), as every envelope step outputs it;
		// `data.envelopeId` stays.
		const envelopeId = (event.data as IDataObject | undefined)?.envelopeId;
		const json: IDataObject = {
			...(typeof envelopeId === 'string' && envelopeId ? { envelopeId } : {}),
			...event.body,
			id: event.id,
			event: event.event,
			createdAt: event.createdAt,
			data: event.data,
			verified: secret !== '',
		};
		if (secret === '') json.verificationNote = NOT_VERIFIED_NOTE;
		if (toggle(options.includeHeaders, false)) json.headers = { ...req.headers } as IDataObject;

		// n8n answers this one itself, after it has inserted (or queued) the execution.
		return startedResult([[{ json }]], { received: true, started: true, id: eventId }, pending);
	}
}
