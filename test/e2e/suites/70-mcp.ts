/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, import-x/no-unresolved -- the SDK's subpaths resolve through its exports map, which the lint's resolver does not read; local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * The package's tool nodes served by n8n's MCP Server Trigger, driven by a real MCP client
 * (the official TypeScript SDK) over Streamable HTTP on loopback: the tools are listed with
 * their descriptions and input schemas, each is called with the arguments an agent sends,
 * and the sandbox's request log shows what the tools asked of the service.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import axios from 'axios';
import { readFile, writeFile } from 'fs/promises';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import path from 'path';

import { check, type E2eContext, expect, expectEqual, log, makePdf, onN8n1 } from '../lib';

const MCP_WORKFLOW = 'DsE2eMcpTools001';
const EXAMPLE_AGENT = 'DsExampleAgent01';
const EXAMPLE_MCP = 'DsExampleMcp0001';
const MCP_PATH = 'e2e-document-signing';

interface Tool {
	name: string;
	description?: string;
	inputSchema: {
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}
interface CallResult {
	content: Array<{ type: string; text?: string }>;
	isError?: boolean;
}

const textOf = (result: CallResult) => result.content.map((c) => c.text ?? '').join('\n');
/** A tool's answer as JSON (n8n sends the node's output items as text). */
function jsonOf(result: CallResult): any {
	const text = textOf(result);
	try {
		const parsed = JSON.parse(text);
		return Array.isArray(parsed) ? parsed[0] : parsed;
	} catch {
		throw new Error(`the tool answered text that is not JSON: ${text.slice(0, 300)}`);
	}
}

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
	examples,
}: E2eContext): Promise<void> {
	expect(workflows[MCP_WORKFLOW], 'the MCP workflow fixture is missing');
	expect(examples[EXAMPLE_AGENT], 'the "AI agent" example is missing');
	expect(examples[EXAMPLE_MCP], 'the "AI tools over MCP" example is missing');

	await check(
		'examples "AI tools over MCP" and "AI agent: act on a completed envelope": imported whole, every node type and version known to n8n',
		async () => {
			const [mcp, saved] = [
				await stack.rest.get(`/workflows/${EXAMPLE_MCP}`),
				await stack.rest.get(`/workflows/${EXAMPLE_AGENT}`),
			];
			expectEqual([mcp.status, saved.status], [200, 200], 'GET the examples');
			const nodes = [...saved.data.data.nodes, ...mcp.data.data.nodes] as Array<{
				name: string;
				type: string;
				typeVersion: number;
			}>;
			expectEqual(
				nodes.length,
				examples[EXAMPLE_AGENT].nodes.length + examples[EXAMPLE_MCP].nodes.length,
				'nodes imported',
			);
			// The node types the editor loads (n8n's own, and this package's with its tool variant).
			const types = await stack.rest.get(`${stack.n8nUrl}/types/nodes.json`);
			expectEqual(types.status, 200, 'GET /types/nodes.json status');
			const served = types.data as Array<{ name: string; version: number | number[] }>;
			const known = (type: string, version: number) =>
				served.some(
					(d) =>
						(d.name === type || type.endsWith(`.${d.name}`)) &&
						[d.version].flat().includes(version),
				);
			const missing = [
				...new Set(
					nodes
						.filter((n) => !known(n.type, n.typeVersion))
						.map((n) => `${n.type}@${n.typeVersion}`),
				),
			];
			expectEqual(missing, [], 'node types or versions n8n does not know');
			const connected = [saved, mcp]
				.flatMap((w) =>
					Object.values(
						w.data.data.connections as Record<string, { ai_tool?: Array<Array<{ node: string }>> }>,
					),
				)
				.flatMap((c) => c.ai_tool?.flat() ?? [])
				.map((c) => c.node);
			expectEqual(
				[
					connected.filter((n) => n === 'MCP Server Trigger').length,
					connected.filter((n) => n === 'AI Agent').length,
				],
				[8, 5],
				'tools of the MCP trigger and of the agent',
			);
			expect(
				!mcp.data.data.nodes.some((n: { type: string }) => /lmChat|agent$/.test(n.type)),
				'the MCP workflow holds no model (it publishes without a model credential)',
			);
		},
	);
	// The PDF the workflow's "PDF Address" webhook reads from disk and serves.
	const pdfFile = path.join(stack.filesDir, 'mcp-contract.pdf');
	await writeFile(pdfFile, await makePdf('Service contract'));
	const workflowPdfUrl = `${stack.n8nUrl}/webhook/e2e-mcp-contract.pdf`;
	await check(
		"the workflow's PDF address (a Webhook node answering with the file it reads) serves the PDF's bytes",
		async () => {
			const answer = await fetch(workflowPdfUrl, { headers: { accept: 'application/pdf' } });
			const bytes = Buffer.from(await answer.arrayBuffer());
			expectEqual(answer.status, 200, 'status');
			expect(
				bytes.subarray(0, 5).toString('latin1') === '%PDF-',
				`the answer starts with ${JSON.stringify(bytes.subarray(0, 40).toString('latin1'))}`,
			);
		},
	);
	// n8n 1.x serves that file as JSON (see KNOWN_ON_N8N_1); there the tools download the same
	// PDF from a plain file server on loopback, so the tool path is proven on both lines.
	const fileServer = createServer((_req, res) => {
		void readFile(pdfFile).then((pdf) =>
			res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf),
		);
	});
	await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
	const pdfUrl = onN8n1
		? `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}/e2e-mcp-contract.pdf`
		: workflowPdfUrl;

	const client = new Client({ name: 'document-signing-e2e', version: '1.0.0' });
	const url = new URL(`${stack.n8nUrl}/mcp/${MCP_PATH}`);
	const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> =>
		(await client.callTool({ name, arguments: args }, undefined, {
			timeout: 60_000,
		})) as CallResult;
	const requests = async () =>
		(await sandbox.get('/requests')).data.items as Array<{
			method: string;
			path: string;
			body: any;
		}>;

	let tools: Tool[] = [];
	await check(
		'MCP client connects to the MCP Server Trigger (Streamable HTTP) and lists the tools with specific descriptions and input schemas',
		async () => {
			await client.connect(new StreamableHTTPClientTransport(url));
			tools = (await client.listTools()).tools as Tool[];
			for (const tool of tools)
				log(`  tool ${tool.name}: ${String(tool.description).split('. ')[0]}`);
			expectEqual(
				tools.map((t) => t.name).sort(),
				[
					'Create_Document_From_Template',
					'Get_Credit_Balance',
					'Get_Envelope_Status',
					'List_Templates',
					'Send_Contract_PDF',
					'Send_Public_Contract_PDF',
				],
				'tool names',
			);
			const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
			const props = (name: string) => Object.keys(byName[name].inputSchema.properties ?? {}).sort();
			expectEqual(
				props('Create_Document_From_Template'),
				['signerEmail', 'signerName', 'templateId', 'title'],
				'Create Document inputs',
			);
			expectEqual(props('Get_Envelope_Status'), ['envelopeId'], 'Get Status inputs');
			expectEqual(props('Get_Credit_Balance'), [], 'Get Balance inputs');
			expectEqual(
				props('Send_Contract_PDF'),
				['pdfUrl', 'signerEmail', 'signerName', 'title'],
				'Envelope Create inputs',
			);
			expectEqual(
				props('Send_Public_Contract_PDF'),
				['pdfUrl', 'signerEmail', 'signerName', 'title'],
				'Envelope Create (public addresses only) inputs',
			);
			expect(
				/e-mail/i.test(
					String(byName.Get_Envelope_Status.inputSchema.properties?.envelopeId?.description ?? ''),
				) === false,
				'the envelope id input is described as an id',
			);
			expect(
				/E-mail address/.test(
					String(byName.Send_Contract_PDF.inputSchema.properties?.signerEmail?.description),
				),
				'the e-mail input says it is an e-mail address',
			);
			// Not n8n's generic "Get the credit balance in Document Signing": the operation's own text.
			for (const tool of tools) {
				expect(
					!/ in Document Signing$/.test(String(tool.description)),
					`${tool.name} has the generic description "${tool.description}"`,
				);
				expect(
					/Needs|Returns/.test(String(tool.description)),
					`${tool.name}'s description says what it needs or returns: "${tool.description}"`,
				);
			}
			expect(
				/signed/i.test(String(byName.Get_Envelope_Status.description)),
				'Get Status says it tells whether an envelope is signed',
			);
			expect(
				/e-mail/i.test(String(byName.Create_Document_From_Template.description)),
				'Create Document says it needs an e-mail',
			);
		},
	);

	await check(
		'MCP tool "Get_Credit_Balance": the balance as JSON, one GET /credits/balance',
		async () => {
			expectEqual(
				(await sandbox.post('/credits', { workspace: 'personal', balance: 42 })).status,
				200,
				'balance set',
			);
			const before = (await requests()).length;
			const result = await call('Get_Credit_Balance', {});
			expect(!result.isError, `tool error: ${textOf(result)}`);
			const balance = jsonOf(result);
			expectEqual([balance.balance, balance.context], [42, 'personal'], 'balance answer');
			const sent = (await requests()).slice(before);
			expect(
				sent.length === 1 && sent[0].method === 'GET' && sent[0].path.endsWith('/credits/balance'),
				`requests to the service: ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}`))}`,
			);
		},
	);

	let documentId = '';
	await check(
		'MCP tools "List_Templates" then "Create_Document_From_Template": a document for a named person, sent, the mapping in the request',
		async () => {
			const template = await service.post('/templates', {
				name: 'Service contract (MCP)',
				fileName: 'service-contract.pdf',
				recipients: [{ id: 'client', name: 'Client', role: 'signer' }],
			});
			expectEqual(
				template.status,
				201,
				`template create (${JSON.stringify(template.data).slice(0, 200)})`,
			);
			const upload = await axios.put(template.data.upload.url, await makePdf('Service contract'), {
				headers: { 'content-type': 'application/pdf' },
				validateStatus: () => true,
			});
			expect(upload.status < 300, `template upload answered ${upload.status}`);

			// As an agent would: find the template by name first (a short, simplified list).
			const listed = await call('List_Templates', { nameContains: 'Service contract' });
			expect(!listed.isError, `tool error: ${textOf(listed)}`);
			const parsed = JSON.parse(textOf(listed));
			const found = (Array.isArray(parsed) ? parsed : [parsed]) as any[];
			expectEqual(
				found.map((t) => [t.id, t.name]),
				[[template.data.id, 'Service contract (MCP)']],
				'templates listed',
			);
			expectEqual(
				Object.keys(found[0]).sort(),
				['id', 'name', 'recipientsCount', 'status', 'updatedAt', 'usageCount'],
				'simplified template fields',
			);

			const before = (await requests()).length;
			const result = await call('Create_Document_From_Template', {
				templateId: found[0].id,
				title: 'Service contract - Asha Rao',
				signerName: 'Asha Rao',
				signerEmail: 'asha.rao@example.com',
			});
			expect(!result.isError, `tool error: ${textOf(result)}`);
			const document = jsonOf(result);
			documentId = String(document.id ?? document.envelopeId ?? '');
			expect(documentId, `no document id in ${textOf(result).slice(0, 300)}`);
			expectEqual(document.status, 'pending', 'document sent');
			// Signing links stay out of tool outputs unless the tool is set to include them.
			expect(
				!/actionUrl/.test(textOf(result)),
				`a signing link reached the client: ${textOf(result).slice(0, 300)}`,
			);
			const sent = (await requests()).slice(before);
			const create = sent.find(
				(r) => r.method === 'POST' && r.path.endsWith(`/templates/${template.data.id}/documents`),
			);
			expect(
				create,
				`no document-creation request in ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}`))}`,
			);
			expectEqual(create.body.title, 'Service contract - Asha Rao', 'title sent');
			expectEqual(
				create.body.recipientMapping,
				[{ templateRecipientId: 'client', name: 'Asha Rao', email: 'asha.rao@example.com' }],
				'recipient mapping sent',
			);
			expect(
				sent.some((r) => r.method === 'POST' && r.path.endsWith('/send')),
				'the document was sent',
			);
		},
	);

	await check(
		'MCP tool "Get_Envelope_Status": is it signed? a short answer (Simplify on for tools), one GET',
		async () => {
			expect(documentId, 'no document from the previous check');
			const before = (await requests()).length;
			const result = await call('Get_Envelope_Status', { envelopeId: documentId });
			expect(!result.isError, `tool error: ${textOf(result)}`);
			const status = jsonOf(result);
			expectEqual(status.status, 'pending', 'status');
			expectEqual(
				status.recipients.map((r: any) => [r.name, r.email]),
				[['Asha Rao', 'asha.rao@example.com']],
				'recipients',
			);
			expectEqual(
				Object.keys(status).sort(),
				['completedCount', 'envelopeId', 'percentage', 'recipients', 'status', 'totalRecipients'],
				'simplified fields',
			);
			const sent = (await requests()).slice(before);
			expect(
				sent.length === 1 &&
					sent[0].method === 'GET' &&
					sent[0].path.endsWith(`/envelopes/${documentId}/status`),
				`requests to the service: ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}`))}`,
			);
		},
	);

	await check(
		'MCP tool "Send_Contract_PDF" (Envelope Create): the PDF the workflow reads, downloaded from its address and uploaded',
		async () => {
			const before = (await requests()).length;
			const result = await call('Send_Contract_PDF', {
				pdfUrl,
				title: 'Service contract - Ravi Kumar',
				signerName: 'Ravi Kumar',
				signerEmail: 'ravi.kumar@example.com',
			});
			expect(!result.isError, `tool error: ${textOf(result)}`);
			const envelope = jsonOf(result);
			expectEqual(
				[envelope.status, envelope.title, envelope.uploaded?.fileName],
				['draft', 'Service contract - Ravi Kumar', 'e2e-mcp-contract.pdf'],
				'created envelope',
			);
			const sent = (await requests()).slice(before);
			const create = sent.find((r) => r.method === 'POST' && r.path.endsWith('/envelopes'));
			expect(
				create,
				`no envelope create in ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}`))}`,
			);
			expectEqual(
				create.body.recipients.map((r: any) => [r.name, r.email, r.role]),
				[['Ravi Kumar', 'ravi.kumar@example.com', 'signer']],
				'recipients sent',
			);
			const stored = await service.get(`/envelopes/${envelope.id}/status`);
			expectEqual(stored.status, 200, 'envelope readable in the service');
		},
	);

	// The address guard as an agent meets it. "Send_Contract_PDF" allows internal addresses (its
	// PDF host, n8n's own webhook, is on loopback here and stands for the public web);
	// "Send_Public_Contract_PDF" is the same tool as users deploy it, the option off. An internal
	// service on loopback counts every request it gets: it must get none.
	const internalHits: string[] = [];
	const internalService = createServer((req, res) => {
		internalHits.push(`${req.method} ${req.url}`);
		res
			.writeHead(500, { 'content-type': 'text/plain' })
			.end('DB_PASSWORD=e2e-secret AWS_SECRET_ACCESS_KEY=e2e-secret');
	});
	await new Promise<void>((resolve) => internalService.listen(0, '127.0.0.1', resolve));
	const internalPort = (internalService.address() as AddressInfo).port;
	const refusals: Array<[string, string, RegExp]> = [
		[
			'Send_Public_Contract_PDF',
			`http://127.0.0.1:${internalPort}/contract.pdf`,
			/PDF URL: the address is a loopback address \(this machine\) \(127\.0\.0\.1\), which is refused unless Allow Internal Addresses is on/,
		],
		[
			'Send_Public_Contract_PDF',
			`http://2130706433:${internalPort}/contract.pdf`,
			/PDF URL: the address is a loopback address .*\(127\.0\.0\.1\)/,
		],
		[
			'Send_Public_Contract_PDF',
			`http://localhost:${internalPort}/contract.pdf`,
			/PDF URL: the address is a loopback address .*\(localhost\)/,
		],
		[
			'Send_Public_Contract_PDF',
			'http://10.0.0.5/contract.pdf',
			/PDF URL: the address is a private network address \(10\.0\.0\.5\), which is refused unless Allow Internal Addresses is on/,
		],
		[
			'Send_Public_Contract_PDF',
			'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
			/PDF URL: the address is a link-local or cloud metadata address \(169\.254\.169\.254\), which is never fetched/,
		],
		[
			'Send_Contract_PDF',
			'http://[::ffff:169.254.169.254]/latest/meta-data/',
			/PDF URL: the address is a link-local or cloud metadata address .*never fetched/,
		],
	];
	for (const [tool, address, refusal] of refusals) {
		await check(
			`MCP tool "${tool}" with the PDF address ${address}: refused naming the field and the reason, nothing fetched or created`,
			async () => {
				const before = (await requests()).length;
				const result = await call(tool, {
					pdfUrl: address,
					title: 'Internal file',
					signerName: 'Ravi Kumar',
					signerEmail: 'ravi.kumar@example.com',
				});
				const text = textOf(result);
				log(`  agent-facing error: ${text.slice(0, 240)}`);
				expect(refusal.test(text), `the refusal names the field and the reason: ${text}`);
				expect(
					!/e2e-secret|DB_PASSWORD/.test(text),
					`the internal answer reached the agent: ${text}`,
				);
				expectEqual(internalHits, [], 'requests the internal service received');
				const sent = (await requests()).slice(before).filter((r) => r.method === 'POST');
				expectEqual(sent.length, 0, 'POST requests to the service after the refusal');
			},
		);
	}
	internalService.close();

	await check(
		'MCP tool called with a bad argument: the tool result is a readable error naming the field and the rule, and nothing is sent',
		async () => {
			const before = (await requests()).length;
			const result = await call('Send_Contract_PDF', {
				pdfUrl,
				title: 'Bad e-mail',
				signerName: 'Ravi Kumar',
				signerEmail: 'ravi.kumar-at-example.com',
			});
			const text = textOf(result);
			log(`  agent-facing error: ${text}`);
			expect(
				/Recipient 1 > Email/.test(text) && /e-mail|email/i.test(text),
				`the error names the field and the rule: ${text}`,
			);
			expect(!/at \S+ \(|node_modules/.test(text), `no stack trace in the tool result: ${text}`);
			const sent = (await requests()).slice(before).filter((r) => r.method === 'POST');
			expectEqual(sent.length, 0, 'POST requests after the bad argument');

			const missing = await call('Get_Envelope_Status', { envelopeId: 'env_does_not_exist' });
			log(`  agent-facing error: ${textOf(missing)}`);
			expect(
				/not found|NOT_FOUND|does not exist/i.test(textOf(missing)),
				`a missing envelope reads as such: ${textOf(missing)}`,
			);
		},
	);

	await client.close().catch(() => undefined);
	fileServer.close();
}
