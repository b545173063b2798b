/**
 * Bad template input never reaches the service: each case runs a real workflow, expects
 * an error naming the field and the rule, and finds no request in the sandbox's log.
 * Continue On Fail: one bad item among good ones becomes one error item, paired.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, type SeedItem, startHarness } from '../harness';
import {
	byId,
	CLIENT,
	errorText,
	LEGAL,
	makePdf,
	type Params,
	pdfItem,
	runTemplateOp,
} from './helpers';

interface Case {
	name: string;
	params: Params;
	/** Input items; a valid PDF item by default. */
	input?: () => SeedItem[];
	/** Texts the error must contain: the field, then the rule. */
	expect: string[];
}

let pdf: Buffer;

const signField = (over: IDataObject = {}) => ({
	fieldKey: 'client_sign',
	type: 'signature',
	assignee: 'recipient',
	templateRecipientId: 'client',
	pageNumber: 1,
	x: 10,
	y: 10,
	width: 100,
	height: 40,
	...over,
});

const createWith = (overrides: Params): Params => ({
	operation: 'create',
	name: 'Lease',
	recipients: { recipient: [CLIENT, LEGAL] },
	formFields: { field: [signField()] },
	...overrides,
});
const withFields = (...fields: IDataObject[]) => createWith({ formFields: { field: fields } });
const withJsonFields = (json: string) =>
	createWith({ formFieldsInput: 'json', formFieldsJson: json });

const many = (n: number) =>
	Array.from({ length: n }, (_, k) => ({ id: `r${k + 1}`, name: `Role ${k + 1}` }));

const cases: Case[] = [
	// template
	{
		name: 'empty name (mapped)',
		params: createWith({ name: '={{ "" }}' }),
		expect: ['Name', 'is required'],
	},
	{
		name: 'not a PDF',
		params: createWith({}),
		input: () => [pdfItem(Buffer.from('hello'), {}, 'a.txt')],
		expect: ['Binary property "data"', 'not a PDF'],
	},
	{ name: 'no binary data', params: createWith({}), input: () => [{ json: {} }], expect: ['data'] },
	// recipients
	{
		name: 'recipient without an id (mapped empty)',
		params: createWith({
			recipients: { recipient: [{ id: '={{ "" }}', name: 'Client', role: 'signer' }] },
		}),
		expect: ['Recipients: recipient 1 (Client) needs a Recipient ID'],
	},
	{
		name: 'recipient without an id (JSON)',
		params: createWith({
			recipientsInput: 'json',
			recipientsJson: '[{"name":"Client"}]',
			formFields: {},
		}),
		expect: ['needs a Recipient ID'],
	},
	{
		name: 'duplicate recipient ids',
		params: createWith({ recipients: { recipient: [CLIENT, { ...CLIENT, name: 'Other' }] } }),
		expect: ['Recipient 2 > ID', 'duplicate recipient id "client"'],
	},
	{
		name: 'more than 15 recipients',
		params: createWith({
			recipientsInput: 'json',
			recipientsJson: JSON.stringify(many(16)),
			formFields: {},
		}),
		expect: ['Recipients', 'at most 15'],
	},
	{
		name: 'recipients JSON not valid',
		params: createWith({ recipientsInput: 'json', recipientsJson: '[{' }),
		expect: ['Recipients (JSON): not valid JSON'],
	},
	{
		name: 'bad recipient e-mail',
		params: createWith({ recipients: { recipient: [{ ...CLIENT, email: 'not-mail' }] } }),
		expect: ['Recipient 1 > Email', 'is not a valid email address'],
	},
	// form fields
	{
		name: 'signature field filled by the sender',
		params: withFields(signField({ assignee: 'sender_prefill' })),
		expect: ['Form Field 1 > Assignee > Type', 'signature fields must belong to a recipient'],
	},
	{
		name: 'recipient field without a recipient id',
		params: withFields(signField({ templateRecipientId: '' })),
		expect: [
			'Form Field 1 > Assignee > Template Recipient ID',
			"is required when assignee.type is 'recipient'",
		],
	},
	{
		name: 'field assigned to an unknown recipient',
		params: withFields(signField({ templateRecipientId: 'nobody' })),
		expect: ['Form Field 1 > Assignee > Template Recipient ID', '"nobody" is not a recipient id'],
	},
	{
		name: 'duplicate field keys',
		params: withFields(signField(), signField({ templateRecipientId: 'legal' })),
		expect: ['Form Field 2 > Field Key', 'duplicate field key "client_sign"'],
	},
	{
		name: 'field without a key (mapped)',
		params: withFields(signField({ fieldKey: '={{ "" }}' })),
		expect: ['Form Field 1 > Field Key', 'is required'],
	},
	{
		name: 'width below 1 (JSON)',
		params: withJsonFields(
			JSON.stringify([
				{
					fieldKey: 'a',
					type: 'text',
					pageNumber: 1,
					x: 0,
					y: 0,
					width: 0,
					height: 10,
					assignee: { type: 'sender_prefill' },
				},
			]),
		),
		expect: ['Form Field 1 > Width', 'at least 1'],
	},
	{
		name: 'page 0 (JSON)',
		params: withJsonFields(
			JSON.stringify([
				{
					fieldKey: 'a',
					type: 'text',
					pageNumber: 0,
					x: 0,
					y: 0,
					width: 10,
					height: 10,
					assignee: { type: 'sender_prefill' },
				},
			]),
		),
		expect: ['Form Field 1 > Page', 'pages start at 1'],
	},
	{
		name: 'form fields JSON not an array',
		params: withJsonFields('"text"'),
		expect: ['Form Fields (JSON): must be an array'],
	},
	// signing settings
	{
		name: 'redirect URL not HTTPS',
		params: createWith({ signingSettings: { redirectUrl: 'http://example.com' } }),
		expect: ['Signing Settings > Redirect URL', 'HTTPS'],
	},
	// other operations
	{
		name: 'update: nothing chosen',
		params: { operation: 'update', templateId: byId('tpl_1'), updateParts: [] },
		expect: ['What to Update'],
	},
	{
		name: 'update: recipients replaced, one without an id',
		params: {
			operation: 'update',
			templateId: byId('tpl_1'),
			updateParts: ['recipients'],
			recipients: { recipient: [{ id: '={{ $json.missing }}', name: 'X' }] },
		},
		expect: ['needs a Recipient ID'],
	},
	{
		name: 'update: fields assigned to recipients not in the new list',
		params: {
			operation: 'update',
			templateId: byId('tpl_1'),
			updateParts: ['recipients', 'formFields'],
			recipients: { recipient: [LEGAL] },
			formFields: { field: [signField()] },
		},
		expect: ['Form Field 1 > Assignee > Template Recipient ID', 'not a recipient id'],
	},
	{
		name: 'template id ".."',
		params: { operation: 'get', templateId: byId('..') },
		expect: ['Template', 'is not an ID'],
	},
	{
		name: 'template id empty (mapped)',
		params: { operation: 'deleteTemplate', templateId: byId('={{ "" }}') },
		expect: ['Template: a template ID is required'],
	},
	{
		name: 'getMany: status not a template status',
		params: { operation: 'getMany', filters: { status: 'draft' } },
		expect: ['Status', 'must be one of'],
	},
];

describe('template bad inputs', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it.each(cases.map((c) => [c.name, c]))('%s: refused before any request', async (_name, c) => {
		const run = await runTemplateOp(h, c.params, c.input ? c.input() : [pdfItem(pdf)]);
		expect(run.result.error).toBeDefined();
		const text = errorText(run);
		for (const part of c.expect) expect(text).toContain(part);
		expect(run.requests).toEqual([]);
	});

	it('Continue On Fail: one bad item among good ones becomes one error item, paired; the others are created', async () => {
		const input: SeedItem[] = [
			pdfItem(pdf, { name: 'Lease A' }),
			pdfItem(pdf, { name: '' }),
			pdfItem(pdf, { name: 'Lease C' }),
		];
		const run = await runTemplateOp(h, createWith({ name: '={{ $json.name }}' }), input, {
			continueOnFail: true,
		});
		expect(run.result.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(run.items[0].json).toMatchObject({ name: 'Lease A' });
		expect(run.items[1].json.error).toContain('Name');
		expect(run.items[2].json).toMatchObject({ name: 'Lease C' });
		const created = run.requests.filter(
			(r) => r.method === 'POST' && r.path.endsWith('/templates'),
		);
		expect(created).toHaveLength(2);
		const list = await h.api<{ items: IDataObject[] }>('GET', '/templates');
		expect(list.items.map((t) => t.name).sort()).toEqual(['Lease A', 'Lease C']);
	});

	it('Continue On Fail with an API error: the failing item names the code, the others go on', async () => {
		const created = await h.api<IDataObject>('POST', '/templates', {
			name: 'Kept',
			fileName: 'k.pdf',
		});
		const input: SeedItem[] = [
			{ json: { id: created.id } },
			{ json: { id: 'tpl_missing' } },
			{ json: { id: created.id } },
		];
		const run = await runTemplateOp(
			h,
			{ operation: 'get', templateId: byId('={{ $json.id }}') },
			input,
			{ continueOnFail: true },
		);
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(run.items[0].json).toMatchObject({ id: created.id, name: 'Kept' });
		expect(run.items[1].json).toMatchObject({ code: 'NOT_FOUND' });
		expect(run.items[2].json).toMatchObject({ id: created.id });
	});
});
