/* eslint-disable import-x/no-unresolved -- the SDK's subpaths resolve through its exports map, which the lint's resolver does not read */
/**
 * The safety settings set by expressions in this n8n (each line): n8n hands a node an
 * expression's result unchanged, so the text "false" must read false and other text must
 * stop, never turn a setting on. Accept Unsigned Deliveries on the trigger (0 unsigned runs),
 * Draft Only and Send Immediately on the node (0 sends), Include Signing Links on the node
 * and on its tool variant served over MCP (0 links reach the client).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import axios from 'axios';
import { randomUUID } from 'crypto';

import { sleep } from 'n8n-workflow';

import {
	check,
	CREDENTIAL_ID,
	type E2eContext,
	type Execution,
	executions,
	expect,
	expectEqual,
	makePdf,
	output,
	runManually,
	triggerWebhookId,
} from '../lib';

const ACTION = 'n8n-nodes-document-signing.documentSigning';
const MCP_WORKFLOW = 'DsE2eMcpSafety01';
const TRIGGERS = { text: 'DsE2eUnsignedTx1', zero: 'DsE2eUnsignedTx2' };

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
}: E2eContext): Promise<void> {
	const requests = async () =>
		(await sandbox.get('/requests')).data.items as Array<{ method: string; path: string }>;
	const sendsOf = async (id: string) =>
		(await requests()).filter((r) => r.method === 'POST' && r.path.endsWith(`/${id}/send`)).length;

	/** A draft envelope with its PDF uploaded: ready to send. */
	async function sendable(title: string): Promise<string> {
		const created = await service.post('/envelopes', {
			fileName: 'lease.pdf',
			title,
			recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
		});
		expect(created.status === 201 || created.status === 200, `envelope create ${created.status}`);
		const put = await fetch(created.data.upload.url, {
			method: 'PUT',
			headers: { 'content-type': 'application/pdf' },
			body: new Uint8Array(await makePdf(title)),
		});
		expect(put.ok, `upload ${put.status}`);
		return String(created.data.id);
	}

	/** Manual Trigger -> Code node giving `flag` as text -> Document Signing with `parameters`. */
	async function runWithFlag(
		name: string,
		flag: string,
		parameters: Record<string, unknown>,
	): Promise<Execution> {
		const node = (n: string, type: string, x: number, p: object, version = 1) => ({
			id: randomUUID(),
			name: n,
			type,
			typeVersion: version,
			position: [x * 220, 0],
			parameters: p,
		});
		const created = await stack.api.post('/workflows', {
			name,
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', 0, {}),
				node(
					'Flag',
					'n8n-nodes-base.code',
					1,
					{
						jsCode: `return [{ json: { flag: ${JSON.stringify(flag)} } }];`,
					},
					2,
				),
				{
					...node('Document Signing', ACTION, 2, parameters),
					credentials: {
						documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing sandbox' },
					},
				},
			],
			connections: {
				Start: { main: [[{ node: 'Flag', type: 'main', index: 0 }]] },
				Flag: { main: [[{ node: 'Document Signing', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		});
		expect(created.status === 200, `create "${name}": ${created.status}`);
		return (await runManually(stack, String(created.data.id), 'Start')).execution;
	}

	await check(
		'Accept Unsigned Deliveries given the text "false" refuses an unsigned delivery 401, given "0" refuses it 500 naming the field; 0 runs',
		async () => {
			const answers: number[] = [];
			const messages: string[] = [];
			for (const id of [TRIGGERS.text, TRIGGERS.zero]) {
				const workflow = workflows[id];
				expect(workflow, `fixture ${id} is missing`);
				const url = stack.webhookUrl(triggerWebhookId(workflow), 'webhook');
				const event = {
					id: `evt_unsigned_${id}`,
					event: 'document.sent',
					createdAt: new Date().toISOString(),
					data: { envelopeId: 'env_unsigned' },
				};
				let answer = await axios.post(url, event, { validateStatus: () => true });
				// n8n registers production webhooks shortly after start.
				for (let n = 0; n < 30 && answer.status === 404; n++) {
					await sleep(500);
					answer = await axios.post(url, event, { validateStatus: () => true });
				}
				answers.push(answer.status);
				messages.push(String(answer.data?.message ?? ''));
			}
			expectEqual(answers, [401, 500], 'answers to unsigned deliveries');
			expect(
				/^Accept Unsigned Deliveries: must be true or false/.test(messages[1]),
				`the refusal names the field: ${messages[1]}`,
			);
			await sleep(1500);
			for (const id of Object.values(TRIGGERS))
				expectEqual((await executions(stack, id)).length, 0, `runs of ${id}`);
		},
	);

	await check(
		'Draft Only given {{ $json.flag }} holding the text "true": Envelope Send refuses before any request (0 sends)',
		async () => {
			const id = await sendable('Draft only by text');
			const execution = await runWithFlag('E2E: Draft Only from an item', 'true', {
				resource: 'envelope',
				operation: 'send',
				envelopeId: { __rl: true, mode: 'id', value: id },
				draftOnly: '={{ $json.flag }}',
			});
			expectEqual(execution.status, 'error', 'run status');
			const message = String(execution.data?.resultData.error?.message ?? '');
			expect(message.includes('Draft Only is on'), `the error says Draft Only is on: ${message}`);
			expectEqual(await sendsOf(id), 0, 'sends of the envelope');
		},
	);

	await check(
		'Include Signing Links given {{ $json.flag }} holding the text "false": the node sends and outputs no actionUrl',
		async () => {
			const id = await sendable('Links by text');
			const execution = await runWithFlag('E2E: Include Signing Links from an item', 'false', {
				resource: 'envelope',
				operation: 'send',
				envelopeId: { __rl: true, mode: 'id', value: id },
				safeguards: { includeSigningLinks: '={{ $json.flag }}' },
			});
			expectEqual(execution.status, 'success', 'run status');
			const json = JSON.stringify(output(execution, 'Document Signing').json);
			expect(json.includes('"recipients"'), `the output lists recipients: ${json.slice(0, 200)}`);
			expect(!json.includes('actionUrl'), 'no actionUrl in the output');
			expectEqual(await sendsOf(id), 1, 'sends of the envelope');
		},
	);

	await check(
		'Send Immediately given {{ $json.flag }} holding the text "false": Create Document creates a draft and sends nothing',
		async () => {
			const template = await service.post('/templates', {
				name: 'Safety lease',
				fileName: 'lease.pdf',
				recipients: [{ id: 'client', name: 'Client', role: 'signer' }],
			});
			expectEqual(template.status, 201, 'template create');
			const put = await fetch(template.data.upload.url, {
				method: 'PUT',
				headers: { 'content-type': 'application/pdf' },
				body: new Uint8Array(await makePdf('Safety lease')),
			});
			expect(put.ok, `template upload ${put.status}`);
			const execution = await runWithFlag('E2E: Send Immediately from an item', 'false', {
				resource: 'template',
				operation: 'createDocument',
				templateId: { __rl: true, mode: 'id', value: String(template.data.id) },
				title: 'Lease - Asha Rao',
				recipientMapping: {
					mappingMode: 'defineBelow',
					value: { 'client.name': 'Asha Rao', 'client.email': 'asha@example.com' },
					matchingColumns: [],
					schema: [],
				},
				sendImmediately: '={{ $json.flag }}',
			});
			expectEqual(
				execution.status,
				'success',
				`run status (${execution.data?.resultData.error?.message ?? ''})`,
			);
			const json = output(execution, 'Document Signing').json as Record<string, unknown>;
			expectEqual(json.status, 'draft', 'document status');
			expectEqual(await sendsOf(String(json.envelopeId)), 0, 'sends of the document');
		},
	);

	await check(
		'over MCP: the tool with Include Signing Links given the text "false" answers without any actionUrl; the tool with Draft Only given "TRUE " refuses (0 sends)',
		async () => {
			expect(workflows[MCP_WORKFLOW], 'the MCP safety fixture is missing');
			const client = new Client({ name: 'document-signing-e2e-safety', version: '1.0.0' });
			await client.connect(
				new StreamableHTTPClientTransport(new URL(`${stack.n8nUrl}/mcp/e2e-safety-expressions`)),
			);
			try {
				const call = async (name: string, envelopeId: string) =>
					(await client.callTool({ name, arguments: { envelopeId } }, undefined, {
						timeout: 60_000,
					})) as { content: Array<{ text?: string }>; isError?: boolean };
				const linked = await sendable('Tool links by text');
				const sent = (await call('Send_Envelope', linked)).content.map((c) => c.text).join('');
				expect(sent.includes('"recipients"'), `the tool answered the send: ${sent.slice(0, 300)}`);
				expect(!sent.includes('actionUrl'), 'no actionUrl reached the MCP client');
				expectEqual(await sendsOf(linked), 1, 'sends by the tool without links');

				const draft = await sendable('Tool draft only by text');
				const refused = (await call('Send_Envelope_Draft_Only', draft)).content
					.map((c) => c.text)
					.join('');
				expect(refused.includes('Draft Only is on'), `the tool refused: ${refused.slice(0, 300)}`);
				expectEqual(await sendsOf(draft), 0, 'sends by the Draft Only tool');
			} finally {
				await client.close();
			}
		},
	);
}
