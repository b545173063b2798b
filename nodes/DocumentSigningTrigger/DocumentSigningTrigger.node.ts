import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { safetySetting, toggle, typedTriggerParameters } from '../shared/api/parameters';
import { CREDENTIAL_TEST_NAME, testCredential } from '../shared/http/credentialTest';
import { type PendingClaim, settleOnAnswer, startedResult, testRefusal } from './answer';
import { bodyBytes, firstUnselected, OTHER_EVENTS, WEBHOOK_EVENTS } from './delivery';
import { triggerPanel, triggerProperties } from './description';
import { claimEvent } from './memory';
import { ownAnswer, receivedBody, STARTED_RUN_WEBHOOK } from './n8nContract';
import { judgedWithSecret } from './secret';
import { judgeDelivery, type Verdict } from './verdict';

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
		// 1.1 behaves as 1; n8n reads a webhook node's body differently from version 1.1 on
		// (n8nContract.ts body-read-by-version), at less cost per delivery.
		version: [1, 1.1],
		defaultVersion: 1.1,
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
				// n8n answers a delivery that starts a run (in 2.x once it has the execution), with
				// the node's `webhookResponse` as the body: see n8nContract.ts.
				...STARTED_RUN_WEBHOOK,
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
		const answers = answersOf(this);
		// Every setting read by its declared type: a value an expression gives that the field
		// does not take refuses the delivery (nothing starts) and names the field.
		let settings: TriggerSettings;
		try {
			settings = readSettings(typedTriggerParameters(this, triggerProperties));
		} catch (error) {
			return answers.refuse(500, 'CONFIGURATION_ERROR', (error as Error).message);
		}
		const req = this.getRequestObject();
		if (!(await receivedBody(req)))
			return answers.refuse(400, 'INVALID_PAYLOAD', 'The body could not be read');
		const delivery = {
			rawBody: Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined,
			bytes: bodyBytes(req.rawBody, req.body),
			headers: req.headers,
		};
		const now = Date.now();
		const verdict = await judgedWithSecret(this, now, (secret) =>
			judgeDelivery(delivery, settings, secret, now),
		);
		switch (verdict.action) {
			case 'refuse':
				return answers.refuse(verdict.status, verdict.code, verdict.message, verdict.logReason);
			case 'ignore':
				return answers.ignore(verdict.level, verdict.reason, verdict.id);
			case 'unselected':
				return answers.unselected(verdict.id, verdict.kind);
			default:
				return await startRun.call(this, verdict, settings, answers);
		}
	}
}

/** The answers of deliveries that start nothing, each with its line in n8n's log. */
function answersOf(context: IWebhookFunctions) {
	const triggerKey = `${context.getMode()}:${context.getWorkflow().id ?? ''}:${context.getNode().name}`;
	const answer = (status: number, body: IDataObject): IWebhookResponseData =>
		ownAnswer(context.getResponseObject(), status, body);
	// Every delivery that starts nothing says why in n8n's log: `warn` for what is forged,
	// malformed or misconfigured (worth a look), `debug` for the ordinary repeats and old or
	// unselected events. Never the secret, the signature or the body.
	// n8n prints only the message at levels above debug: the facts go in it. The id is
	// quoted as JSON, so a line break in it cannot start a line of its own.
	const log = (level: 'warn' | 'debug', reason: string, id?: string) => {
		const workflowId = context.getWorkflow().id ?? '';
		const eventId = id ? JSON.stringify(id.slice(0, 200)) : undefined;
		context.logger[level](
			`Document Signing Trigger did not start workflow ${workflowId}: ${reason}${eventId ? ` (event id ${eventId})` : ''}`,
			{ workflowId, node: context.getNode().name, ...(eventId ? { eventId } : {}) },
		);
	};
	const ignore = (level: 'warn' | 'debug', reason: string, id?: string) => {
		log(level, reason, id);
		return answer(200, { received: true, started: false, reason, ...(id ? { id } : {}) });
	};
	return {
		triggerKey,
		ignore,
		refuse(status: number, code: string, message: string, logReason = message) {
			log('warn', `${status} ${code}: ${logReason}`);
			// Listening in the editor (a test delivery): a refusal fails the test run with the
			// reason, so the editor stops listening and shows why. n8n then answers the delivery
			// 500 itself. Live deliveries keep their answers (401, 400, 413, ...).
			if (context.getMode() === 'manual' && status !== 503)
				throw testRefusal(context.getNode(), status, code, logReason);
			return answer(status, { code, message });
		},
		unselected(id: string, kind: string) {
			// The first of each kind per trigger says at warn which option would take it.
			const first = firstUnselected(triggerKey, kind);
			const reason = first
				? `event not selected (kind ${JSON.stringify(kind.slice(0, 100))}; choose it, or "${OTHER_EVENTS.name}", under Events to start on it)`
				: 'event not selected';
			log(first ? 'warn' : 'debug', reason, id);
			return answer(200, { received: true, started: false, reason: 'event not selected', id });
		},
	};
}

/**
 * Starts a run for the event: claimed in the memory of ids first (a repeat is acknowledged
 * without starting), then handed to n8n, which answers once it has the execution.
 */
async function startRun(
	this: IWebhookFunctions,
	verdict: Extract<Verdict, { action: 'start' }>,
	settings: TriggerSettings,
	answers: ReturnType<typeof answersOf>,
): Promise<IWebhookResponseData> {
	const { event, eventId } = verdict;
	let pending: PendingClaim | undefined;
	if (settings.deduplicate) {
		const claim = await claimEvent({
			key: answers.triggerKey,
			store: this.getWorkflowStaticData('node'),
			id: eventId,
			createdAtMs: verdict.createdAtMs,
			forgetBeforeMs: verdict.forgetBeforeMs,
			waitMs: COPY_WAIT_MS,
		});
		if (claim.outcome === 'duplicate')
			return answers.ignore('debug', 'duplicate delivery', eventId);
		if (claim.outcome === 'busy') {
			this.getResponseObject().setHeader('Retry-After', '30');
			return answers.refuse(
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
		verified: verdict.verified,
	};
	if (!verdict.verified) json.verificationNote = NOT_VERIFIED_NOTE;
	if (toggle(settings.options.includeHeaders, false))
		json.headers = { ...this.getRequestObject().headers } as IDataObject;
	// n8n answers this one itself, after it has inserted (or queued) the execution.
	return startedResult([[{ json }]], { received: true, started: true, id: eventId }, pending);
}
