/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, no-console -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * End-to-end checks of the packed package inside a real n8n (npm run e2e).
 *
 * Starts the shared local stack (scripts/lib/stack.ts): the pinned n8n with this package
 * installed and registered as a community package, the sandbox, a credential pointing at
 * it, the workflows of test/e2e/workflows and examples/ (active ones activated). Then checks, through n8n's own
 * records (public API executions with their data):
 *   - n8n's credential test answers the credential's own sentences for a wrong key, a
 *     disabled key and a base URL without /api/v1;
 *   - a real e-stamped send in the sandbox delivers signed events to n8n's production
 *     webhook, which start one execution per event, in order, with the envelope's id;
 *   - forged and unsigned deliveries get 401 and start nothing;
 *   - a workflow that selects other events starts nothing (200 to the sender);
 *   - action workflows: a PDF read from disk is uploaded into a new envelope and sent, the
 *     recipients sign through their links, the status reads completed and the signed PDF
 *     is downloaded and written to disk.
 * Prints `N passed, N failed` last and exits non-zero on any failure.
 */
import axios from 'axios';
import { createHmac } from 'crypto';
import { existsSync, promises as fs, readdirSync, readFileSync } from 'fs';
import path from 'path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { type CredentialFixture, type SandboxInfo, Stack, stopOnExit, waitFor, type WorkflowFixture } from '../../scripts/lib/stack';

const PACKAGE = 'n8n-nodes-document-signing';
const CREDENTIAL_ID = 'DsSandboxCred001';
const WORKFLOWS_DIR = path.join(__dirname, 'workflows');
const EXAMPLES_DIR = path.join(__dirname, '..', '..', 'examples');
const EXAMPLE_SEND = 'DsExampleSend001';
const EXAMPLE_EVENTS = 'DsExampleEvents1';
const ESTAMP_EVENTS = ['document.estamp.started', 'document.estamp.completed', 'document.sent'];

const started = Date.now();
const log = (line: string) => console.log(`[e2e ${String(Math.round((Date.now() - started) / 1000)).padStart(3)}s] ${line}`);

// ---------- checks -----------------------------------------------------------------

const results: Array<{ name: string; ok: boolean }> = [];

async function check(name: string, body: () => Promise<void>): Promise<void> {
	log(`CHECK ${name}`);
	try {
		await body();
		results.push({ name, ok: true });
		log(`PASS  ${name}`);
	} catch (error) {
		results.push({ name, ok: false });
		log(`FAIL  ${name}\n        ${String((error as Error).message).split('\n').join('\n        ')}`);
	}
}

function expect(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
	const a = JSON.stringify(actual);
	const e = JSON.stringify(expected);
	if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

// ---------- fixtures ---------------------------------------------------------------

function loadWorkflows(dir: string): Record<string, WorkflowFixture> {
	const byId: Record<string, WorkflowFixture> = {};
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
		const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as WorkflowFixture;
		byId[workflow.id] = workflow;
	}
	return byId;
}

const credentials = (sandbox: SandboxInfo): CredentialFixture[] => [
	{
		id: CREDENTIAL_ID,
		name: 'Document Signing sandbox',
		type: 'documentSigningApi',
		data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, webhookSecret: sandbox.webhookSecret },
	},
];

/** The webhookId of the single trigger node of a workflow. */
function triggerWebhookId(workflow: WorkflowFixture): string {
	const trigger = workflow.nodes.find((n) => String(n.type).endsWith('.documentSigningTrigger'));
	if (!trigger) throw new Error(`workflow ${workflow.id} has no Document Signing Trigger`);
	return trigger.webhookId as string;
}

async function makePdf(title: string): Promise<Buffer> {
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

interface ExecutionItem {
	json: Record<string, any>;
	binary?: Record<string, { mimeType?: string; fileName?: string; fileSize?: string; id?: string }>;
}
interface Execution {
	id: string;
	status: string;
	startedAt: string;
	workflowId: string;
	data?: { resultData: { runData: Record<string, Array<{ data?: { main: ExecutionItem[][] } }>>; error?: { message: string } } };
}

async function executions(stack: Stack, workflowId: string): Promise<Execution[]> {
	const response = await stack.api.get('/executions', { params: { workflowId, includeData: true, limit: 100 } });
	if (response.status !== 200) throw new Error(`GET /api/v1/executions answered ${response.status}: ${JSON.stringify(response.data).slice(0, 300)}`);
	// Oldest first.
	return (response.data.data as Execution[]).sort((a, b) => Number(a.id) - Number(b.id));
}

/** The first output item of a node in an execution. */
function output(execution: Execution, node: string): ExecutionItem {
	const runs = execution.data?.resultData.runData[node];
	const item = runs?.[0]?.data?.main?.[0]?.[0];
	if (!item) {
		const error = execution.data?.resultData.error?.message;
		throw new Error(`execution ${execution.id} has no output of "${node}"${error ? ` (workflow error: ${error})` : ''}`);
	}
	return item;
}

// ---------- main -------------------------------------------------------------------

async function main(): Promise<void> {
	const workflows = loadWorkflows(WORKFLOWS_DIR);
	const examples = loadWorkflows(EXAMPLES_DIR);
	const all = workflows.DsE2eTriggerAll1;
	const filtered = workflows.DsE2eTriggerFlt1;
	expect(all && filtered && workflows.DsE2eSendPdf0001 && workflows.DsE2eFinish00001, 'a workflow fixture is missing');
	expect(examples[EXAMPLE_SEND] && examples[EXAMPLE_EVENTS], 'an example workflow is missing');

	const stack = new Stack({
		name: 'e2e',
		fresh: true,
		log,
		// Lets the runner read a running example's progress (the signing links) from n8n.
		n8nEnv: { EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'true' },
	});
	const stopAndExit = stopOnExit(stack, log);
	try {
		await stack.start({
			credentials,
			workflows: [...Object.values(workflows), ...Object.values(examples)],
			substitutions: { __FILES_DIR__: stack.filesDir },
		});
		// The example trigger hears every event, as `npm start` sets it up.
		for (const url of stack.triggerUrls(examples[EXAMPLE_EVENTS])) await stack.subscribe(url);
	} catch (error) {
		log(`FAIL  the stack did not start: ${(error as Error).message}`);
		results.push({ name: 'stack starts', ok: false });
		return await finish(stack, stopAndExit);
	}
	results.push({ name: 'stack starts', ok: true });
	const sandbox = axios.create({ baseURL: `${stack.sandbox.origin}/__sandbox`, validateStatus: () => true, timeout: 30_000 });
	const service = axios.create({
		baseURL: stack.sandbox.baseUrl,
		headers: { Authorization: `Bearer ${stack.sandbox.apiKey}` },
		validateStatus: () => true,
		timeout: 30_000,
	});
	const allUrl = stack.webhookUrl(triggerWebhookId(all), 'webhook');
	const filteredUrl = stack.webhookUrl(triggerWebhookId(filtered), 'webhook');

	await check('n8n lists the package under installed community packages, with both nodes loaded', async () => {
		const response = await stack.rest.get('/community-packages');
		expectEqual(response.status, 200, 'GET /rest/community-packages status');
		const installed = (response.data.data as Array<Record<string, any>>).find((p) => p.packageName === PACKAGE);
		expect(installed, `${PACKAGE} is not among ${JSON.stringify(response.data.data.map((p: any) => p.packageName))}`);
		expectEqual(installed.failedLoading, false, 'failedLoading');
		const types = (installed.installedNodes as Array<{ type: string }>).map((n) => n.type).sort();
		expectEqual(types, [`${PACKAGE}.documentSigning`, `${PACKAGE}.documentSigningTrigger`], 'installed node types');
		const nodeTypes = await stack.rest.post('/node-types', { nodeInfos: types.map((name) => ({ name, version: 1 })) });
		expectEqual(nodeTypes.status, 200, 'POST /rest/node-types status');
		// n8n answers with the names inside the package.
		expectEqual((nodeTypes.data.data as Array<{ name: string }>).map((n) => n.name).sort(), ['documentSigning', 'documentSigningTrigger'], 'node types n8n serves to the editor');
	});

	await check("n8n's credential test: OK for the sandbox key; 401, 403 and 404 answered with the credential's own sentences", async () => {
		const test = async (data: Record<string, string>) => {
			const response = await stack.rest.post('/credentials/test', {
				credentials: { id: CREDENTIAL_ID, name: 'Document Signing sandbox', type: 'documentSigningApi', data: { webhookSecret: stack.sandbox.webhookSecret, ...data } },
			});
			expectEqual(response.status, 200, `POST /rest/credentials/test status (${JSON.stringify(response.data).slice(0, 300)})`);
			return response.data.data as { status: string; message: string };
		};
		const { baseUrl, apiKey, disabledApiKey } = stack.sandbox;
		expectEqual((await test({ baseUrl, apiKey })).status, 'OK', 'test of the sandbox credential');
		expectEqual(await test({ baseUrl, apiKey: `${apiKey}x` }), { status: 'Error', message: 'The API key was not accepted: check it in the dashboard (Settings, API Keys)' }, 'wrong key');
		expectEqual(await test({ baseUrl, apiKey: disabledApiKey }), { status: 'Error', message: 'The API key is disabled, or it lacks the documents:read permission' }, 'disabled key');
		expectEqual(await test({ baseUrl: stack.sandbox.origin, apiKey }), { status: 'Error', message: 'Nothing found at this Base URL: it should end in /api/v1' }, 'base URL without /api/v1');
	});

	await check('the trigger workflows are active in n8n', async () => {
		for (const workflow of [all, filtered]) {
			const response = await stack.api.get(`/workflows/${workflow.id}`);
			expectEqual(response.status, 200, `GET /api/v1/workflows/${workflow.id} status`);
			expectEqual(response.data.active, true, `"${workflow.name}" active`);
		}
		// n8n registers production webhooks shortly after start: wait until the URL answers.
		await waitFor('the production webhook to be served', async () => (await axios.post(allUrl, {}, { validateStatus: () => true })).status !== 404, 15_000);
	});

	let estampEnvelopeId = '';
	await check('a real e-stamped send delivers signed events that start executions in order with the envelope id', async () => {
		for (const url of [allUrl, filteredUrl]) await stack.subscribe(url);
		const timing = await sandbox.post('/estamp', { acceptAfterMs: 300, completeAfterMs: 300 });
		expectEqual(timing.status, 200, 'POST /__sandbox/estamp status');

		const created = await service.post('/envelopes', {
			fileName: 'stamped-lease.pdf',
			title: 'Stamped lease (e2e)',
			recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
			workflow: {
				estampEnabled: true,
				estampConfig: {
					state: 'KA',
					article: 'Affidavit',
					amount: '100',
					considerationAmount: '0',
					firstParty: { name: 'Asha Rao', email: 'asha@example.com', address: '12 MG Road, Bengaluru' },
					secondParty: { name: 'Vikram Shah', email: 'vikram@example.com', address: '4 Park Street, Bengaluru' },
				},
			},
		});
		expect(created.status === 200 || created.status === 201, `POST /envelopes answered ${created.status}: ${JSON.stringify(created.data).slice(0, 300)}`);
		estampEnvelopeId = created.data.id;
		const upload = await axios.put(created.data.upload.url, await makePdf('Stamped lease'), {
			headers: { 'Content-Type': 'application/pdf' },
			validateStatus: () => true,
		});
		expect(upload.status >= 200 && upload.status < 300, `PDF upload answered ${upload.status}`);
		const sent = await service.post(`/envelopes/${estampEnvelopeId}/send`, {});
		expectEqual(sent.status, 202, 'send with e-stamping status');

		const runs = await waitFor(
			'three executions of the trigger workflow',
			async () => {
				const list = await executions(stack, all.id);
				return list.length >= 3 && list.every((e) => e.status !== 'running' && e.status !== 'new') ? list : undefined;
			},
			30_000,
			500,
		);
		expectEqual(runs.length, 3, 'executions started by the three deliveries');
		const events = runs.map((run) => {
			expectEqual(run.status, 'success', `execution ${run.id} status`);
			return output(run, 'Document Signing Trigger').json;
		});
		expectEqual(events.map((e) => e.event), ESTAMP_EVENTS, 'event kinds in execution order');
		expectEqual(events.map((e) => e.data?.envelopeId), [estampEnvelopeId, estampEnvelopeId, estampEnvelopeId], 'data.envelopeId');
		expectEqual(events.map((e) => e.verified), [true, true, true], 'verified');
		const completed = events[1].data;
		expect(completed.certificateId && completed.transactionId, `the completed event lacks certificateId/transactionId: ${JSON.stringify(completed)}`);
	});

	await check('a workflow that selects other events acknowledges them (200) and starts nothing', async () => {
		const deliveries = await waitFor(
			'the deliveries to the filtering workflow',
			async () => {
				const response = await sandbox.get('/webhooks/deliveries');
				const mine = (response.data.items as Array<Record<string, any>>).filter((d) => d.url === filteredUrl);
				return mine.length >= 3 && mine.every((d) => d.finished) ? mine : undefined;
			},
			30_000,
			500,
		);
		expectEqual(deliveries.map((d) => d.event), ESTAMP_EVENTS, 'events delivered to the filtering workflow');
		expectEqual(deliveries.map((d) => d.attempts.at(-1)?.status), [200, 200, 200], 'HTTP status n8n answered');
		expectEqual((await executions(stack, filtered.id)).length, 0, 'executions of the filtering workflow');
	});

	await check('forged and unsigned deliveries get 401 and start nothing', async () => {
		const before = (await executions(stack, all.id)).length;
		const body = JSON.stringify({
			id: 'evt_forged_1',
			event: 'document.sent',
			createdAt: new Date().toISOString(),
			data: { envelopeId: estampEnvelopeId || 'env_forged', title: 'Forged', status: 'pending', recipients: [], occurredAt: new Date().toISOString() },
		});
		const send = async (headers: Record<string, string>) =>
			await axios.post(allUrl, body, { headers: { 'Content-Type': 'application/json', ...headers }, validateStatus: () => true });
		const forged = await send({ 'X-Service-Signature': createHmac('sha256', 'not-the-secret').update(body).digest('hex') });
		expectEqual(forged.status, 401, 'forged signature status');
		const unsigned = await send({});
		expectEqual(unsigned.status, 401, 'unsigned status');
		// The right secret over other bytes than those sent is forged too.
		const tampered = await send({ 'X-Service-Signature': createHmac('sha256', stack.sandbox.webhookSecret).update(`${body} `).digest('hex') });
		expectEqual(tampered.status, 401, 'signature over other bytes status');
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expectEqual((await executions(stack, all.id)).length, before, 'executions after the refused deliveries');
	});

	await check('action workflows in n8n: PDF from disk -> create with upload -> send -> recipients sign -> status -> signed PDF', async () => {
		const original = await makePdf('Rental agreement');
		const inputPath = path.join(stack.filesDir, 'rental-agreement.pdf');
		const outputPath = path.join(stack.filesDir, 'rental-agreement-signed.pdf');
		await fs.writeFile(inputPath, original);
		await fs.rm(outputPath, { force: true });

		const sendResponse = await axios.post(
			`${stack.n8nUrl}/webhook/e2e-send-pdf`,
			{ filePath: inputPath, title: 'Rental agreement (e2e)' },
			{ validateStatus: () => true, timeout: 60_000 },
		);
		expectEqual(sendResponse.status, 200, `send workflow response (${JSON.stringify(sendResponse.data).slice(0, 300)})`);
		const sent = sendResponse.data as Record<string, any>;
		expectEqual(sent.status, 'pending', 'status after send');
		const envelopeId = sent.envelopeId as string;
		const recipients = (sent.recipients as Array<Record<string, any>>).sort((a, b) => a.order - b.order);
		expectEqual(recipients.map((r) => r.name), ['Asha Rao', 'Vikram Shah'], 'recipients of the sent envelope');

		const [sendRun] = await executions(stack, workflows.DsE2eSendPdf0001.id);
		expectEqual(sendRun?.status, 'success', 'send workflow execution status');
		const read = output(sendRun, 'Read PDF');
		expectEqual(read.binary?.data?.mimeType, 'application/pdf', 'mime type of the PDF read from disk');
		const createdItem = output(sendRun, 'Create Envelope').json;
		expectEqual([createdItem.id, createdItem.fileName], [envelopeId, 'rental-agreement.pdf'], 'created envelope id and file name');
		const entries = (await sandbox.get('/requests')).data.items as Array<{ method: string; path: string }>;
		expect(
			entries.some((r) => r.path.startsWith('/storage/') && (r.method === 'POST' || r.method === 'PUT')),
			'the sandbox saw no PDF upload to its storage address',
		);

		// Each recipient acts through their own link, in signing order.
		for (const recipient of recipients) {
			const signed = await axios.post(recipient.actionUrl, {}, { validateStatus: () => true });
			expectEqual(signed.status, 200, `${recipient.name} signing through the action link`);
		}

		const finishResponse = await axios.post(
			`${stack.n8nUrl}/webhook/e2e-status-and-download`,
			{ envelopeId, outputPath },
			{ validateStatus: () => true, timeout: 60_000 },
		);
		expectEqual(finishResponse.status, 200, `status-and-download workflow response (${JSON.stringify(finishResponse.data).slice(0, 300)})`);
		const [finishRun] = await executions(stack, workflows.DsE2eFinish00001.id);
		expectEqual(finishRun?.status, 'success', 'status-and-download execution status');
		const status = output(finishRun, 'Get Status').json;
		expectEqual([status.envelopeId, status.status, status.percentage], [envelopeId, 'completed', 100], 'status envelopeId/status/percentage');
		const download = output(finishRun, 'Download Signed PDF');
		expectEqual(download.json.envelopeId, envelopeId, 'downloaded envelopeId');
		expectEqual(download.binary?.data?.mimeType, 'application/pdf', 'downloaded mime type');

		expect(existsSync(outputPath), `n8n wrote no file at ${outputPath}`);
		const signedBytes = await fs.readFile(outputPath);
		expect(!signedBytes.equals(original), 'the downloaded file is the unsigned original');
		const signedPdf = await PDFDocument.load(signedBytes);
		expectEqual(signedPdf.getPageCount(), 2, 'pages of the signed PDF');
		expect(String(signedPdf.getSubject() ?? '').includes('Asha Rao'), `the signed PDF does not name its signer (subject ${signedPdf.getSubject()})`);
	});

	await check('example "react to e-stamp events": its Try-it branch sends an e-stamped PDF; its trigger routes each event', async () => {
		const example = examples[EXAMPLE_EVENTS];
		await fs.writeFile(path.join(stack.filesDir, 'sample-contract.pdf'), await makePdf('Sample contract'));
		const run = await stack.rest.post(`/workflows/${example.id}/run`, { triggerToStartFrom: { name: 'Try It: Send an E-Stamped PDF' } });
		expectEqual(run.status, 200, `manual run answered (${JSON.stringify(run.data).slice(0, 300)})`);
		const manualId = String(run.data.data.executionId);
		const manual = await waitFor(
			'the manual run to finish',
			async () => {
				const response = await stack.api.get(`/executions/${manualId}`, { params: { includeData: true } });
				return response.status === 200 && !['running', 'new', 'waiting'].includes(response.data.status) ? (response.data as Execution) : undefined;
			},
			60_000,
			500,
		);
		expectEqual(manual.status, 'success', `manual run status (${manual.data?.resultData.error?.message ?? ''})`);
		const sent = output(manual, 'Send Envelope').json;
		expectEqual(sent.status, 'estamping', 'status after the e-stamped send');
		const envelopeId = sent.envelopeId as string;

		const mine = await waitFor(
			"the example trigger's executions for this envelope",
			async () => {
				const list = (await executions(stack, example.id)).filter(
					(e) => e.id !== manualId && e.data?.resultData.runData['Document Signing Trigger'] && output(e, 'Document Signing Trigger').json.data?.envelopeId === envelopeId,
				);
				return list.length >= 3 && list.every((e) => e.status !== 'running') ? list : undefined;
			},
			30_000,
			500,
		);
		const routed = mine.map((e) => {
			expectEqual(e.status, 'success', `execution ${e.id} status`);
			const branch = ['Stamp Bought', 'Stamp Attached', 'Stamp Failed', 'Sent'].filter((name) => e.data!.resultData.runData[name]);
			expectEqual(branch.length, 1, `branches run in execution ${e.id}`);
			return { branch: branch[0], message: output(e, branch[0]).json.message as string };
		});
		expectEqual(routed.map((r) => r.branch), ['Stamp Bought', 'Stamp Attached', 'Sent'], 'branches taken, in order');
		expect(routed[1].message.includes('E-stamp certificate '), `unexpected message: ${routed[1].message}`);
	});

	await check('example "send a PDF for signature": the run waits, the signer signs, the signed PDF is saved', async () => {
		const example = examples[EXAMPLE_SEND];
		const run = await stack.rest.post(`/workflows/${example.id}/run`, { triggerToStartFrom: { name: "When clicking 'Execute workflow'" } });
		expectEqual(run.status, 200, `manual run answered (${JSON.stringify(run.data).slice(0, 300)})`);
		const executionId = String(run.data.data.executionId);
		const read = async () => (await stack.api.get(`/executions/${executionId}`, { params: { includeData: true } })).data as Execution;

		// While the workflow waits in its status loop, n8n's saved progress holds the send output.
		const sent = await waitFor(
			'the example to send its envelope',
			async () => {
				const execution = await read();
				if (!['running', 'new', 'waiting'].includes(execution.status)) throw new Error(`the run ended early: ${execution.status}`);
				return execution.data?.resultData.runData['Send Envelope'] ? output(execution, 'Send Envelope').json : undefined;
			},
			60_000,
			500,
		);
		const envelopeId = sent.envelopeId as string;
		for (const recipient of sent.recipients as Array<{ actionUrl: string; name: string }>) {
			const signed = await axios.post(recipient.actionUrl, {}, { validateStatus: () => true });
			expectEqual(signed.status, 200, `${recipient.name} signing`);
		}
		const done = await waitFor(
			'the example to notice the signature and download',
			async () => {
				const execution = await read();
				return ['running', 'new', 'waiting'].includes(execution.status) ? undefined : execution;
			},
			60_000,
			1000,
		);
		expectEqual(done.status, 'success', `example run status (${done.data?.resultData.error?.message ?? ''})`);
		expectEqual(output(done, 'Download Signed PDF').json.envelopeId, envelopeId, 'downloaded envelope');
		const saved = path.join(stack.filesDir, `signed-${envelopeId}.pdf`);
		expect(existsSync(saved), `the example saved no file at ${saved}`);
		const pdf = await PDFDocument.load(await fs.readFile(saved));
		expect(String(pdf.getSubject() ?? '').includes('Asha Rao'), `the saved PDF does not name its signer (subject ${pdf.getSubject()})`);
	});

	await finish(stack, stopAndExit);
}

/** Stops n8n and the sandbox, then prints the summary as the last line and exits. */
async function finish(stack: Stack, stopAndExit: (code: number) => Promise<never>): Promise<never> {
	log('stopping n8n and the sandbox');
	await stack.stop();
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	for (const r of results) log(`${r.ok ? 'passed' : 'FAILED'}: ${r.name}`);
	log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
	console.log(`${passed} passed, ${failed} failed`);
	return await stopAndExit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
	console.error(error);
	console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`);
	process.exit(1);
});
