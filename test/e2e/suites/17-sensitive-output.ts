/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * What n8n does with a node's `sensitiveOutputFields`, the reason the package does not declare
 * them for signing links and presigned addresses (docs/ai-agents.md, "Signing links and
 * sensitiveOutputFields"). The test-only node of ../sensitive-probe.ts declares
 * `recipients[*].actionUrl` and `url` and outputs both; a Set node copies them. Each check reads
 * what the next node output, and the probe's own output in the public API
 * (`GET /api/v1/executions/:id?includeData=true`), the editor's read (`GET /rest/executions/:id`)
 * and the execution row in n8n's database.
 *
 * Seen on 2.41.1 and 1.123.81: both links in all four places, also in production runs, where n8n
 * 2.41.1's own Webhook node declares `headers.authorization` and that header is kept as well.
 * 2.41.1 reads the key only in a redaction strategy that nothing constructs; 1.123.81 has no code
 * that reads it and loads the node without a word. A check failing here means an n8n now redacts:
 * then revisit that decision.
 */
import axios from 'axios';
import { execFile } from 'child_process';
import { createRequire } from 'module';
import path from 'path';

import { type Stack, waitFor } from '../../../scripts/lib/stack';
import { CUSTOM } from '../custom-nodes';
import {
	DOWNLOAD_ADDRESS,
	SENSITIVE_PROBE_TYPE,
	SIGNING_LINK,
	SENSITIVE_PATHS,
} from '../sensitive-probe';
import {
	check,
	type E2eContext,
	type Execution,
	expect,
	expectEqual,
	log,
	output,
	runManually,
} from '../lib';

const AUTHORIZATION = 'Bearer probe-authorization-header';
const WEBHOOK_PATH = 'sensitive-output-probe';

export default async function suite({ stack }: E2eContext): Promise<void> {
	const version = stack.line.version;
	await check(
		`n8n ${version}: a node's sensitiveOutputFields (${SENSITIVE_PATHS.join(', ')}) keep neither link out of a manual run's stored execution, public API or editor read, and the next node receives both`,
		async () => {
			const id = await createWorkflow(stack, 'manual', {
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				parameters: {},
			});
			const { execution } = await runManually(stack, id, 'Start');
			await expectEverywhere(stack, execution);
		},
	);
	await check(
		`n8n ${version}: in a production run the same, and the Webhook node's headers.authorization (declared sensitive by n8n 2.41.1's own Webhook node) is kept as well`,
		async () => {
			const id = await createWorkflow(stack, 'production', {
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: '7f3c1a52-4b8e-4d19-9a60-5e2b8c7d1f17',
				parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, options: {} },
			});
			const activated = await stack.api.post(`/workflows/${id}/activate`, {});
			expectEqual(activated.status, 200, 'activating the probe workflow');
			const execution = await deliver(stack, id);
			await expectEverywhere(stack, execution, AUTHORIZATION);
			await stack.api.post(`/workflows/${id}/deactivate`, {});
		},
	);
}

/** Trigger -> Sensitive Probe -> Copy (a Set node copying both links into fields of its own). */
async function createWorkflow(
	stack: Stack,
	kind: string,
	trigger: Record<string, unknown>,
): Promise<string> {
	const at = (x: number) => ({ id: `sensitive-${kind}-${x}`, position: [x * 220, 0] });
	const created = await stack.api.post('/workflows', {
		name: `E2E: sensitiveOutputFields (${kind})`,
		nodes: [
			{ ...at(0), ...trigger },
			{
				...at(1),
				name: 'Sensitive Probe',
				type: `${CUSTOM}.${SENSITIVE_PROBE_TYPE}`,
				typeVersion: 1,
				parameters: {},
			},
			{
				...at(2),
				name: 'Copy',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					mode: 'raw',
					jsonOutput: '={{ { link: $json.recipients[0].actionUrl, download: $json.url } }}',
					options: {},
				},
			},
		],
		connections: {
			[trigger.name as string]: { main: [[{ node: 'Sensitive Probe', type: 'main', index: 0 }]] },
			'Sensitive Probe': { main: [[{ node: 'Copy', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	});
	expect(
		created.status === 200,
		`creating the workflow: ${created.status} ${JSON.stringify(created.data).slice(0, 300)}`,
	);
	return created.data.id as string;
}

/** Posts to the activated probe webhook (404 until n8n has registered it) and waits for its run. */
async function deliver(stack: Stack, workflowId: string): Promise<Execution> {
	await waitFor(
		'the probe webhook to answer',
		async () =>
			(
				await axios.post(
					`${stack.n8nUrl}/webhook/${WEBHOOK_PATH}`,
					{ probe: true },
					{ headers: { authorization: AUTHORIZATION }, validateStatus: () => true },
				)
			).status === 200,
		30_000,
		500,
	);
	return await waitFor(
		'the production run to be stored',
		async () => {
			const response = await stack.api.get('/executions', {
				params: { workflowId, includeData: true },
			});
			const done = (response.data?.data as Execution[] | undefined)?.find(
				(e) => !['running', 'new', 'waiting'].includes(e.status),
			);
			return done;
		},
		30_000,
		500,
	);
}

/** The declared fields as one place holds them: the probe's output and the Webhook node's header. */
function declaredFields(data: any): Record<string, unknown> {
	const first = (node: string) =>
		data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0]?.[0]?.json;
	const probe = first('Sensitive Probe');
	return {
		actionUrl: probe?.recipients?.[0]?.actionUrl,
		url: probe?.url,
		authorization: first('Webhook')?.headers?.authorization,
	};
}

/**
 * The next node must receive both links; the probe's own output (and the Webhook node's header)
 * must hold them as sent in the public API, the editor's read and the stored row. The figures go
 * to the log either way.
 */
async function expectEverywhere(
	stack: Stack,
	execution: Execution,
	authorization?: string,
): Promise<void> {
	expectEqual(execution.status, 'success', 'probe run status');
	const copy = output(execution, 'Copy').json;
	const editor = await stack.rest.get(`/executions/${execution.id}`);
	expectEqual(editor.status, 200, 'GET /rest/executions/:id status');
	const stored = await storedRow(stack, execution.id);
	expect(stored !== '', `n8n's database has no execution_data row for ${execution.id}`);
	// n8n's own reader of its flattened execution data (pure JS, the same on both lines).
	const { parse } = createRequire(path.join(stack.line.modules, 'n8n', 'package.json'))(
		'flatted',
	) as { parse: (text: string) => unknown };
	const sent = { actionUrl: SIGNING_LINK, url: DOWNLOAD_ADDRESS, authorization };
	const places: Array<[string, Record<string, unknown>]> = [
		['public API', declaredFields(execution.data)],
		['editor read', declaredFields(parse(String(editor.data.data.data)))],
		['stored row', declaredFields(parse(stored))],
	];
	const kept = (fields: Record<string, unknown>) =>
		Object.entries(sent).filter(([key, value]) => value !== undefined && fields[key] === value)
			.length;
	const declared = Object.values(sent).filter((value) => value !== undefined).length;
	log(
		`FIGURES n8n ${stack.line.version} execution ${execution.id} (${(execution as any).mode}): next node got ${[copy.link === SIGNING_LINK, copy.download === DOWNLOAD_ADDRESS].filter(Boolean).length}/2 links; declared fields as sent: ${places.map(([place, fields]) => `${place} ${kept(fields)}/${declared}`).join(', ')}`,
	);
	expectEqual(
		{ link: copy.link, download: copy.download },
		{ link: SIGNING_LINK, download: DOWNLOAD_ADDRESS },
		'what the next node (Copy) output',
	);
	for (const [place, fields] of places) {
		expect(
			kept(fields) === declared,
			`${place} holds ${JSON.stringify(fields)} instead of the values sent: this n8n redacts sensitiveOutputFields there, so revisit the decision in docs/ai-agents.md`,
		);
	}
}

/** The execution's data as n8n stored it (read with n8n's own sqlite3 module, under its Node). */
async function storedRow(stack: Stack, executionId: string): Promise<string> {
	const script = `
		const [modules, file, id] = process.argv.slice(1);
		const sqlite3 = require(modules + '/sqlite3');
		const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
		db.get('SELECT data FROM execution_data WHERE executionId = ?', [Number(id)], (error, row) => {
			if (error) { console.error(error.message); process.exit(1); }
			process.stdout.write(row ? row.data : '', () => db.close());
		});`;
	const file = `${stack.userFolder}/.n8n/database.sqlite`;
	return await new Promise((resolve, reject) =>
		execFile(
			stack.line.nodeBin,
			['-e', script, stack.line.modules, file, executionId],
			{ maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) =>
				error
					? reject(new Error(`reading the stored execution: ${stderr || error.message}`))
					: resolve(stdout),
		),
	);
}
