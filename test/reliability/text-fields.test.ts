/**
 * Free-text fields and ids mapped from data: a number or a boolean is taken as its text,
 * an object or an array is refused before any request with an error naming the field and
 * what it received (never "trim is not a function" or "[object Object]"); null is taken as
 * absent (test/inputs/null-text.test.ts). Limit
 * and Max Items: a whole number within their range, else refused naming the field.
 */
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { recipientFields, SIGNER } from '../envelope/helpers';

const V = '={{ $json.v }}';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const byV = { __rl: true, mode: 'id', value: V };

interface Field {
	/** What the row is, e.g. "envelope create: Title". */
	name: string;
	/** The label the error must name. */
	label: string;
	params: IDataObject;
	/** The operation reaches the service with this field alone filled by the item. */
	sends?: boolean;
}

const fields: Field[] = [
	{
		name: 'envelope create: Title',
		label: 'Title',
		params: {
			resource: 'envelope',
			operation: 'create',
			pdfSource: 'binary',
			binaryPropertyName: 'data',
			title: V,
			recipients: recipientFields([SIGNER]),
		},
	},
	{
		name: 'envelope create: File Name',
		label: 'File Name',
		params: {
			resource: 'envelope',
			operation: 'create',
			pdfSource: 'url',
			pdfUrl: 'http://127.0.0.1:9/a.pdf',
			fileName: V,
			title: 'NDA',
			recipients: recipientFields([SIGNER]),
		},
	},
	{
		name: 'envelope get status: Envelope ID',
		sends: true,
		label: 'Envelope',
		params: { resource: 'envelope', operation: 'getStatus', envelopeId: byV },
	},
	{
		name: 'template create: Name',
		label: 'Name',
		params: { resource: 'template', operation: 'create', name: V },
	},
	{
		name: 'template create: Description',
		label: 'Description',
		params: { resource: 'template', operation: 'create', name: 'NDA', description: V },
	},
	{
		name: 'template create document: Title',
		label: 'Title',
		params: {
			resource: 'template',
			operation: 'createDocument',
			templateId: byId('tpl_1'),
			title: V,
		},
	},
	{
		name: 'template duplicate: New Name',
		sends: true,
		label: 'New Name',
		params: { resource: 'template', operation: 'duplicate', templateId: byId('tpl_1'), newName: V },
	},
	{
		name: 'template update: Name',
		sends: true,
		label: 'Name',
		params: {
			resource: 'template',
			operation: 'update',
			templateId: byId('tpl_1'),
			updateParts: ['name'],
			name: V,
		},
	},
	{
		name: 'template update: Description',
		sends: true,
		label: 'Description',
		params: {
			resource: 'template',
			operation: 'update',
			templateId: byId('tpl_1'),
			updateParts: ['description'],
			description: V,
		},
	},
	{
		name: 'template get: Template ID',
		sends: true,
		label: 'Template',
		params: { resource: 'template', operation: 'get', templateId: byV },
	},
	{
		name: 'signing workflow create: Name',
		label: 'Name',
		params: { resource: 'workflow', operation: 'create', name: V },
	},
	{
		name: 'signing workflow create: Description',
		label: 'Description',
		params: { resource: 'workflow', operation: 'create', name: 'Flow', description: V },
	},
	{
		name: 'signing workflow update: Name',
		sends: true,
		label: 'Name',
		params: {
			resource: 'workflow',
			operation: 'update',
			workflowId: byId('wf_1'),
			updateParts: ['name'],
			name: V,
		},
	},
	{
		name: 'signing workflow run: Title',
		label: 'Title',
		params: { resource: 'workflow', operation: 'run', workflowId: byId('wf_1'), title: V },
	},
	{
		name: 'signing workflow run: Custom Key',
		label: 'Custom Key',
		params: {
			resource: 'workflow',
			operation: 'run',
			workflowId: byId('wf_1'),
			title: 'Run',
			idempotency: 'custom',
			idempotencyKey: V,
		},
	},
];

const refused: Array<[string, unknown, string]> = [
	['an object', { invoice: 7 }, 'received an object'],
	['an array', [1, 2], 'received an array (2 entries)'],
];

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());

async function runItems(params: IDataObject, values: unknown[]) {
	const before = (await h.requests()).length;
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode(params as Record<string, NodeParameterValueType>, { continueOnFail: true }),
		],
		connections: chain('Seed', 'Document Signing'),
		input: values.map((v) => ({ json: { v } as IDataObject })),
	});
	const requests = (await h.requests()).slice(before);
	return { result, items: result.items('Document Signing'), requests };
}

describe.each(fields.map((field) => [field.name, field] as const))('%s', (_name, field) => {
	it.each(refused)(
		'refuses %s before any request, naming the field and what it received',
		async (_kind, value, said) => {
			const run = await runItems(field.params, [value]);
			expect(run.result.error).toBeUndefined();
			const error = String(run.items[0].json.error);
			expect(error).toContain(`${field.label}: must be text, a number or true/false, but ${said}`);
			expect(error).not.toMatch(/is not a function|\[object Object\]/);
			expect(run.requests).toHaveLength(0);
		},
	);

	it('takes a number and a boolean as their text', async () => {
		const run = await runItems(field.params, [42, true]);
		for (const item of run.items)
			expect(String(item.json.error ?? '')).not.toContain('must be text');
		if (!field.sends) return; // refused for another field first: the one check is above
		// the service got the text: "42" in the body or /42 in the path, not the number 42
		const sent = run.requests.map((r) => JSON.stringify([r.path, r.body]));
		expect(sent).toHaveLength(2);
		for (const text of ['42', 'true']) {
			const asText = new RegExp(`"${text}"|/${text}[/"]`);
			expect(sent.filter((request) => asText.test(request))).toHaveLength(1);
		}
	});
});

describe('Limit and Max Items', () => {
	const list = (extra: IDataObject) => ({ resource: 'envelope', operation: 'getMany', ...extra });
	it.each<[string, unknown, string]>([
		['text that is not a number', 'abc', 'received "abc"'],
		['0', 0, 'received the number 0'],
		['-5', -5, 'received the number -5'],
		['2.5', 2.5, 'received the number 2.5'],
		['above the maximum', 100_001, 'received the number 100001'],
		['an object', { n: 1 }, 'received an object'],
	])('Limit %s is refused naming the field, with no request', async (_name, value, said) => {
		const run = await runItems(list({ returnAll: false, limit: V }), [value]);
		expect(String(run.items[0].json.error)).toBe(
			`Limit: must be a whole number from 1 to 100000, but ${said}`,
		);
		expect(run.requests).toHaveLength(0);
	});

	it('Limit 3 as text reads three items', async () => {
		for (let n = 0; n < 4; n++)
			await h.api('POST', '/envelopes', {
				fileName: 'a.pdf',
				title: `L${n}`,
				recipients: [SIGNER],
			});
		const run = await runItems(list({ returnAll: false, limit: V }), ['3']);
		expect(run.items).toHaveLength(3);
		expect(run.requests[0].query).toMatchObject({ limit: '3' });
	});

	it('Max Items 0 is refused naming the field', async () => {
		const run = await runItems(list({ returnAll: true, maxItems: V }), [0]);
		expect(String(run.items[0].json.error)).toBe(
			'Max Items: must be a whole number from 1 to 100000, but received the number 0',
		);
		expect(run.requests).toHaveLength(0);
	});
});
