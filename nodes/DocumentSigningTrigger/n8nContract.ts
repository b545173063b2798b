/**
 * Every behaviour of n8n's webhook server and static data this trigger relies on, each with the
 * n8n file and line it was read in (paths inside n8n's installed node_modules; n8n 2.41.1 with
 * n8n-workflow 2.41.0, n8n 1.123.81 with n8n-workflow 1.120.31), and the code that leans on it.
 * answer.ts, memory.ts and the node file take these behaviours from here only; docs/real-n8n.md
 * ("What the trigger relies on in n8n") says the same in prose. A behaviour that changes in a
 * later n8n is changed here, and test/trigger/n8n-contract.test.ts reads the installed n8n's
 * lines back.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/** Where a behaviour was read: the n8n version, the file and the line. */
export interface ReadAt {
	n8n: '2.41.1' | '1.123.81';
	file: string;
	line: number;
	/** Text found on that line (checked against the installed n8n by the contract test). */
	text: string;
}

export interface ContractEntry {
	id: string;
	behaviour: string;
	reliedOnBy: string;
	readAt: ReadAt[];
}

const HELPERS = 'n8n/dist/webhooks/webhook-helpers.js';
const EXTRACTOR = 'n8n/dist/webhooks/webhook-on-received-response-extractor.js';
const LIVE = 'n8n/dist/webhooks/live-webhooks.js';
const STATIC_DATA = 'n8n/dist/workflows/workflow-static-data.service.js';
const HANDLER = 'n8n/dist/webhooks/webhook-request-handler.js';
const OBSERVABLE = 'n8n-workflow/dist/cjs/observable-object.js';
const WORKFLOW = 'n8n-workflow/dist/cjs/workflow.js';
const RUNNER = 'n8n/dist/workflow-runner.js';
const CREDENTIAL_CHECK =
	'n8n/dist/executions/pre-execution-checks/credentials-permission-checker.js';

export const N8N_CONTRACT: readonly ContractEntry[] = [
	{
		id: 'answer-after-execution',
		behaviour:
			'A node returning workflowData under responseMode onReceived is answered by n8n: 2.41.1 first runs WorkflowRunner.run (which inserts or enqueues the execution, 500 if that throws), then answers; 1.123.81 answers before run(), for every webhook node.',
		reliedOnBy: 'STARTED_RUN_WEBHOOK (node file); the claim settles on that answer (memory.ts)',
		readAt: [
			{ n8n: '2.41.1', file: HELPERS, line: 632, text: 'const shouldDeferOnReceivedResponse' },
			{ n8n: '2.41.1', file: HELPERS, line: 679, text: 'WorkflowRunner).run(' },
			{ n8n: '2.41.1', file: HELPERS, line: 694, text: 'responseCallback(null, webhookResponse)' },
			// run() threw before anything was sent: the error goes to the callback (a 500).
			{ n8n: '2.41.1', file: HELPERS, line: 832, text: 'responseCallback(error, {})' },
			{
				n8n: '1.123.81',
				file: HELPERS,
				line: 374,
				text: 'responseCallback(null, webhookResponse)',
			},
			{ n8n: '1.123.81', file: HELPERS, line: 401, text: 'WorkflowRunner).run(' },
		],
	},
	{
		id: 'body-read-by-name',
		behaviour:
			"With responseData '' the answer's body is the result's webhookResponse, read by name (no copy of the result), once the answer is due: after run() in 2.41.1, before it in 1.123.81. Before that, n8n reads webhookResponse only for a multipart request (2.41.1 line 579; the trigger never starts on one) or a result without workflowData.",
		reliedOnBy: 'answerBodyOnRead (answer.ts): the read marks the static data changed',
		readAt: [
			{
				n8n: '2.41.1',
				file: EXTRACTOR,
				line: 12,
				text: 'return webhookResultData.webhookResponse',
			},
			{ n8n: '2.41.1', file: HELPERS, line: 692, text: 'extractWebhookOnReceivedResponse)(' },
			{ n8n: '2.41.1', file: HELPERS, line: 579, text: 'webhookResponse instanceof' },
			{
				n8n: '1.123.81',
				file: EXTRACTOR,
				line: 12,
				text: 'return webhookResultData.webhookResponse',
			},
			{ n8n: '1.123.81', file: HELPERS, line: 372, text: 'extractWebhookOnReceivedResponse)(' },
		],
	},
	{
		id: 'own-answer',
		behaviour:
			'A result with noWebhookResponse leaves the answer to the node (written on getResponseObject()); n8n starts nothing.',
		reliedOnBy: 'ownAnswer (node file): refusals and acknowledgements that start nothing',
		readAt: [
			{
				n8n: '2.41.1',
				file: HELPERS,
				line: 590,
				text: 'webhookResultData.noWebhookResponse === true',
			},
			{
				n8n: '1.123.81',
				file: HELPERS,
				line: 342,
				text: 'webhookResultData.noWebhookResponse === true',
			},
		],
	},
	{
		id: 'static-data-saved-before-answer',
		behaviour:
			"Static data changed in webhook() is saved in the success callback only, before the answer is written, and only if the root's __dataChanged is true; a failed save is logged and swallowed. n8n saves the whole static data (an unconditional UPDATE, no version): the last write wins.",
		reliedOnBy: 'memory.ts: every write carries all ids this process knows',
		readAt: [
			{ n8n: '2.41.1', file: LIVE, line: 147, text: 'saveStaticData(workflow)' },
			{ n8n: '2.41.1', file: STATIC_DATA, line: 32, text: '__dataChanged === true' },
			{ n8n: '2.41.1', file: STATIC_DATA, line: 50, text: 'staticData: newStaticData' },
			{ n8n: '1.123.81', file: LIVE, line: 145, text: 'saveStaticData(workflow)' },
			{ n8n: '1.123.81', file: STATIC_DATA, line: 34, text: '__dataChanged === true' },
		],
	},
	{
		id: 'static-data-per-request',
		behaviour:
			"Each request builds its Workflow from the static data loaded from the database for that request: concurrent deliveries hold separate copies, and another process's writes arrive with the next load.",
		reliedOnBy:
			'memory.ts: what the loaded value says was taken is merged before every claim (sync)',
		readAt: [
			// The published version is read from the database on every request (no cache here,
			// unlike the trigger and poll path's getCachedPublishedWorkflowDataForExecution).
			{ n8n: '2.41.1', file: LIVE, line: 179, text: 'getPublishedWorkflowData(workflowId)' },
			{ n8n: '2.41.1', file: LIVE, line: 115, text: 'staticData: workflowData.staticData' },
			{ n8n: '1.123.81', file: LIVE, line: 98, text: 'this.workflowRepository.findOne({' },
			{ n8n: '1.123.81', file: LIVE, line: 119, text: 'staticData: workflowData.staticData' },
		],
	},
	{
		id: 'changed-flag-reset',
		behaviour:
			"ObservableObject.create (new Workflow, also inside run()) sets the root's __dataChanged to false; a write through a node's static data object sets the root's flag (the child's parent is the root). So in 2.41.1 a write made in webhook() is not saved unless written again after run().",
		reliedOnBy: 'markChanged (memory.ts write, again on the body read)',
		readAt: [
			{ n8n: '2.41.1', file: OBSERVABLE, line: 18, text: "'__dataChanged', {" },
			{ n8n: '2.41.1', file: OBSERVABLE, line: 57, text: 'parent.__dataChanged = true' },
			{
				n8n: '2.41.1',
				file: WORKFLOW,
				line: 190,
				text: 'ObservableObject.create({}, this.staticData)',
			},
			{ n8n: '1.123.81', file: OBSERVABLE, line: 25, text: "'__dataChanged', {" },
			{ n8n: '1.123.81', file: OBSERVABLE, line: 64, text: 'parent.__dataChanged = true' },
			{
				n8n: '1.123.81',
				file: WORKFLOW,
				line: 202,
				text: 'ObservableObject.create({}, this.staticData)',
			},
		],
	},
	{
		id: 'answer-on-response',
		behaviour:
			'n8n writes its answer on the response object (status, then res.json/res.send, which end it), after the static data save; in 2.41.1 a failure to create the execution answers 500 there (1.123.81 has answered before it creates one). No node callback runs after run(): the write on the response is the only outcome a node sees.',
		reliedOnBy: 'onAnswerWritten (answer.ts): the claim settles on the status n8n ends with',
		readAt: [
			{ n8n: '2.41.1', file: HANDLER, line: 117, text: 'res.json(body)' },
			{ n8n: '2.41.1', file: HANDLER, line: 85, text: 'sendErrorResponse(res, error)' },
			{ n8n: '1.123.81', file: HANDLER, line: 119, text: 'res.json(body)' },
			{ n8n: '1.123.81', file: HANDLER, line: 87, text: 'sendErrorResponse(res, error)' },
		],
	},
	{
		id: 'body-read-by-version',
		behaviour:
			'Before a webhook node runs, n8n reads and parses the body. For a node of version 1 it first evaluates `$parameter["options"]["binaryData"]` on every delivery (an expression isolate of its own when the engine acquires them lazily); for a later version it skips that and reads the body only for the content types it parses (JSON, text, form, XML), leaving any other unread.',
		reliedOnBy:
			'receivedBody (node file, version 1.1): the trigger reads a body n8n left unread itself, so every content type is verified',
		readAt: [
			{ n8n: '2.41.1', file: HELPERS, line: 881, text: 'if (nodeVersion === 1) {' },
			{ n8n: '2.41.1', file: HELPERS, line: 893, text: '!isParsableContentType(contentType)' },
			{ n8n: '1.123.81', file: HELPERS, line: 521, text: 'if (nodeVersion === 1) {' },
			{ n8n: '1.123.81', file: HELPERS, line: 532, text: 'if (nodeVersion > 1) {' },
		],
	},
	{
		id: 'credential-check-failure-answered',
		behaviour:
			'Before it runs a workflow that uses credentials, n8n checks them with a database read (skipped for a workflow without credentials, such as a lone Webhook node). If that read throws (no database connection in time), n8n records an execution that failed before it started, without the payload, and returns from run() as if the run had started: the delivery is answered 2xx.',
		reliedOnBy:
			'nothing can: on such a failure a 2xx does not mean a run (docs/operations.md); e2e:queue suite 67 counts these events as failed by n8n, beside the Webhook node with a credential node',
		readAt: [
			{ n8n: '2.41.1', file: RUNNER, line: 271, text: 'credentialsPermissionChecker.check(' },
			{
				n8n: '2.41.1',
				file: RUNNER,
				line: 275,
				text: 'await this.failExecution(data, executionId',
			},
			{ n8n: '2.41.1', file: RUNNER, line: 276, text: 'return executionId;' },
			{
				n8n: '2.41.1',
				file: CREDENTIAL_CHECK,
				line: 86,
				text: 'if (workflowCredIds.length === 0)',
			},
			{ n8n: '1.123.81', file: RUNNER, line: 123, text: 'credentialsPermissionChecker.check(' },
			{ n8n: '1.123.81', file: RUNNER, line: 132, text: 'return executionId;' },
		],
	},
];

/**
 * The webhook description of a delivery that starts a run (answer-after-execution,
 * body-read-by-name): n8n answers it, with the node's webhookResponse as the body.
 */
export const STARTED_RUN_WEBHOOK = { responseMode: 'onReceived', responseData: '' } as const;

/** The node answers itself and n8n starts nothing (own-answer). */
export function ownAnswer(res: Response, status: number, body: IDataObject): IWebhookResponseData {
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * The result of a delivery that starts a run, whose body read calls `onRead` (body-read-by-name).
 * The property is not enumerable: a spread, JSON.stringify, structuredClone, n8n-workflow's
 * deepCopy, Object.assign or Object.keys of the result neither copies nor reads it: `onRead`
 * makes later writes carry the id as being answered, which other processes count as taken, so
 * it must run only on n8n's read by name, once the execution exists (in 2.x).
 */
export function answerBodyOnRead(
	workflowData: IWebhookResponseData['workflowData'],
	body: IDataObject,
	onRead: () => void,
): IWebhookResponseData {
	const result: IWebhookResponseData = { workflowData };
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: false,
		get: () => {
			onRead();
			return body;
		},
	});
	return result;
}

/**
 * Calls `onAnswer` once, with the status n8n ends the response with (answer-on-response), or
 * `onClosed` when the client has gone first.
 */
export function onAnswerWritten(
	res: Response,
	onAnswer: (status: number) => void,
	onClosed: () => void,
): void {
	const end = res.end;
	res.end = function (this: Response, ...args: unknown[]) {
		onAnswer(res.statusCode);
		return (end as (...a: unknown[]) => Response).apply(this, args);
	} as Response['end'];
	res.once('close', onClosed);
}

/**
 * Makes sure a delivery's bytes are in `req.rawBody` (body-read-by-version); false when they
 * could not be read.
 */
export async function receivedBody(
	req: ReturnType<IWebhookFunctions['getRequestObject']>,
): Promise<boolean> {
	if (Buffer.isBuffer(req.rawBody) || !req.readable || typeof req.readRawBody !== 'function')
		return true;
	try {
		await req.readRawBody();
		return true;
	} catch {
		return false;
	}
}

/**
 * Writes `value` under `key` of a node's static data so that n8n saves it (changed-flag-reset:
 * a write through the node's object marks the root changed, even after run() cleared it).
 */
export function markChanged(store: IDataObject, key: string, value: IDataObject): void {
	store[key] = value;
}
