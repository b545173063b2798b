/** Create Document's role and prefill mappers load in n8n-core's real LoadOptionsContext from the sandbox. */
import type { INodeParameters } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { type Harness, startHarness } from '../harness';
import { loadOptionsContext } from '../harness/load-options';
import { byId, seedLease } from './helpers';

describe('Create Document mappers', () => {
	let h: Harness;
	const { resourceMapping } = new DocumentSigning().methods;
	const parameters = (templateId: string): INodeParameters => ({
		resource: 'template',
		operation: 'createDocument',
		templateId: byId(templateId),
	});

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it('getTemplateRoles: name (required), email and phone for each role, labelled with the role', async () => {
		const id = await seedLease(h, {
			recipients: [
				{ id: 'tenant', name: 'Tenant', role: 'signer' },
				{ id: 'agent', name: 'Agent', role: 'cc', email: 'desk@agency.example' },
			],
		});
		const before = (await h.requests()).length;
		const { fields } = await resourceMapping.getTemplateRoles.call(
			loadOptionsContext(h, parameters(id)),
		);
		expect(fields.map((f) => [f.id, f.displayName, f.required, f.type])).toEqual([
			['tenant.name', 'Tenant (signer): Name', true, 'string'],
			['tenant.email', 'Tenant (signer): Email', false, 'string'],
			['tenant.phone', 'Tenant (signer): Phone', false, 'string'],
			['agent.name', 'Agent (cc): Name', true, 'string'],
			['agent.email', 'Agent (cc): Email', false, 'string'],
			['agent.phone', 'Agent (cc): Phone', false, 'string'],
		]);
		// a contact stored on the template role is offered as the starting value
		expect(fields.find((f) => f.id === 'agent.email')?.defaultValue).toBe('desk@agency.example');
		const requests = (await h.requests()).slice(before);
		expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v1/templates/${id}`]);
	});

	it('getPrefillFields: sender fields only, typed from the field type, required unless a stored default covers them', async () => {
		const id = await seedLease(h);
		const { fields } = await resourceMapping.getPrefillFields.call(
			loadOptionsContext(h, parameters(id)),
		);
		expect(fields.map((f) => [f.id, f.displayName, f.type, f.required])).toEqual([
			// the label alone (the key when there is none): no key, no default in it
			['company', 'Company', 'string', true],
			['deposit', 'deposit', 'number', false],
			['furnished', 'furnished', 'boolean', false],
			['plan', 'plan', 'options', false],
			['start', 'start', 'dateTime', false],
		]);
		// a switch always shows a state: it starts at the stored default
		expect(fields.find((f) => f.id === 'furnished')?.defaultValue).toBe(false);
		expect(fields.find((f) => f.id === 'plan')?.options).toEqual([
			{ name: 'basic', value: 'basic' },
			{ name: 'premium', value: 'premium' },
		]);
	});

	it('getPrefillFields: two fields of one label get their key added, so they stay apart', async () => {
		const field = (id: string, fieldKey: string, y: number) => ({
			id,
			fieldKey,
			label: 'Start date',
			type: 'date',
			pageNumber: 1,
			x: 10,
			y,
			width: 100,
			height: 20,
			assignee: { type: 'sender_prefill' },
		});
		const id = await seedLease(h, {
			formFields: [
				field('f-a', 'lease_start', 10),
				field('f-b', 'move_in', 40),
				{ ...field('f-c', 'end', 70), label: 'End date' },
			],
		});
		const { fields } = await resourceMapping.getPrefillFields.call(
			loadOptionsContext(h, parameters(id)),
		);
		expect(fields.map((f) => f.displayName)).toEqual([
			'Start date (lease_start)',
			'Start date (move_in)',
			'End date',
		]);
	});

	it('with fields, the notice (shown by n8n in Map Automatically) lists the keys; "no fields" comes only with no fields', async () => {
		const withFields = await resourceMapping.getPrefillFields.call(
			loadOptionsContext(h, parameters(await seedLease(h))),
		);
		expect(withFields.fields.length).toBeGreaterThan(0);
		expect(withFields.emptyFieldsNotice).toBe(
			`The template's field keys, which the input items' field names must match: ${withFields.fields.map((f) => f.id).join(', ')}`,
		);
		const none = await resourceMapping.getPrefillFields.call(
			loadOptionsContext(h, parameters(await seedLease(h, { formFields: [] }))),
		);
		expect(none).toEqual({
			fields: [],
			emptyFieldsNotice: 'This template has no fields for the sender to fill',
		});
	});

	it('no template picked yet: no fields and a notice, no request', async () => {
		const context = loadOptionsContext(h, {
			resource: 'template',
			operation: 'createDocument',
			templateId: byId(''),
		});
		const result = await resourceMapping.getPrefillFields.call(context);
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('Pick a template');
		expect(await h.requests()).toEqual([]);
	});

	it.each([
		['".."', '..', 'Template: ".." is not an ID'],
		['"."', '.', 'Template: "." is not an ID'],
		[
			'of 129 characters',
			't'.repeat(129),
			'Template: the ID is 129 characters long, at most 128 are allowed',
		],
	])(
		'a template ID %s is refused by the one id check, with no request',
		async (_label, templateId, message) => {
			const context = loadOptionsContext(h, parameters(templateId));
			await expect(resourceMapping.getTemplateRoles.call(context)).rejects.toThrow(message);
			await expect(resourceMapping.getPrefillFields.call(context)).rejects.toThrow(message);
			expect(await h.requests()).toEqual([]);
		},
	);

	it("an organization key loads only the organization's templates", async () => {
		const id = await seedLease(h);
		await expect(
			resourceMapping.getTemplateRoles.call(
				loadOptionsContext(h, parameters(id), h.sandbox.orgApiKey),
			),
		).rejects.toThrow(/NOT_FOUND/);
	});
});
