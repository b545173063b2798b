/**
 * Bad mappings and prefill never reach the service's write endpoints. Rules that need no
 * template are refused before any request; rules that need the template's roles and
 * fields are refused after reading it (one GET), before any document is created.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import {
	byId,
	CONTACTS,
	createDocumentParams,
	errorText,
	mapped,
	runTemplateOp,
	seedLease,
	tenant,
} from './helpers';

interface Case {
	name: string;
	params: (templateId: string) => IDataObject;
	/** Texts the error must contain: the field, then the rule. */
	expect: string[];
}

const json = (entries: unknown) => ({
	recipientsInput: 'json',
	recipientMappingJson: JSON.stringify(entries),
});
const both = [
	{ templateRecipientId: 'tenant', name: 'T', email: 't@example.com' },
	{ templateRecipientId: 'agent', name: 'A', email: 'a@example.com' },
];
const contacts = (over: IDataObject) => ({ recipientMapping: mapped({ ...CONTACTS, ...over }) });

/** Refused before any request. */
const offline: Case[] = [
	{
		name: 'a role without a contact',
		params: (id) => createDocumentParams(id, contacts({ 'agent.phone': '' })),
		expect: ['Recipient 2 (', '"agent"', 'each recipient needs a contact'],
	},
	{
		name: 'a bad e-mail',
		params: (id) => createDocumentParams(id, contacts({ 'tenant.email': 'not-mail' })),
		expect: ['Recipient 1', 'Email', 'is not a valid email address'],
	},
	{
		name: 'a phone not in E.164',
		params: (id) => createDocumentParams(id, contacts({ 'agent.phone': '98765' })),
		expect: ['phone', 'E.164'],
	},
	{
		name: 'a role without a name (mapped empty)',
		params: (id) => createDocumentParams(id, contacts({ 'tenant.name': '={{ "" }}' })),
		expect: ['Recipient 1', 'Name', 'is required'],
	},
	{
		name: 'an empty title',
		params: (id) => createDocumentParams(id, { title: '={{ "" }}' }),
		expect: ['Title', 'is required'],
	},
	{
		name: 'a role mapped twice (JSON)',
		params: (id) => createDocumentParams(id, json([...both, both[0]])),
		expect: ['Recipient 3 ("tenant") > Template Recipient ID', 'repeats "tenant"'],
	},
	{
		name: 'more than 15 recipients (JSON)',
		params: (id) =>
			createDocumentParams(
				id,
				json(
					Array.from({ length: 16 }, (_, n) => ({
						templateRecipientId: `r${n}`,
						name: 'X',
						email: 'x@example.com',
					})),
				),
			),
		expect: ['Recipients', 'at most 15'],
	},
	{
		name: 'recipients JSON not valid',
		params: (id) =>
			createDocumentParams(id, { recipientsInput: 'json', recipientMappingJson: '[{' }),
		expect: ['Recipients (JSON): not valid JSON'],
	},
	{
		name: 'a recipient field that is not name, email or phone',
		params: (id) => createDocumentParams(id, contacts({ 'tenant.fax': '123' })),
		expect: ['Recipients: "tenant.fax" is not a recipient field'],
	},
	{
		name: 'a redirect URL not HTTPS (signing settings)',
		params: (id) =>
			createDocumentParams(id, { signingSettings: { redirectUrl: 'http://example.com' } }),
		expect: ['Signing Settings > Redirect URL', 'HTTPS'],
	},
	{
		name: 'template id ".."',
		params: () => createDocumentParams('..'),
		expect: ['Template', 'is not an ID'],
	},
	{
		name: 'send: envelope id empty (mapped)',
		params: () => ({ operation: 'sendDocument', envelopeId: byId('={{ "" }}') }),
		expect: ['Envelope: an envelope ID is required'],
	},
];

/** Refused after reading the template, before any document is created. */
const withTemplate: Case[] = [
	{
		name: 'a role of the template left unmapped',
		params: (id) =>
			createDocumentParams(id, {
				recipientMapping: mapped({ 'tenant.name': 'T', 'tenant.email': 't@example.com' }),
			}),
		expect: ['Recipients', 'missing "agent" (cc, Agent)'],
	},
	{
		name: 'a role the template does not have (JSON)',
		params: (id) =>
			createDocumentParams(
				id,
				json([...both, { templateRecipientId: 'ghost', name: 'G', email: 'g@example.com' }]),
			),
		expect: ['Recipient 3 ("ghost")', 'is not a recipient of this template'],
	},
	{
		name: 'a prefill field the template does not have',
		params: (id) =>
			createDocumentParams(id, { prefill: mapped({ company: 'Acme', colour: 'red' }) }),
		expect: ['Prefill Fields: "colour" is not a field the sender fills'],
	},
	{
		name: 'a recipient-owned field as prefill',
		params: (id) =>
			createDocumentParams(id, { prefill: mapped({ company: 'Acme', tenant_signature: 'x' }) }),
		expect: ['Prefill Fields: "tenant_signature" is not a field the sender fills'],
	},
	{
		name: 'a required field without a value or stored default',
		params: (id) =>
			createDocumentParams(id, { prefill: mapped({ company: '={{ $json.missing }}' }) }),
		expect: ['Prefill Fields', 'required field "company"', 'no stored default'],
	},
	{
		name: 'a number field given text',
		params: (id) =>
			createDocumentParams(id, { prefill: mapped({ company: 'Acme', deposit: 'lots' }) }),
		expect: ['Prefill Fields: "deposit" must be a number'],
	},
	{
		name: 'an option the field does not offer',
		params: (id) =>
			createDocumentParams(id, { prefill: mapped({ company: 'Acme', plan: 'gold' }) }),
		expect: ['Prefill Fields: "plan" must be one of the field\'s options'],
	},
	{
		name: 'a checkbox given a word',
		params: (id) =>
			createDocumentParams(id, { prefill: mapped({ company: 'Acme', furnished: 'maybe' }) }),
		expect: ['Prefill Fields: "furnished" must be a boolean'],
	},
];

describe('document bad inputs', () => {
	let h: Harness;
	let templateId: string;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => {
		await h.reset();
		templateId = await seedLease(h);
	});

	it.each(offline.map((c) => [c.name, c]))('%s: refused before any request', async (_name, c) => {
		const run = await runTemplateOp(h, c.params(templateId), [{ json: tenant(1) }]);
		expect(run.result.error).toBeDefined();
		const text = errorText(run);
		for (const part of c.expect) expect(text).toContain(part);
		expect(run.requests).toEqual([]);
	});

	it.each(withTemplate.map((c) => [c.name, c]))(
		'%s: refused after reading the template, nothing created',
		async (_name, c) => {
			const run = await runTemplateOp(h, c.params(templateId), [{ json: tenant(1) }]);
			expect(run.result.error).toBeDefined();
			const text = errorText(run);
			for (const part of c.expect) expect(text).toContain(part);
			expect(run.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /api/v1/templates/${templateId}`,
			]);
		},
	);

	it('Continue On Fail: one bad item among good ones becomes one error item, paired; the others become documents', async () => {
		const input = [
			{ json: tenant(1) },
			{ json: { name: 'Tenant 2', email: 'broken' } },
			{ json: tenant(3) },
		];
		const run = await runTemplateOp(
			h,
			createDocumentParams(templateId, { sendImmediately: true }),
			input,
			{ continueOnFail: true },
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(run.items[0].json).toMatchObject({ title: 'Lease - Tenant 1', status: 'pending' });
		expect(run.items[1].json.error).toContain('is not a valid email address');
		expect(run.items[2].json).toMatchObject({ title: 'Lease - Tenant 3', status: 'pending' });
		const envelopes = (await h.api<{ items: IDataObject[] }>('GET', '/envelopes')).items;
		expect(envelopes.map((e) => e.title).sort()).toEqual(['Lease - Tenant 1', 'Lease - Tenant 3']);
	});
});
