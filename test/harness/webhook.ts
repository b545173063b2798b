/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Serves a trigger node's webhook over real HTTP, the way n8n's production webhooks do,
 * with n8n's own code doing the work: n8n-core's `WebhookContext` runs the node's
 * `webhook()`, and n8n-core's `WorkflowExecute` runs the execution it starts.
 *
 * What n8n's server does around that is rebuilt here in a few lines each:
 * - the body is read into `req.rawBody` (the exact bytes) and parsed by content type as
 *   n8n's body parser does (JSON, text, form); JSON that does not parse answers 422;
 * - the node's result is answered as n8n answers it: `noWebhookResponse` leaves the
 *   answer to the node, no `workflowData` means "acknowledge, start nothing" (200 with
 *   `webhookResponse` or `{ message: 'Webhook call received' }`), `workflowData` starts an
 *   execution and, in `onReceived` mode, answers once the execution exists, with the body
 *   n8n 2.41 picks (the description's `responseData`, else `webhookResponse`);
 * - the workflow's static data is stored in n8n's order, if it changed: before the answer,
 *   and for a run only after the run has wrapped the static data anew (which clears n8n's
 *   changed flag, as in n8n); each request sees the stored copy (n8n reloads the workflow
 *   per request). `insertExecution` stands for the execution insert, to fail it.
 *
 *   const runner = await startWebhookRunner({ parameters: { events: ['document.sent'] },
 *                                              credentials: { webhookSecret } });
 *   await axios.post(runner.url, body);  runner.deliveries;  await runner.waitForExecutions(1);
 */
import 'reflect-metadata';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { parse as parseQueryString } from 'querystring';
import express, { type Request, type Response } from 'express';
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IWebhookData,
	IWebhookResponseData,
} from 'n8n-workflow';
import { deepCopy, jsonParse, Workflow } from 'n8n-workflow';
import { type ExecutionLifecycleHooks, WebhookContext } from 'n8n-core';

import { DocumentSigningTrigger } from '../../nodes/DocumentSigningTrigger/DocumentSigningTrigger.node';
import { harnessAdditionalData } from './additional-data';
import type { HarnessCredentials } from './credentials';
import {
	nodeTypesWith,
	runFromTrigger,
	storedWorkflow,
	triggerNodeOf,
	workflowOf,
} from './trigger-workflow';

export const TRIGGER_NODE_NAME = 'Document Signing Trigger';
const TRIGGER_TYPE = 'documentSigningTrigger';
const WEBHOOK_ID = 'd0c5-7r16-63r0';

export interface WebhookRunnerOptions {
	/** Parameters of the trigger node. */
	parameters?: INodeParameters;
	/** Credential data (`documentSigningApi`); `webhookSecret` '' means no secret. */
	credentials?: Partial<HarnessCredentials>;
	/** Nodes after the trigger, and their connections (the trigger is `TRIGGER_NODE_NAME`). */
	nodes?: INode[];
	connections?: IConnections;
	/** Static data the workflow starts with (as if stored by an earlier run). */
	staticData?: IDataObject;
	/**
	 * Stands for n8n inserting the execution row: throwing makes the delivery fail as n8n's
	 * does when its database refuses the insert (500, no execution, no static data saved).
	 */
	insertExecution?: () => Promise<void>;
	/** `manual`: a test delivery while the editor listens (n8n's Test URL); default `webhook`. */
	mode?: 'webhook' | 'manual';
	/** The trigger node's version (default: the newest). */
	typeVersion?: number;
}

/** One HTTP request to the webhook and what came of it. */
export interface DeliveryRecord {
	status: number;
	responseBody: unknown;
	/** Id of the execution it started, if any. */
	executionId?: string;
	/** The node threw (n8n answers 500 and records a failed execution). */
	error?: Error;
}

export interface ExecutionRecord {
	id: string;
	/** Items the trigger emitted. */
	items: INodeExecutionData[];
	run: IRun;
}

const TRIGGER: INodeType = new DocumentSigningTrigger();
const nodeTypes = nodeTypesWith(TRIGGER_TYPE, TRIGGER);

const TRIGGER_VERSIONS = [TRIGGER.description.version].flat();

/** The content types n8n 2.41 parses before a webhook node of version 2 or more runs. */
const parsedByN8n = (type: string) =>
	type.startsWith('application/json') ||
	type.startsWith('text/plain') ||
	type.startsWith('application/x-www-form-urlencoded') ||
	type.endsWith('/xml') ||
	type.endsWith('+xml');

/**
 * Reads the body into `req.rawBody` and parses it by content type, as n8n's body parser does.
 * For a node above version 1 n8n 2.41 reads only the types it parses; any other body stays
 * unread until the node calls `req.readRawBody()` (webhook-helpers.js parseRequestBody).
 */
async function readBody(
	req: Request,
	typeVersion: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
	const read = async () => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		req.rawBody = Buffer.concat(chunks);
	};
	const [type, ...params] = (req.headers['content-type'] ?? '').split(';').map((s) => s.trim());
	req.readRawBody = async () => {
		if (!req.rawBody) await read();
	};
	if (typeVersion > 1 && !parsedByN8n(type)) return { ok: true };
	await read();
	const rawBody = req.rawBody;

	const charset = params
		.find((p) => p.toLowerCase().startsWith('charset='))
		?.slice(8)
		.toLowerCase();
	const encoding = (charset === 'utf8' || !charset ? 'utf-8' : charset) as BufferEncoding;
	if (rawBody.length === 0) return { ok: true };
	try {
		// n8n's parser drops a leading byte order mark first.
		if (type === 'application/json')
			req.body = jsonParse(rawBody.toString(encoding).replace(/^\uFEFF/, ''));
		else if (type === 'text/plain') req.body = rawBody.toString(encoding);
		else if (type === 'application/x-www-form-urlencoded')
			req.body = parseQueryString(rawBody.toString(encoding));
	} catch (error) {
		return { ok: false, message: (error as Error).message };
	}
	return { ok: true };
}

/** The body n8n 2.41 answers "onReceived" with (its extractWebhookOnReceivedResponse). */
function onReceivedBody(responseData: string | undefined, result: IWebhookResponseData): unknown {
	const evaluated = responseData === undefined ? 'firstEntryJson' : responseData;
	if (evaluated === 'noData') return undefined;
	if (evaluated) return evaluated;
	if (result.webhookResponse !== undefined) return result.webhookResponse;
	return { message: 'Workflow was started' };
}

let runnerCount = 0;

export async function startWebhookRunner(options: WebhookRunnerOptions = {}) {
	const credentials: HarnessCredentials = {
		baseUrl: 'http://127.0.0.1:9/api/v1',
		apiKey: 'service_unused',
		webhookSecret: '',
		...options.credentials,
	};
	const triggerNode = triggerNodeOf({
		id: 'trigger',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_TYPE,
		webhookId: WEBHOOK_ID,
		parameters: options.parameters ?? {},
		typeVersion: options.typeVersion ?? Math.max(...TRIGGER_VERSIONS),
	});
	// What n8n keeps in its database; each request builds its workflow from it. Each runner
	// is its own workflow, as each n8n workflow has its own id (the trigger keeps per-workflow
	// memory in the process).
	const stored = storedWorkflow({
		id: `webhook-harness-${++runnerCount}`,
		name: 'Webhook harness workflow',
		nodes: [triggerNode, ...(options.nodes ?? [])],
		connections: options.connections,
		staticData: options.staticData,
	});

	const deliveries: DeliveryRecord[] = [];
	const executions: ExecutionRecord[] = [];
	const running: Array<Promise<void>> = [];
	const executionWaiters: Array<() => void> = [];
	let executionCount = 0;
	let credentialReads = 0;
	let origin = '';

	function additionalDataFor(executionId: string | undefined, hooks?: ExecutionLifecycleHooks) {
		const onCredentialRead = () => void credentialReads++;
		return harnessAdditionalData({ credentials, origin, executionId, hooks, onCredentialRead });
	}

	function newWorkflow(): Workflow {
		return workflowOf(stored, nodeTypes, deepCopy(stored.staticData ?? {}));
	}

	/** Runs the execution the trigger started, as n8n does for a webhook start node. */
	async function execute(workflow: Workflow, main: INodeExecutionData[][]): Promise<string> {
		const executionId = String(++executionCount);
		const done = (async () => {
			const { items, run } = await runFromTrigger({
				stored,
				workflow,
				mode: 'webhook',
				executionId,
				triggerName: TRIGGER_NODE_NAME,
				main,
				additionalData: (hooks) => additionalDataFor(executionId, hooks),
			});
			executions.push({ id: executionId, items, run });
			executionWaiters.splice(0).forEach((wake) => wake());
		})();
		running.push(done);
		return executionId;
	}

	async function handle(req: Request, res: Response): Promise<void> {
		const record: DeliveryRecord = { status: 0, responseBody: undefined };
		deliveries.push(record);
		const answer = (status: number, body: unknown) => {
			record.status = status;
			record.responseBody = body;
			res.status(status).json(body);
		};

		const parsed = await readBody(req, triggerNode.typeVersion);
		if (!parsed.ok) {
			// n8n's body parser refuses it before any node runs.
			answer(422, { code: 422, message: 'Failed to parse request body', hint: parsed.message });
			return;
		}

		const workflow = newWorkflow();
		const node = workflow.getNode(TRIGGER_NODE_NAME)!;
		const additionalData = additionalDataFor(undefined);
		additionalData.httpRequest = req;
		additionalData.httpResponse = res;
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: `${WEBHOOK_ID}/webhook`,
			webhookDescription: TRIGGER.description.webhooks![0],
			workflowId: stored.id!,
			workflowExecuteAdditionalData: additionalData,
			webhookId: WEBHOOK_ID,
		};

		// Record what the node itself answers (401, 400).
		const json = res.json.bind(res);
		res.json = (body: unknown) => {
			record.status = res.statusCode;
			record.responseBody = body;
			return json(body);
		};

		let result: IWebhookResponseData;
		try {
			const context = new WebhookContext(
				workflow,
				node,
				additionalData,
				options.mode ?? 'webhook',
				webhookData,
				[],
				null,
			);
			result = (await TRIGGER.webhook!.call(context)) as IWebhookResponseData;
		} catch (error) {
			record.error = error as Error;
			if (!res.headersSent)
				answer(500, { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			return;
		}

		// n8n 2.41 (live webhooks) saves changed static data in its response callback, before it
		// writes the answer, and only when it answers without an error.
		const saveStaticData = () => {
			if ((workflow.staticData as IDataObject).__dataChanged === true) {
				stored.staticData = deepCopy(workflow.staticData);
				(workflow.staticData as IDataObject).__dataChanged = false;
			}
		};
		if (result.noWebhookResponse === true) {
			saveStaticData();
			return;
		}
		if (result.workflowData === undefined) {
			saveStaticData();
			if (!res.headersSent)
				answer(
					200,
					result.webhookResponse !== undefined
						? result.webhookResponse
						: { message: 'Webhook call received' },
				);
			return;
		}

		// A run, answered "onReceived" as n8n 2.41 does: WorkflowRunner.run wraps the same static
		// data in a new Workflow (clearing its changed flag), inserts the execution, wraps it again
		// for the run; only then n8n reads the answer body, saves static data and answers. If the
		// execution cannot be created, n8n answers 500 and saves nothing.
		workflowOf(stored, nodeTypes, workflow.staticData);
		try {
			await new Promise<void>((resolve) => setImmediate(resolve));
			await options.insertExecution?.();
		} catch (error) {
			record.error = error as Error;
			answer(500, { code: 0, message: 'There was a problem executing the workflow' });
			return;
		}
		const runWorkflow = workflowOf(stored, nodeTypes, workflow.staticData);
		record.executionId = await execute(runWorkflow, result.workflowData);
		const body = onReceivedBody(TRIGGER.description.webhooks![0].responseData, result);
		saveStaticData();
		if (res.headersSent) return;
		record.status = 200;
		record.responseBody = body;
		if (typeof body === 'string') res.status(200).send(body);
		else res.status(200).json(body);
	}

	const app = express();
	app.post(`/webhook/${WEBHOOK_ID}/webhook`, (req, res) => {
		handle(req, res).catch((error: Error) => {
			if (!res.headersSent) res.status(500).json({ message: error.message });
		});
	});
	const server: Server = await new Promise((resolve) => {
		const s = app.listen(0, '127.0.0.1', () => resolve(s));
	});
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	return {
		url: `${origin}/webhook/${WEBHOOK_ID}/webhook`,
		deliveries,
		executions,
		/** The credential's data, read at each getCredentials: change it to change the secret. */
		credentials,
		/** How often n8n's getCredentials read the credential for this workflow. */
		credentialReads: () => credentialReads,
		/** The static data as n8n would have stored it. */
		storedStaticData: () => deepCopy(stored.staticData ?? {}) as IDataObject,
		/** Resolves when at least `count` executions have finished. */
		async waitForExecutions(count: number, timeoutMs = 10_000): Promise<ExecutionRecord[]> {
			const deadline = Date.now() + timeoutMs;
			while (executions.length < count) {
				const left = deadline - Date.now();
				if (left <= 0) throw new Error(`expected ${count} executions, saw ${executions.length}`);
				// real time: a deadline only; each finished execution wakes it at once
				await new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, left);
					executionWaiters.push(() => {
						clearTimeout(timer);
						resolve();
					});
				});
			}
			return executions;
		},
		/** Waits for running executions to finish. */
		async settle(): Promise<void> {
			await Promise.all(running);
		},
		async close(): Promise<void> {
			await Promise.all(running);
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export type WebhookRunner = Awaited<ReturnType<typeof startWebhookRunner>>;

/**
 * For a test file: a function that starts a webhook runner, each closed after its test
 * (registers jest's afterEach).
 */
export function useWebhookRunners(): (options: WebhookRunnerOptions) => Promise<WebhookRunner> {
	const runners: WebhookRunner[] = [];
	afterEach(async () => {
		await Promise.all(runners.splice(0).map(async (r) => await r.close()));
	});
	return async (options) => {
		const r = await startWebhookRunner(options);
		runners.push(r);
		return r;
	};
}
