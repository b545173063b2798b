/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * A real agent loop inside n8n: n8n's AI Agent with its OpenAI Chat Model node, whose
 * credential's Base URL is a scripted model on loopback (test/e2e/scripted-model.ts, no
 * network), and the package's tool nodes with `$fromAI` inputs against the sandbox. The
 * model's tool calls are scripted; what they asked of the service is read in the sandbox's
 * request log, and what the model got back is read in the next chat request's `role: "tool"`
 * messages, byte for byte.
 */
import axios from 'axios';
import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { waitFor } from '../../../scripts/lib/stack';
import {
	check,
	DOMAINS_FIELD,
	type E2eContext,
	type Execution,
	executions,
	expect,
	expectEqual,
	log,
	makePdf,
	onN8n1,
} from '../lib';
import { ScriptedModel } from '../scripted-model';

const WORKFLOW = 'DsE2eAiAgent0001';
const WEBHOOK_PATH = 'e2e-ai-agent';
/** The same agent behind a Webhook answering as a stream: the agent then streams the model's answers too. */
const STREAMED_PATH = 'e2e-ai-agent-streamed';
const CREDENTIAL_PLACEHOLDER = '__SCRIPTED_MODEL_CREDENTIAL__';
/**
 * The largest tool result the model may get for one created envelope (bytes of the tool
 * message), with node version 1.2's Simplified output: 280 bytes measured; Raw, with the
 * upload's internals, 378.
 */
const MAX_ENVELOPE_RESULT_BYTES = 350;
/** The same for one document created from a template and sent: 496 measured (Raw 706). */
const MAX_DOCUMENT_RESULT_BYTES = 600;

/** Signing links open a recipient's signing page: never printed whole. */
const redact = (text: string) => text.replace(/\/sign\/[\w-]+/g, '/sign/…');

interface SandboxRequest {
	method: string;
	path: string;
	body: any;
}

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
}: E2eContext): Promise<void> {
	const fixture = workflows[WORKFLOW];
	expect(fixture, 'the AI Agent workflow fixture is missing');

	const model = new ScriptedModel();
	const modelUrl = await model.start();
	// The PDF the model names, on loopback (the tool's Allow Internal Addresses is on for it).
	const pdf = await makePdf('Service contract (agent)');
	const pdfHits: string[] = [];
	const pdfServer = createServer((req, res) => {
		pdfHits.push(String(req.url));
		res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
	});
	await new Promise<void>((resolve) => pdfServer.listen(0, '127.0.0.1', resolve));
	const pdfUrl = `http://127.0.0.1:${(pdfServer.address() as AddressInfo).port}/agent-contract.pdf`;
	const requests = async () => (await sandbox.get('/requests')).data.items as SandboxRequest[];

	let published = false;
	/** Runs the agent once through the workflow's webhook; the answer, the execution and the service requests it made. */
	async function ask(scenario: string, prompt: string, path = WEBHOOK_PATH) {
		expect(published, 'the agent workflow was not published');
		const before = (await requests()).length;
		const known = new Set((await executions(stack, WORKFLOW)).map((e) => e.id));
		// Just after activation n8n answers 404 for a moment (nothing runs then): asked again.
		const answer = await waitFor(
			'the agent webhook to be served',
			async () => {
				const response = await axios.post(
					`${stack.n8nUrl}/webhook/${path}`,
					{ prompt: `[scenario:${scenario}] ${prompt}` },
					{ validateStatus: () => true, timeout: 60_000 },
				);
				return response.status === 404 ? undefined : response;
			},
			15_000,
			300,
		);
		const execution = await waitFor(
			'the execution of the agent workflow',
			async () =>
				(await executions(stack, WORKFLOW)).find(
					(e) => !known.has(e.id) && !['running', 'new', 'waiting'].includes(e.status),
				),
			30_000,
			300,
		);
		return { answer, execution, sent: (await requests()).slice(before) };
	}
	const toolResult = (scenario: string, execution?: Execution) => {
		const results = model.toolResults(scenario);
		const failure = execution?.data?.resultData.error?.message;
		expectEqual(
			results.length,
			1,
			`tool results the model received in "${scenario}" (${redact(JSON.stringify(results)).slice(0, 300)}${execution ? `; execution ${execution.status}${failure ? `: ${failure}` : ''}` : ''})`,
		);
		return { text: results[0].content, bytes: Buffer.byteLength(results[0].content, 'utf8') };
	};
	const finalAnswer = (execution: Execution) =>
		execution.data?.resultData.runData['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json.output;
	const secrets = [stack.sandbox.apiKey, stack.sandbox.orgApiKey, stack.sandbox.webhookSecret];

	try {
		await check(
			'AI Agent workflow: published with an OpenAI credential whose Base URL is the scripted model on loopback',
			async () => {
				// The public API refuses data fields the type does not have: "Allowed HTTP Request Domains" only where n8n's schema lists it (not on 1.123.81).
				const schema = await stack.api.get('/credentials/schema/openAiApi');
				expectEqual(schema.status, 200, 'credential schema of openAiApi');
				const domains =
					'allowedHttpRequestDomains' in (schema.data.properties ?? {}) ? DOMAINS_FIELD : {};
				const credential = await stack.api.post('/credentials', {
					name: 'Scripted model (loopback)',
					type: 'openAiApi',
					data: { apiKey: 'sk-scripted-local-model', url: modelUrl, header: false, ...domains },
				});
				expect(
					[200, 201].includes(credential.status),
					`credential (${credential.status} ${JSON.stringify(credential.data).slice(0, 300)})`,
				);
				const nodes = (
					JSON.parse(
						JSON.stringify(fixture.nodes)
							.split(CREDENTIAL_PLACEHOLDER)
							.join(String(credential.data.id)),
					) as any[]
				).map((node) =>
					// n8n 2.x hands a failing tool's error to the model unless the tool node's On Error is "Stop Workflow";
					// n8n 1.x stops the workflow unless it is set to continue (its workflow-execute has no such default).
					onN8n1 && String(node.type).endsWith('.documentSigningTool')
						? { ...node, onError: 'continueRegularOutput' }
						: node,
				);
				const saved = await stack.api.put(`/workflows/${WORKFLOW}`, {
					name: fixture.name,
					nodes,
					connections: fixture.connections,
					settings: fixture.settings,
				});
				expectEqual(
					saved.status,
					200,
					`saving the workflow (${JSON.stringify(saved.data).slice(0, 300)})`,
				);
				const activated = await stack.api.post(`/workflows/${WORKFLOW}/activate`, {});
				expectEqual(
					activated.status,
					200,
					`activation (${JSON.stringify(activated.data).slice(0, 300)})`,
				);
				published = true;
			},
		);

		const signer = { name: 'Ravi Kumar', email: 'ravi.kumar@example.com' };
		model.script('envelope', [
			{
				toolCalls: [
					{
						name: 'Send_Contract_PDF',
						arguments: {
							pdfUrl,
							title: 'Service contract - Ravi Kumar',
							signerName: signer.name,
							signerEmail: signer.email,
						},
					},
				],
			},
			{ text: 'The contract is ready as a draft envelope.' },
		]);
		let envelope: { answer: any; execution: Execution; sent: SandboxRequest[] } | undefined;
		await check(
			'AI Agent: the scripted tool call reaches the sandbox with the right body (Envelope Create from a PDF address)',
			async () => {
				envelope = await ask('envelope', 'Send the service contract to Ravi Kumar.');
				expectEqual(
					envelope.execution.status,
					'success',
					`execution status (${envelope.execution.data?.resultData.error?.message ?? ''})`,
				);
				const calls = model.conversation('envelope');
				log(
					`  chat requests: ${calls.map((c) => `turn ${c.turn}${c.stream ? ' (streamed)' : ''}, ${Buffer.byteLength(c.raw)} bytes`).join('; ')}; other model routes: ${JSON.stringify(model.requests.filter((r) => !r.path.endsWith('/chat/completions')).map((r) => r.path))}`,
				);
				expectEqual(
					calls.map((c) => c.turn),
					[0, 1],
					'chat requests of the conversation (turns)',
				);
				expectEqual(
					[...(calls[0].tools ?? [])].sort(),
					['Create_Document_From_Template', 'Send_Contract_PDF'],
					'tools offered to the model',
				);
				const schema = calls[0].toolSchemas?.Send_Contract_PDF;
				expectEqual(
					Object.keys(schema?.properties ?? {}).sort(),
					['pdfUrl', 'signerEmail', 'signerName', 'title'],
					"Send_Contract_PDF's arguments in the schema the model gets",
				);
				expectEqual(pdfHits, ['/agent-contract.pdf'], 'downloads of the PDF the model named');
				const creates = envelope.sent.filter(
					(r) => r.method === 'POST' && /\/envelopes$/.test(r.path),
				);
				expectEqual(
					creates.length,
					1,
					`envelope creates (${JSON.stringify(envelope.sent.map((r) => `${r.method} ${r.path}`))})`,
				);
				expectEqual(creates[0].body.title, 'Service contract - Ravi Kumar', 'title sent');
				expectEqual(
					creates[0].body.recipients.map((r: any) => [r.name, r.email, r.role]),
					[[signer.name, signer.email, 'signer']],
					'recipients sent',
				);
				expectEqual(
					finalAnswer(envelope.execution),
					'The contract is ready as a draft envelope.',
					"the agent's final answer",
				);
				expectEqual(
					envelope.answer.data?.output,
					'The contract is ready as a draft envelope.',
					"the webhook's answer (the agent's output)",
				);
			},
		);

		await check(
			'AI Agent: the tool result the model receives is the created envelope: its id, status and title, small, no key',
			async () => {
				expect(envelope, 'no run from the previous check');
				const { text, bytes } = toolResult('envelope');
				log(`  tool result for Envelope Create: ${bytes} bytes: ${redact(text).slice(0, 400)}`);
				const parsed = JSON.parse(text);
				const item = Array.isArray(parsed) ? parsed[0] : parsed;
				const stored = await service.get(`/envelopes/${item.id}/status`);
				expectEqual(
					stored.status,
					200,
					`the envelope id the model got (${item.id}) exists in the service`,
				);
				expectEqual(
					[item.status, item.title],
					['draft', 'Service contract - Ravi Kumar'],
					'status and title',
				);
				expect(
					bytes > 0 && bytes <= MAX_ENVELOPE_RESULT_BYTES,
					`tool result of ${bytes} bytes (at most ${MAX_ENVELOPE_RESULT_BYTES})`,
				);
				expect(
					!/fileKey|maxFileSize|expiresIn/.test(text),
					`upload internals in the tool result: ${redact(text).slice(0, 300)}`,
				);
				for (const secret of secrets)
					expect(!text.includes(secret), 'a key or the webhook secret is in the tool result');
				expect(
					!/authorization|bearer/i.test(text),
					`credentials words in the tool result: ${redact(text)}`,
				);
				const everything = model.requests.map((r) => r.raw).join('\n');
				for (const secret of secrets)
					expect(!everything.includes(secret), 'a key or the webhook secret reached the model');
			},
		);

		model.script('streamed', [
			{
				toolCalls: [
					{
						name: 'Send_Contract_PDF',
						arguments: {
							pdfUrl,
							title: 'Service contract - Meera Iyer',
							signerName: 'Meera Iyer',
							signerEmail: 'meera.iyer@example.com',
						},
					},
				],
			},
			{ text: 'The contract for Meera Iyer is ready as a draft.' },
		]);
		await check(
			'AI Agent behind a streaming Webhook: the model is asked with stream on, the tool call reaches the sandbox, the answer streams back',
			async () => {
				const run = await ask(
					'streamed',
					'Send the service contract to Meera Iyer.',
					STREAMED_PATH,
				);
				expectEqual(
					run.execution.status,
					'success',
					`execution status (${run.execution.data?.resultData.error?.message ?? ''})`,
				);
				const calls = model.conversation('streamed');
				expectEqual(
					calls.map((c) => [c.turn, c.stream]),
					[
						[0, true],
						[1, true],
					],
					'chat requests (turn, streamed)',
				);
				const create = run.sent.find((r) => r.method === 'POST' && /\/envelopes$/.test(r.path));
				expectEqual(
					create?.body.recipients.map((r: any) => [r.name, r.email]),
					[['Meera Iyer', 'meera.iyer@example.com']],
					'recipients sent',
				);
				const item = [JSON.parse(toolResult('streamed', run.execution).text)].flat()[0];
				expectEqual(
					[item.status, item.title],
					['draft', 'Service contract - Meera Iyer'],
					'tool result (status, title)',
				);
				const streamed = String(
					typeof run.answer.data === 'string' ? run.answer.data : JSON.stringify(run.answer.data),
				);
				const text = streamed
					.split('\n')
					.filter(Boolean)
					.map((line) => {
						try {
							return JSON.parse(line);
						} catch {
							return {};
						}
					})
					.filter((c: any) => c.type === 'item')
					.map((c: any) => c.content)
					.join('');
				expectEqual(
					text,
					'The contract for Meera Iyer is ready as a draft.',
					`the streamed answer's text (${streamed.slice(0, 300)})`,
				);
			},
		);

		model.script('no-name', [
			{
				toolCalls: [
					{
						name: 'Send_Contract_PDF',
						arguments: {
							pdfUrl,
							title: 'Service contract - no name',
							signerName: '',
							signerEmail: signer.email,
						},
					},
				],
			},
			{ text: 'I need the name of the person who signs.' },
		]);
		let noName: { answer: any; execution: Execution; sent: SandboxRequest[] } | undefined;
		let pdfHitsForNoName = 0;
		await check(
			'AI Agent: a call with a recipient without name gets a readable error naming the field; the workflow still succeeds with the final answer',
			async () => {
				const hitsBefore = pdfHits.length;
				noName = await ask('no-name', 'Send the service contract to ravi.kumar@example.com.');
				pdfHitsForNoName = pdfHits.length - hitsBefore;
				const { text } = toolResult('no-name', noName.execution);
				log(`  tool result the model received: ${redact(text).slice(0, 400)}`);
				expect(
					/Recipient 1 > Name/.test(text) && /required/.test(text),
					`the error names the field (Recipient 1 > Name) and the rule: ${text}`,
				);
				expect(!/at \S+ \(|node_modules/.test(text), `no stack trace in the tool result: ${text}`);
				expectEqual(
					noName.execution.status,
					'success',
					`execution status (${noName.execution.data?.resultData.error?.message ?? ''})`,
				);
				expectEqual(
					finalAnswer(noName.execution),
					'I need the name of the person who signs.',
					"the agent's final answer",
				);
				expectEqual(
					[noName.answer.status, noName.answer.data?.output],
					[200, 'I need the name of the person who signs.'],
					"the webhook's answer",
				);
			},
		);

		await check(
			'AI Agent: no request for the call with a recipient without name: none to the service, no download of the PDF it named',
			async () => {
				expect(noName, 'no run from the previous check');
				expectEqual(
					noName.sent.map((r) => `${r.method} ${r.path}`),
					[],
					'requests the service saw for the invalid call',
				);
				// Envelope Create checks its recipients before it fetches the address a model chose.
				expectEqual(pdfHitsForNoName, 0, 'downloads of the PDF for the invalid call');
			},
		);

		// A template with one role, for Create Document From Template.
		const template = await service.post('/templates', {
			name: 'Service contract (agent)',
			fileName: 'service-contract.pdf',
			recipients: [{ id: 'client', name: 'Client', role: 'signer' }],
		});
		const upload =
			template.status === 201
				? await axios.put(template.data.upload.url, pdf, {
						headers: { 'content-type': 'application/pdf' },
						validateStatus: () => true,
					})
				: undefined;
		const mapping = [
			{ templateRecipientId: 'client', name: 'Asha Rao', email: 'asha.rao@example.com' },
		];
		model.script('document', [
			{
				toolCalls: [
					{
						name: 'Create_Document_From_Template',
						arguments: {
							templateId: template.data?.id,
							title: 'Service contract - Asha Rao',
							recipients: mapping,
						},
					},
				],
			},
			{ text: 'The document was sent to Asha Rao.' },
		]);
		let document: { answer: any; execution: Execution; sent: SandboxRequest[] } | undefined;
		await check(
			'AI Agent: Create Document From Template with recipients as an array: the mapping reaches the sandbox, the model gets the document id',
			async () => {
				expect(
					template.status === 201 && upload && upload.status < 300,
					`template set-up (${template.status}, upload ${upload?.status})`,
				);
				document = await ask('document', 'Send the service contract template to Asha Rao.');
				expectEqual(
					document.execution.status,
					'success',
					`execution status (${document.execution.data?.resultData.error?.message ?? ''})`,
				);
				const create = document.sent.find(
					(r) => r.method === 'POST' && r.path.endsWith(`/templates/${template.data.id}/documents`),
				);
				expect(
					create,
					`no document create in ${JSON.stringify(document.sent.map((r) => `${r.method} ${r.path}`))}`,
				);
				expectEqual(create.body.recipientMapping, mapping, 'recipient mapping sent');
				const { text, bytes } = toolResult('document');
				log(`  tool result for Create Document (sent): ${bytes} bytes`);
				expect(
					bytes > 0 && bytes <= MAX_DOCUMENT_RESULT_BYTES,
					`tool result of ${bytes} bytes (at most ${MAX_DOCUMENT_RESULT_BYTES})`,
				);
				const item = [JSON.parse(text)].flat()[0];
				expectEqual(
					[item.envelopeId, item.status],
					[
						document.sent
							.find((r) => r.path.endsWith('/send'))
							?.path.split('/')
							.at(-2),
						'pending',
					],
					'document id and status',
				);
				for (const secret of secrets)
					expect(!text.includes(secret), 'a key or the webhook secret is in the tool result');
				expectEqual(
					finalAnswer(document.execution),
					'The document was sent to Asha Rao.',
					"the agent's final answer",
				);
			},
		);

		await check(
			'AI Agent: the tool result of a sent document carries no signing link (actionUrl)',
			async () => {
				expect(document, 'no run from the previous check');
				const { text } = toolResult('document');
				expect(
					!/actionUrl|\/sign\//.test(text),
					`signing links in the tool result: ${redact(text).slice(0, 600)}`,
				);
			},
		);

		model.script('json-string', [
			{
				toolCalls: [
					{
						name: 'Create_Document_From_Template',
						arguments: {
							templateId: template.data?.id,
							title: 'Service contract - JSON string',
							recipients: JSON.stringify(mapping),
						},
					},
				],
			},
			{ text: 'I will send the recipients as a list.' },
		]);
		await check(
			'AI Agent: recipients given as a JSON string are refused with a message naming the field; the service sees no request',
			async () => {
				const run = await ask('json-string', 'Send the service contract template to Asha Rao.');
				const { text } = toolResult('json-string', run.execution);
				log(`  tool result the model received: ${redact(text).slice(0, 400)}`);
				expectEqual(
					run.execution.status,
					'success',
					`execution status (${run.execution.data?.resultData.error?.message ?? ''})`,
				);
				expectEqual(
					run.sent.filter((r) => r.method === 'POST').map((r) => r.path),
					[],
					'POST requests the service saw',
				);
				expect(
					/recipients/i.test(text) && /array|list/i.test(text),
					`the refusal names the field and says it takes an array: ${text}`,
				);
			},
		);
	} finally {
		await stack.api.post(`/workflows/${WORKFLOW}/deactivate`, {});
		await model.close();
		pdfServer.close();
	}
}
