/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, no-console -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** What every end-to-end suite uses: the check runner, n8n's execution records, fixtures. */
import axios, { type AxiosInstance } from 'axios';
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { requestedLine } from '../../scripts/lib/n8n-lines';
import {
	type CredentialFixture,
	type SandboxInfo,
	type Stack,
	waitFor,
	type WorkflowFixture,
} from '../../scripts/lib/stack';
import { admin } from '../sandbox-admin';

export const PACKAGE = 'n8n-nodes-document-signing';
export const CREDENTIAL_ID = 'DsSandboxCred001';
export const PLAIN_CREDENTIAL_ID = 'DsNoSecretCred01';
/**
 * n8n adds "Allowed HTTP Request Domains" to credentials usable in its HTTP Request node; n8n
 * 1.x's public API then asks for `allowedDomains` unless the choice is given.
 */
export const DOMAINS_FIELD = { allowedHttpRequestDomains: 'all' };
export const WORKFLOWS_DIR = path.join(__dirname, 'workflows');
export const EXAMPLES_DIR = path.join(__dirname, '..', '..', 'examples');

const started = Date.now();
export const log = (line: string) =>
	console.log(`[e2e ${String(Math.round((Date.now() - started) / 1000)).padStart(3)}s] ${line}`);
export const elapsedSeconds = () => Math.round((Date.now() - started) / 1000);

/** What a suite gets: the running stack, clients for the sandbox and the API, the fixtures. */
export interface E2eContext {
	stack: Stack;
	/** The sandbox's control interface (`/__sandbox`). */
	sandbox: AxiosInstance;
	/** The service API with the sandbox key. */
	service: AxiosInstance;
	workflows: Record<string, WorkflowFixture>;
	examples: Record<string, WorkflowFixture>;
}

export function clients(stack: Stack): Pick<E2eContext, 'sandbox' | 'service'> {
	return {
		sandbox: admin(stack.sandbox, 30_000),
		service: axios.create({
			baseURL: stack.sandbox.baseUrl,
			headers: { Authorization: `Bearer ${stack.sandbox.apiKey}` },
			validateStatus: () => true,
			timeout: 30_000,
		}),
	};
}

// ---------- checks -----------------------------------------------------------------

/** `skipped` holds the reason of a check that did not count (a known difference of n8n 1.x). */
export const results: Array<{ name: string; ok: boolean; skipped?: string }> = [];

/**
 * Checks whose outcome on n8n 1.x depends on n8n rather than the package. They still run
 * there: a pass counts; a failure is printed with the reason and counted as skipped.
 */
const KNOWN_ON_N8N_1: Array<{ check: RegExp; reason: string }> = [
	{
		check: /^the workflow's PDF address/,
		reason:
			'n8n 1.123.81\'s Webhook node (Respond With: First Entry Binary) answers with the file\'s Buffer serialized as JSON ({"type":"Buffer","data":[37,80,68,70,...]}) under Content-Type application/pdf, so that address serves no PDF; on 1.x the MCP tool checks download the same PDF from a plain file server instead',
	},
];
export const onN8n1 = requestedLine().startsWith('1');

export async function check(name: string, body: () => Promise<void>): Promise<void> {
	log(`CHECK ${name}`);
	try {
		await body();
		results.push({ name, ok: true });
		log(`PASS  ${name}`);
	} catch (error) {
		const message = String((error as Error).message)
			.split('\n')
			.join('\n        ');
		const known = onN8n1 ? KNOWN_ON_N8N_1.find((k) => k.check.test(name)) : undefined;
		if (known) {
			results.push({ name, ok: false, skipped: `n8n 1.x: ${known.reason}` });
			log(
				`SKIP  ${name}\n        not counted on n8n 1.x: ${known.reason}\n        what it showed: ${message}`,
			);
			return;
		}
		results.push({ name, ok: false });
		log(`FAIL  ${name}\n        ${message}`);
	}
}

/**
 * Runs the suites of a folder in name order (only the file names containing E2E_ONLY, or one
 * of its comma-separated texts: `E2E_ONLY=21-,22-,23-`); each
 * module's default export gets `context`. A suite that throws counts as one failure. Suites
 * named in `notHere` (file name without .ts -> why) are left out unless E2E_ONLY asks for them.
 */
export async function runSuites<C>(
	dir: string,
	context: C,
	notHere: Record<string, string> = {},
): Promise<void> {
	const only = (process.env.E2E_ONLY ?? '')
		.split(',')
		.map((text) => text.trim())
		.filter((text) => text !== '');
	for (const file of readdirSync(dir)
		.filter((f) => f.endsWith('.ts') && (only.length === 0 || only.some((t) => f.includes(t))))
		.sort()) {
		const reason = notHere[file.replace(/\.ts$/, '')];
		if (reason && only.length === 0) {
			log(`SUITE ${file} not run here: ${reason}`);
			continue;
		}
		log(`SUITE ${file}`);
		try {
			const suite = (
				(await import(path.join(dir, file))) as { default: (context: C) => Promise<void> }
			).default;
			await suite(context);
		} catch (error) {
			results.push({ name: `${file} ran to its end`, ok: false });
			log(`FAIL  ${file} stopped: ${(error as Error).message}`);
		}
	}
}

/** Runs a runner's main; a crash prints the error and a summary line that counts it as a failure. */
export function runMain(main: () => Promise<void>): void {
	main().catch((error) => {
		console.error(error);
		console.log(
			`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`,
		);
		process.exit(1);
	});
}

/** Lists every result, then prints `N passed, N failed` as the last line; returns the exit code. */
export function summarize(): number {
	const passed = results.filter((r) => r.ok).length;
	const skipped = results.filter((r) => r.skipped).length;
	const failed = results.length - passed - skipped;
	for (const r of results)
		log(
			`${r.ok ? 'passed' : r.skipped ? 'SKIPPED' : 'FAILED'}: ${r.name}${r.skipped ? ` (${r.skipped})` : ''}`,
		);
	log(`done in ${elapsedSeconds()} s`);
	console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
	return failed === 0 ? 0 : 1;
}

export function expect(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function expectEqual(actual: unknown, expected: unknown, what: string): void {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

// ---------- fixtures ---------------------------------------------------------------

/** The credentials the e2e workflows use: with the sandbox's webhook secret, and without. */
export const credentials = (sandbox: SandboxInfo): CredentialFixture[] => [
	{
		id: CREDENTIAL_ID,
		name: 'Document Signing sandbox',
		type: 'documentSigningApi',
		data: {
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			webhookSecret: sandbox.webhookSecret,
		},
	},
	{
		id: PLAIN_CREDENTIAL_ID,
		name: 'Document Signing sandbox without webhook secret',
		type: 'documentSigningApi',
		data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, webhookSecret: '' },
	},
];

export function loadWorkflows(dir: string): Record<string, WorkflowFixture> {
	const byId: Record<string, WorkflowFixture> = {};
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
		const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as WorkflowFixture;
		byId[workflow.id] = workflow;
	}
	return byId;
}

/** The webhookId of the single trigger node of a workflow. */
export function triggerWebhookId(workflow: WorkflowFixture): string {
	const trigger = workflow.nodes.find((n) => String(n.type).endsWith('.documentSigningTrigger'));
	if (!trigger) throw new Error(`workflow ${workflow.id} has no Document Signing Trigger`);
	return trigger.webhookId as string;
}

export async function makePdf(title: string): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	for (let p = 1; p <= 2; p++) {
		const page = doc.addPage([595, 842]);
		page.drawText(`${title} - page ${p}`, { x: 50, y: 780, size: 18, font });
		page.drawText('Signature of tenant', { x: 50, y: 200, size: 12, font });
	}
	return Buffer.from(await doc.save());
}

// ---------- n8n records ------------------------------------------------------------

export interface ExecutionItem {
	json: Record<string, any>;
	binary?: Record<string, { mimeType?: string; fileName?: string; fileSize?: string; id?: string }>;
}
export interface Execution {
	id: string;
	status: string;
	startedAt: string;
	workflowId: string;
	data?: {
		resultData: {
			runData: Record<string, Array<{ data?: { main: ExecutionItem[][] } }>>;
			error?: { message: string };
		};
	};
}

export async function executions(stack: Stack, workflowId: string): Promise<Execution[]> {
	const response = await stack.api.get('/executions', {
		params: { workflowId, includeData: true, limit: 100 },
	});
	if (response.status !== 200)
		throw new Error(
			`GET /api/v1/executions answered ${response.status}: ${JSON.stringify(response.data).slice(0, 300)}`,
		);
	// Oldest first.
	return (response.data.data as Execution[]).sort((a, b) => Number(a.id) - Number(b.id));
}

/** The first output item of a node in an execution. */
export function output(execution: Execution, node: string): ExecutionItem {
	const runs = execution.data?.resultData.runData[node];
	const item = runs?.[0]?.data?.main?.[0]?.[0];
	if (!item) {
		const error = execution.data?.resultData.error?.message;
		throw new Error(
			`execution ${execution.id} has no output of "${node}"${error ? ` (workflow error: ${error})` : ''}`,
		);
	}
	return item;
}

/** Stops n8n's process and starts it again on the same data (Stack.restartN8n). */
export async function restartN8n(
	stack: Stack,
	options: { env?: Record<string, string>; whileStopped?: () => Promise<void> } = {},
): Promise<void> {
	await stack.restartN8n(options);
}

/**
 * Runs a saved workflow from one of its triggers, as the editor's Execute button does, and
 * waits until n8n has finished it; returns its id and the execution with its data.
 */
export async function runManually(
	stack: Stack,
	workflowId: string,
	trigger: string,
	timeoutMs = 60_000,
): Promise<{ id: string; execution: Execution }> {
	const run = await stack.rest.post(`/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: trigger },
	});
	expectEqual(run.status, 200, `manual run answered (${JSON.stringify(run.data).slice(0, 300)})`);
	const id = String(run.data.data.executionId);
	const execution = await waitFor(
		'the manual run to finish',
		async () => {
			const response = await stack.api.get(`/executions/${id}`, { params: { includeData: true } });
			return response.status === 200 &&
				!['running', 'new', 'waiting'].includes(response.data.status)
				? (response.data as Execution)
				: undefined;
		},
		timeoutMs,
		500,
	);
	return { id, execution };
}

/**
 * The Status Trigger's polls as the sandbox saw them: first-page reads of the envelope list
 * with `status` (undefined: the list without a status filter, as Recipient Acted reads it).
 * `next(after)` waits for the poll after the `after`th and returns the count then.
 */
export function statusPolls(sandbox: AxiosInstance, status: string | undefined) {
	const count = async (): Promise<number> => {
		const items = (await sandbox.get('/requests')).data.items as Array<{
			method: string;
			path: string;
			query: Record<string, string>;
		}>;
		return items.filter(
			(r) =>
				r.method === 'GET' &&
				r.path.endsWith('/envelopes') &&
				r.query.status === status &&
				r.query.page === '1',
		).length;
	};
	const next = async (after: number): Promise<number> =>
		await waitFor(
			'the next poll of the status trigger',
			async () => ((await count()) > after ? await count() : undefined),
			75_000,
			300,
		);
	return { count, next };
}
