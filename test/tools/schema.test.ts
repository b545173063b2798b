/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * What a model is told by the example's MCP tools, computed as n8n 2.41.1 and 1.123.81 both
 * compute it (n8n-workflow's traverseNodeParameters and generateZodSchema, the parts
 * n8n-core's createNodeAsTool uses; the tool description is the resolved default of the
 * variant shown for the tool's configuration); and a recipients JSON string refused in a
 * real tool run, as the MCP Server Trigger's schema refuses it.
 */
import { readFileSync } from 'fs';
import path from 'path';
import type { FromAIArgument, INode, INodeParameters, NodeParameterValueType } from 'n8n-workflow';
import { generateZodSchema, NodeHelpers, traverseNodeParameters } from 'n8n-workflow';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { byId, seedTemplate } from '../template/helpers';

const example = JSON.parse(
	readFileSync(path.join(__dirname, '../../examples/ai-mcp-prepare-contracts.json'), 'utf8'),
) as { nodes: INode[] };
const toolNode = (name: string) => {
	const node = example.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`no tool "${name}" in the example`);
	return node;
};

/** The tool's input schema as JSON Schema, built as n8n builds it. */
function inputSchema(node: INode) {
	const args: FromAIArgument[] = [];
	traverseNodeParameters(node.parameters, args);
	const shape = Object.fromEntries(args.map((a) => [a.key, generateZodSchema(a)]));
	const schema = z.object(shape).required();
	return {
		zod: schema,
		json: zodToJsonSchema(schema) as {
			properties: Record<string, { type?: string; anyOf?: unknown[] }>;
			required?: string[];
		},
	};
}

/** The tool description n8n gives the model for this configuration (the default of the variant shown). */
function toolDescriptionOf(parameters: INodeParameters, typeVersion = 1.2): string {
	const description = { ...new DocumentSigning().description, name: 'documentSigningTool' };
	const node = { ...toolNode('Get Credit Balance'), typeVersion, parameters };
	const resolved = NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node,
		description,
	);
	return String(resolved?.toolDescription);
}

describe('the example MCP tools: input schemas and descriptions', () => {
	it('List Templates: nameContains is optional (its default is empty)', () => {
		const { json } = inputSchema(toolNode('List Templates'));
		expect(Object.keys(json.properties)).toEqual(['nameContains']);
		expect(json.required ?? []).not.toContain('nameContains');
	});

	it('Create Lease: the template is fixed, so no template id is asked for; the prefill fields are typed', () => {
		const { json } = inputSchema(toolNode('Create Lease'));
		expect(Object.keys(json.properties).sort()).toEqual([
			'furnished',
			'monthlyRent',
			'propertyAddress',
			'tenantEmail',
			'tenantName',
			'title',
		]);
		expect(json.properties.monthlyRent.type).toBe('number');
		expect(json.properties.furnished.type).toBe('boolean');
		expect((json.required ?? []).sort()).toEqual([
			'monthlyRent',
			'propertyAddress',
			'tenantEmail',
			'tenantName',
			'title',
		]);
	});

	it('Create Document From Template: recipients is an array (or object), a JSON string does not match', () => {
		const { zod } = inputSchema(toolNode('Create Document From Template'));
		// The JSON Schema n8n attaches to a 'json' input (MCP clients and models read it).
		const attached = (zod.shape.recipients as unknown as { _def: { jsonSchema?: unknown } })._def
			.jsonSchema;
		expect(JSON.stringify(attached)).toContain('"type":"array"');
		const base = { templateId: 'tpl_1', title: 'Lease' };
		const recipients = [
			{ templateRecipientId: 'client', name: 'Asha Rao', email: 'asha@example.com' },
		];
		expect(zod.safeParse({ ...base, recipients }).success).toBe(true);
		expect(zod.safeParse({ ...base, recipients: JSON.stringify(recipients) }).success).toBe(false);
	});

	it('descriptions follow the configuration: drafts say so, Draft Only sends nothing, no national-ID talk', () => {
		const lease = toolDescriptionOf(toolNode('Create Lease').parameters);
		expect(lease).toMatch(/as a draft/);
		expect(lease).toMatch(/Draft Only: it never sends/);
		expect(lease).not.toMatch(/Needs: the template id/);
		const sending = toolDescriptionOf({
			...toolNode('Create Lease').parameters,
			draftOnly: false,
			sendImmediately: true,
		});
		expect(sending).toMatch(/send it to them at once/);
		const drafting = toolDescriptionOf({
			...toolNode('Create Lease').parameters,
			draftOnly: false,
		});
		expect(drafting).toMatch(/as a draft \(not sent\)/);
		expect(toolDescriptionOf(toolNode('Send Envelope').parameters)).toMatch(
			/^Would send .* Draft Only: it never sends/,
		);
		expect(toolDescriptionOf(toolNode('Prepare Contract PDF').parameters)).toMatch(
			/nothing is sent/,
		);
		expect(toolDescriptionOf(toolNode('Get Credit Balance').parameters)).not.toMatch(
			/Aadhaar|national/i,
		);
		// Version 1.1 keeps its texts.
		expect(
			toolDescriptionOf({ ...toolNode('Create Lease').parameters, draftOnly: false }, 1.1),
		).toMatch(/only when the tool is set to send immediately/);
	});
});

describe('a recipients JSON string in a tool run', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHarness({ nodeTypes: { documentSigningTool: new DocumentSigning() } });
	});
	afterAll(async () => await h.close());

	async function callTool(recipients: unknown) {
		const template = await seedTemplate(h, {
			recipients: [{ id: 'client', name: 'Client', role: 'signer' }],
			formFields: [],
		});
		const node = actionNode(
			{
				resource: 'template',
				operation: 'createDocument',
				templateId: byId(String(template.id)),
				title: 'Lease',
				recipientsInput: 'json',
				recipientMappingJson: "={{ $fromAI('recipients', 'Array of recipients', 'json') }}",
			} as Record<string, NodeParameterValueType>,
			{ continueOnFail: true },
		);
		node.type = 'documentSigningTool';
		const before = (await h.requests()).length;
		// $fromAI reads the item the tool is called with (n8n passes the model's arguments so).
		const result = await h.run({
			nodes: [seedNode(), node],
			connections: chain('Seed', 'Document Signing'),
			input: [{ json: { recipients } as never }],
		});
		const requests = (await h.requests()).slice(before).filter((r) => r.path.includes('/api/v1/'));
		return { json: result.items('Document Signing')[0].json, requests };
	}
	const recipients = [
		{ templateRecipientId: 'client', name: 'Asha Rao', email: 'asha@example.com' },
	];

	it('an array is taken', async () => {
		const { json, requests } = await callTool(recipients);
		expect(json.error).toBeUndefined();
		expect(json.status).toBe('draft');
		expect(requests.some((r) => r.method === 'POST' && r.path.endsWith('/documents'))).toBe(true);
	});

	it('the same list as a string is refused before any request, saying what to pass', async () => {
		const { json, requests } = await callTool(JSON.stringify(recipients));
		expect(String(json.error)).toBe(
			'Recipients (JSON): got a text (a JSON string) where an array of objects is expected; pass the list itself, e.g. [{"name": "Asha Rao", "email": "asha@example.com"}], not a string holding it',
		);
		expect(requests).toEqual([]);
	});
});
