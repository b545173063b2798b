/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error, import-x/no-unresolved -- the SDK's subpaths resolve through its exports map, which the lint's resolver does not read; local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * The example "AI tools over MCP" as a user meets it, through a real MCP client: it
 * publishes as imported; its safeguards hold (a recipient outside Allowed Recipients and a
 * send under Draft Only are refused and the service gets no request); the input schemas
 * are typed (a recipients array taken, a JSON string refused); and the Output option's
 * three modes (fixture mcp-output.json) give the expected fields.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import axios from 'axios';

import { EXAMPLE_TEMPLATE_ID, prepareExampleData } from '../../../scripts/lib/example-data';
import { check, type E2eContext, expect, expectEqual, log, makePdf } from '../lib';

const EXAMPLE_MCP = 'DsExampleMcp0001';
const OUTPUT_WORKFLOW = 'DsE2eMcpOutput01';

interface Tool {
	name: string;
	description?: string;
	inputSchema: { properties?: Record<string, any>; required?: string[] };
}
interface CallResult {
	content: Array<{ type: string; text?: string }>;
	isError?: boolean;
}
const textOf = (result: CallResult) => result.content.map((c) => c.text ?? '').join('\n');
const jsonOf = (result: CallResult): any => {
	const parsed = JSON.parse(textOf(result));
	return Array.isArray(parsed) ? parsed[0] : parsed;
};

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
	examples,
}: E2eContext): Promise<void> {
	expect(examples[EXAMPLE_MCP], 'the example "AI tools over MCP" is missing');
	expect(workflows[OUTPUT_WORKFLOW], 'the Output fixture is missing');
	await prepareExampleData(stack);
	const requests = async () =>
		(
			(await sandbox.get('/requests')).data.items as Array<{
				method: string;
				path: string;
				body: any;
			}>
		).filter((r) => r.path.startsWith('/api/v1/'));

	/** A connected MCP client; n8n answers 404 for a moment after publishing. */
	async function connect(path: string): Promise<Client> {
		for (let attempt = 0; ; attempt++) {
			const client = new Client({ name: 'document-signing-e2e', version: '1.0.0' });
			try {
				await client.connect(
					new StreamableHTTPClientTransport(new URL(`${stack.n8nUrl}/mcp/${path}`)),
				);
				return client;
			} catch (error) {
				if (attempt >= 20) throw error;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	}

	await check(
		'example "AI tools over MCP": publishes as imported (no credential to add)',
		async () => {
			const published = await stack.api.post(`/workflows/${EXAMPLE_MCP}/activate`, {});
			expectEqual(
				published.status,
				200,
				`publishing answered ${JSON.stringify(published.data).slice(0, 300)}`,
			);
		},
	);

	const client = await connect('document-signing');
	const call = async (name: string, args: Record<string, unknown>) =>
		(await client.callTool({ name, arguments: args }, undefined, {
			timeout: 60_000,
		})) as CallResult;
	/** Calls the tool and returns its text and the API requests it caused. */
	const callLogged = async (name: string, args: Record<string, unknown>) => {
		const before = (await requests()).length;
		const result = await call(name, args);
		return { result, text: textOf(result), sent: (await requests()).slice(before) };
	};

	await check(
		'its tools: typed inputs, optional ones optional, no template id where the template is fixed, descriptions that say they draft',
		async () => {
			const tools = (await client.listTools()).tools as Tool[];
			const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
			expectEqual(
				Object.keys(byName).sort(),
				[
					'Create_Document_From_Template',
					'Create_Lease',
					'Get_Credit_Balance',
					'Get_Envelope_Status',
					'Get_Template',
					'List_Templates',
					'Prepare_Contract_PDF',
					'Send_Envelope',
				],
				'tool names',
			);
			expect(
				!(byName.List_Templates.inputSchema.required ?? []).includes('nameContains'),
				'List Templates: nameContains is optional',
			);
			const lease = byName.Create_Lease.inputSchema;
			expectEqual(
				Object.keys(lease.properties ?? {}).sort(),
				['furnished', 'monthlyRent', 'propertyAddress', 'tenantEmail', 'tenantName', 'title'],
				'Create Lease inputs',
			);
			expectEqual(
				[lease.properties?.monthlyRent?.type, lease.properties?.furnished?.type],
				['number', 'boolean'],
				'prefill input types',
			);
			// n8n's MCP trigger lists a 'json' input without the array/object schema n8n-workflow
			// attaches (it still refuses anything else when called): the description carries the shape.
			const recipients =
				byName.Create_Document_From_Template.inputSchema.properties?.recipients ?? {};
			log(`  listed recipients schema: ${JSON.stringify(recipients).slice(0, 200)}`);
			expect(
				/An array, not a string/.test(String(recipients.description)) &&
					/templateRecipientId/.test(String(recipients.description)),
				`the recipients input says its shape: ${JSON.stringify(recipients)}`,
			);
			expect(
				recipients.type === undefined ||
					recipients.type === 'array' ||
					/"array"/.test(JSON.stringify(recipients.anyOf ?? '')),
				`recipients is not typed as something else: ${JSON.stringify(recipients)}`,
			);
			expect(
				/as a draft/.test(String(byName.Create_Lease.description)) &&
					/Draft Only/.test(String(byName.Create_Lease.description)),
				`Create Lease says it drafts: ${byName.Create_Lease.description}`,
			);
			expect(
				/Draft Only: it never sends/.test(String(byName.Send_Envelope.description)),
				`Send Envelope says it never sends: ${byName.Send_Envelope.description}`,
			);
			expect(
				/nothing is sent/.test(String(byName.Prepare_Contract_PDF.description)),
				`Prepare Contract PDF says it drafts: ${byName.Prepare_Contract_PDF.description}`,
			);
			expect(
				!/Aadhaar|national/i.test(String(byName.Get_Credit_Balance.description)),
				`Get Credit Balance: ${byName.Get_Credit_Balance.description}`,
			);
		},
	);

	const lease = {
		title: 'Lease - Asha Rao',
		tenantName: 'Asha Rao',
		tenantEmail: 'asha.rao@example.com',
		propertyAddress: '12 MG Road, Bengaluru',
		monthlyRent: 25000,
	};
	let draftId = '';
	await check(
		'Create_Lease: the example template filled (prefill from the model), created as a draft and not sent, no signing link',
		async () => {
			const { result, text, sent } = await callLogged('Create_Lease', lease);
			expect(!result.isError, `tool error: ${text}`);
			const document = jsonOf(result);
			draftId = String(document.envelopeId);
			expectEqual(document.status, 'draft', 'status');
			expect(!/actionUrl/.test(text), 'no signing link in the output');
			const create = sent.find(
				(r) =>
					r.method === 'POST' && r.path.endsWith(`/templates/${EXAMPLE_TEMPLATE_ID}/documents`),
			);
			expect(
				create,
				`no document creation in ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}`))}`,
			);
			const values = Object.fromEntries(
				(create.body.prefillValues as any[]).map((p) => [p.fieldKey, p.value]),
			);
			expectEqual(
				[values.property_address, values.monthly_rent],
				['12 MG Road, Bengaluru', 25000],
				'prefill values sent',
			);
			expect(!sent.some((r) => r.path.endsWith('/send')), 'nothing was sent');
		},
	);

	const refusals: Array<[string, string, Record<string, unknown>, RegExp]> = [
		[
			'Create_Lease',
			'a tenant outside Allowed Recipients',
			{ ...lease, tenantEmail: 'mallory@evil.example.net' },
			/Recipients: not an allowed recipient .*e-mail mallory@evil\.example\.net\. Allowed: e-mail addresses at example\.com/,
		],
		[
			'Prepare_Contract_PDF',
			'a signer outside Allowed Recipients (refused before the PDF is fetched)',
			{
				pdfUrl: 'https://files.example.org/contract.pdf',
				title: 'Contract',
				signerName: 'Mallory',
				signerEmail: 'mallory@evil.example.net',
			},
			/not an allowed recipient .*mallory@evil\.example\.net/,
		],
	];
	for (const [tool, what, args, refusal] of refusals) {
		await check(
			`${tool} with ${what}: refused with what is allowed, and the service gets no request`,
			async () => {
				const { text, sent } = await callLogged(tool, args);
				log(`  agent-facing error: ${text.slice(0, 300)}`);
				expect(
					refusal.test(text),
					`the refusal names the field, the address and what is allowed: ${text}`,
				);
				expectEqual(
					sent.map((r) => `${r.method} ${r.path}`),
					[],
					'requests to the service',
				);
			},
		);
	}

	await check(
		'Send_Envelope under Draft Only: refused, saying a person sends it; the draft stays a draft, no request',
		async () => {
			expect(draftId, 'no draft from the Create Lease check');
			const { text, sent } = await callLogged('Send_Envelope', { envelopeId: draftId });
			log(`  agent-facing error: ${text.slice(0, 300)}`);
			expect(
				/Draft Only is on: this node does not send; envelope \S+ was not sent and stays a draft\. A person sends it\./.test(
					text,
				),
				`the refusal: ${text}`,
			);
			expectEqual(
				sent.map((r) => `${r.method} ${r.path}`),
				[],
				'requests to the service',
			);
			expectEqual(
				(await service.get(`/envelopes/${draftId}/status`)).data.status,
				'draft',
				'status in the service',
			);
		},
	);

	await check(
		'Create_Document_From_Template: a recipients array is taken; the same list as a JSON string is refused readably, nothing sent',
		async () => {
			const template = await service.post('/templates', {
				name: 'Consent form (MCP)',
				fileName: 'consent.pdf',
				recipients: [{ id: 'client', name: 'Client', role: 'signer' }],
			});
			expectEqual(template.status, 201, 'template created');
			await axios.put(template.data.upload.url, await makePdf('Consent form'), {
				headers: { 'content-type': 'application/pdf' },
			});
			const recipients = [
				{ templateRecipientId: 'client', name: 'Ravi Kumar', email: 'ravi.kumar@example.com' },
			];
			const base = { templateId: template.data.id, title: 'Consent - Ravi Kumar' };
			const taken = await callLogged('Create_Document_From_Template', { ...base, recipients });
			expect(!taken.result.isError, `tool error: ${taken.text}`);
			expectEqual(jsonOf(taken.result).status, 'draft', 'created as a draft');
			expectEqual(
				taken.sent.find((r) => r.path.endsWith('/documents'))?.body.recipientMapping,
				recipients,
				'mapping sent',
			);

			const refused = await callLogged('Create_Document_From_Template', {
				...base,
				recipients: JSON.stringify(recipients),
			});
			log(`  agent-facing error: ${refused.text.slice(0, 300)}`);
			expect(
				/recipients/i.test(refused.text) && /array/i.test(refused.text),
				`the refusal names recipients and says an array is wanted: ${refused.text}`,
			);
			expectEqual(
				refused.sent.filter((r) => r.method === 'POST').length,
				0,
				'POST requests after the JSON string',
			);
		},
	);
	await client.close().catch(() => undefined);

	await check(
		'Output over MCP: Simplified (default), Raw and Selected Fields give their fields',
		async () => {
			expect(draftId, 'no draft from the Create Lease check');
			const outputs = await connect('e2e-output');
			const get = async (name: string) => {
				const result = (await outputs.callTool(
					{ name, arguments: { envelopeId: draftId } },
					undefined,
					{ timeout: 60_000 },
				)) as CallResult;
				expect(!result.isError, `${name}: ${textOf(result)}`);
				return jsonOf(result);
			};
			const simple = await get('Status_Simplified');
			const raw = await get('Status_Raw');
			const selected = await get('Status_Selected_Fields');
			log(
				`  bytes: raw ${JSON.stringify(raw).length}, simplified ${JSON.stringify(simple).length}, selected ${JSON.stringify(selected).length}`,
			);
			expectEqual(
				Object.keys(simple).sort(),
				['completedCount', 'envelopeId', 'percentage', 'recipients', 'status', 'totalRecipients'],
				'Simplified fields',
			);
			expectEqual(
				Object.keys(simple.recipients[0])
					.sort()
					.filter((k) => k !== 'signedAt'),
				['email', 'name', 'status'],
				'Simplified recipient fields',
			);
			expect(
				Object.keys(raw).length >= Object.keys(simple).length &&
					Object.keys(raw.recipients[0]).includes('order'),
				`Raw keeps the whole answer: ${JSON.stringify(raw).slice(0, 300)}`,
			);
			expectEqual(selected, { status: 'draft', percentage: raw.percentage }, 'Selected Fields');
			await outputs.close().catch(() => undefined);
		},
	);
}
