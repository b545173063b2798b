/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { admin, client, estampConfig, templateWithPdf } from '../templates/helpers';
import { useSandbox } from '../../sandbox-fixture';
import type { AxiosInstance } from 'axios';

const sandbox = useSandbox();

function config(templateId: string, over: Record<string, unknown> = {}) {
	return {
		documents: [{ templateId, label: 'Agreement', required: true }],
		participants: [
			{
				key: 'client',
				label: 'Client',
				order: 1,
				role: 'signer',
				signatureMethod: 'electronic',
				required: true,
			},
			{ key: 'legal', label: 'Legal reviewer', order: 2, role: 'approver', required: true },
		],
		execution: {
			mode: 'sequential',
			verificationMethod: 'link_only',
			expiresInDays: 7,
			reminderEveryHours: 6,
			message: 'Please sign the agreement',
			redirectUrl: 'https://example.com/done',
			emailNotifications: 'all',
			whatsappNotifications: 'none',
			estampEnabled: false,
			requireFinalSenderConfirmation: false,
		},
		approvalStages: [],
		allowedOverrides: [],
		...over,
	};
}

const runBody = (over: Record<string, unknown> = {}) => ({
	title: 'Onboarding ACME',
	recipients: [
		{ participantKey: 'client', name: 'Asha Rao', email: 'asha@acme.example' },
		{ participantKey: 'legal', name: 'Lee Legal', email: 'lee@acme.example' },
	],
	...over,
});

async function published(api: AxiosInstance, over: Record<string, unknown> = {}) {
	const template = await templateWithPdf(api, { formFields: [] });
	const created = await api.post('/workflows', {
		name: 'Onboarding',
		config: config(template.id, over),
	});
	if (created.status !== 200) throw new Error(JSON.stringify(created.data));
	const pub = await api.post(`/workflows/${created.data.definition.id}/publish`);
	if (pub.status !== 200) throw new Error(JSON.stringify(pub.data));
	return { template, workflowId: created.data.definition.id as string };
}

describe('POST /workflows', () => {
	test('creates the definition and draft version 1', async () => {
		const api = client(sandbox, sandbox.orgApiKey);
		const template = await templateWithPdf(api);
		const res = await api.post('/workflows', {
			name: 'Onboarding',
			description: 'New clients',
			config: config(template.id),
		});
		expect(res.status).toBe(200);
		const { definition, version } = res.data;
		expect(definition).toEqual({
			id: expect.any(String),
			organizationId: 'org_sandbox',
			name: 'Onboarding',
			description: 'New clients',
			status: 'draft',
			ownerId: expect.any(String),
			custodianUserId: expect.any(String),
			latestPublishedVersion: null,
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
		});
		expect(version).toMatchObject({
			workflowDefinitionId: definition.id,
			version: 1,
			status: 'draft',
			publishedById: null,
			publishedAt: null,
		});
		expect(version.config.execution).toMatchObject({
			estampEnabled: false,
			requireFinalSenderConfirmation: false,
		});
		expect(version.config.participants[0]).toMatchObject({ key: 'client', order: 1 });
	});

	test('validates the body', async () => {
		const api = client(sandbox);
		const noName = await api.post('/workflows', { config: config('tpl_x') });
		expect(noName.status).toBe(400);
		expect(noName.data.message).toBe('name: Required');
		const noDocs = await api.post('/workflows', {
			name: 'x',
			config: { participants: config('t').participants },
		});
		expect(noDocs.data.message).toBe('config.documents: Required');
		const order = await api.post('/workflows', {
			name: 'x',
			config: config('t', { participants: [{ key: 'a', label: 'A', order: 0 }] }),
		});
		expect(order.data.message).toBe('config.participants.0.order: must be a whole number from 1');
		const days = await api.post('/workflows', {
			name: 'x',
			config: config('t', { execution: { expiresInDays: 0 } }),
		});
		expect(days.data.message).toBe(
			'config.execution.expiresInDays: must be a whole number of days from 1',
		);
		const url = await api.post('/workflows', {
			name: 'x',
			config: config('t', { execution: { redirectUrl: 'nope' } }),
		});
		expect(url.data.details.validation.issues[0]).toMatchObject({
			path: 'config.execution.redirectUrl',
			code: 'invalid_string',
		});
		expect((await api.get('/workflows')).data.items).toEqual([]);
	});
});

describe('versions: PATCH and publish', () => {
	test('PATCH edits the draft; after publish it opens a new draft and leaves the published version alone', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const id = (await api.post('/workflows', { name: 'Onboarding', config: config(template.id) }))
			.data.definition.id;

		const edit = await api.patch(`/workflows/${id}`, {
			description: 'v1 edited',
			config: config(template.id, { execution: { reminderEveryHours: 2 } }),
		});
		expect(edit.status).toBe(200);
		expect(edit.data.version).toMatchObject({ version: 1, status: 'draft' });
		expect(edit.data.version.config.execution.reminderEveryHours).toBe(2);
		expect(edit.data.definition.description).toBe('v1 edited');

		const pub = await api.post(`/workflows/${id}/publish`);
		expect(pub.status).toBe(200);
		expect(pub.data.version).toMatchObject({
			version: 1,
			status: 'published',
			publishedAt: expect.any(String),
			publishedById: expect.any(String),
		});
		expect(pub.data.definition).toMatchObject({ latestPublishedVersion: 1, status: 'published' });
		const v1Config = pub.data.version.config;

		const v2 = await api.patch(`/workflows/${id}`, {
			config: config(template.id, { execution: { reminderEveryHours: 48 } }),
		});
		expect(v2.data.version).toMatchObject({ version: 2, status: 'draft' });
		const rename = await api.patch(`/workflows/${id}`, { name: 'Onboarding 2' });
		expect(rename.data.version).toMatchObject({ version: 2, status: 'draft' });
		expect(rename.data.version.config.execution.reminderEveryHours).toBe(48);
		const v1 = [...sandbox.state.workflowVersions.values()].find(
			(v: any) => v.workflowDefinitionId === id && v.version === 1,
		);
		expect(v1).toMatchObject({ status: 'published', config: v1Config });

		const get = await api.get(`/workflows/${id}`);
		expect(get.data.definition).toMatchObject({ name: 'Onboarding 2', latestPublishedVersion: 1 });
		expect(get.data.version).toMatchObject({ version: 2, status: 'draft' });

		const pub2 = await api.post(`/workflows/${id}/publish`);
		expect(pub2.data.version).toMatchObject({ version: 2, status: 'published' });
		expect(pub2.data.definition.latestPublishedVersion).toBe(2);
		expect(v1!.status).toBe('archived');

		const again = await api.post(`/workflows/${id}/publish`);
		expect(again.status).toBe(409);
		expect(again.data.code).toBe('INVALID_STATUS');

		const v3 = await api.patch(`/workflows/${id}`, { name: 'Onboarding 3' });
		expect(v3.data.version).toMatchObject({ version: 3, status: 'draft' });
		expect(v3.data.version.config).toEqual(pub2.data.version.config);
	});

	test('PATCH needs at least one property and validates config', async () => {
		const api = client(sandbox);
		const id = (await api.post('/workflows', { name: 'W', config: config('t') })).data.definition
			.id;
		const empty = await api.patch(`/workflows/${id}`, {});
		expect(empty.status).toBe(400);
		expect(empty.data.message).toMatch(/at least one property/);
		expect(
			(await api.patch(`/workflows/${id}`, { config: config('t', { documents: [] }) })).status,
		).toBe(400);
		expect((await api.patch('/workflows/wf_nope', { name: 'x' })).status).toBe(404);
	});

	test('publish validates templates: exist, accessible, active, PDF uploaded', async () => {
		const api = client(sandbox);
		const org = client(sandbox, sandbox.orgApiKey);
		const missing = (await api.post('/workflows', { name: 'W', config: config('tpl_missing') }))
			.data.definition.id;
		const r1 = await api.post(`/workflows/${missing}/publish`);
		expect(r1.status).toBe(400);
		expect(r1.data.message).toMatch(
			/^config\.documents\.0\.templateId: template "tpl_missing" does not exist/,
		);

		const orgTemplate = await templateWithPdf(org);
		const foreign = (await api.post('/workflows', { name: 'W', config: config(orgTemplate.id) }))
			.data.definition.id;
		expect((await api.post(`/workflows/${foreign}/publish`)).status).toBe(400);

		const noPdf = (await api.post('/templates', { name: 'No PDF', fileName: 'n.pdf' })).data.id;
		const w3 = (await api.post('/workflows', { name: 'W', config: config(noPdf) })).data.definition
			.id;
		const r3 = await api.post(`/workflows/${w3}/publish`);
		expect(r3.status).toBe(400);
		expect(r3.data.message).toMatch(/no uploaded PDF/);

		const archived = await templateWithPdf(api);
		await api.patch(`/templates/${archived.id}`, { status: 'archived' });
		const w4 = (await api.post('/workflows', { name: 'W', config: config(archived.id) })).data
			.definition.id;
		const r4 = await api.post(`/workflows/${w4}/publish`);
		expect(r4.status).toBe(409);
		expect(r4.data.code).toBe('TEMPLATE_ARCHIVED');
		expect(sandbox.state.workflowVersions.size).toBe(4);
		expect(
			[...sandbox.state.workflowVersions.values()].every((v: any) => v.status === 'draft'),
		).toBe(true);
	});
});

describe('list and get', () => {
	test('lists definitions of the workspace with paging; get returns definition and latest version', async () => {
		const api = client(sandbox);
		for (const name of ['A', 'B', 'C']) await api.post('/workflows', { name, config: config('t') });
		await client(sandbox, sandbox.orgApiKey).post('/workflows', {
			name: 'Org',
			config: config('t'),
		});
		const list = await api.get('/workflows', { params: { limit: 2 } });
		expect(list.status).toBe(200);
		expect(list.data.items).toHaveLength(2);
		expect(list.data.pageInfo).toEqual({
			page: 1,
			limit: 2,
			total: 3,
			totalPages: 2,
			hasNext: true,
			hasPrevious: false,
		});
		expect(list.data.items[0].workspace).toBeUndefined();
		const all = await api.get('/workflows');
		expect(all.data.items.map((d: any) => d.name).sort()).toEqual(['A', 'B', 'C']);
		expect((await api.get('/workflows', { params: { page: 0 } })).status).toBe(400);

		const one = await api.get(`/workflows/${all.data.items[0].id}`);
		expect(one.data.definition.id).toBe(all.data.items[0].id);
		expect(one.data.version.version).toBe(1);
		const orgId = (await client(sandbox, sandbox.orgApiKey).get('/workflows')).data.items[0].id;
		expect((await api.get(`/workflows/${orgId}`)).status).toBe(404);
	});

	test('scopes: workflows:read to list and get, workflows:write to change', async () => {
		const readKey = (
			await admin(sandbox).post('/keys', { workspace: 'personal', scopes: ['workflows:read'] })
		).data.apiKey;
		const reader = client(sandbox, readKey);
		expect((await reader.get('/workflows')).status).toBe(200);
		const denied = await reader.post('/workflows', { name: 'x', config: config('t') });
		expect(denied.status).toBe(403);
		expect(denied.data.message).toMatch(/workflows:write/);
		const writeKey = (
			await admin(sandbox).post('/keys', { workspace: 'personal', scopes: ['workflows:write'] })
		).data.apiKey;
		expect((await client(sandbox, writeKey).get('/workflows')).status).toBe(403);
	});
});

describe('POST /workflows/{id}/runs', () => {
	test('needs a published version', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const id = (await api.post('/workflows', { name: 'W', config: config(template.id) })).data
			.definition.id;
		const res = await api.post(`/workflows/${id}/runs`, runBody());
		expect(res.status).toBe(409);
		expect(res.data.code).toBe('INVALID_STATUS');
		expect(res.data.message).toMatch(/no published version/);
		expect(sandbox.state.envelopes.size).toBe(0);
	});

	test('creates and sends the envelope with participants mapped by key and execution settings applied', async () => {
		const api = client(sandbox);
		const { template, workflowId } = await published(api);
		const res = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ idempotencyKey: 'run-1' }),
		);
		expect(res.status).toBe(200);
		expect(res.data.run).toEqual({
			id: expect.any(String),
			workflowId,
			version: 1,
			idempotencyKey: 'run-1',
			createdAt: expect.any(String),
		});
		expect(res.data.approval).toEqual({ required: false, status: 'not_required' });
		expect(res.data.envelopes).toHaveLength(1);
		const env = res.data.envelope;
		expect(env).toMatchObject({
			title: 'Onboarding ACME',
			status: 'pending',
			templateId: template.id,
			fileName: 'service-agreement.pdf',
		});
		expect(env.recipients.map((r: any) => [r.name, r.email, r.role, r.order])).toEqual([
			['Asha Rao', 'asha@acme.example', 'signer', 1],
			['Lee Legal', 'lee@acme.example', 'approver', 2],
		]);
		const record = sandbox.state.envelopes.get(env.id)!;
		expect(record.workflow).toMatchObject({
			mode: 'sequential',
			verificationMethod: 'link_only',
			reminderEveryHours: 6,
			message: 'Please sign the agreement',
			redirectUrl: 'https://example.com/done',
			whatsappNotifications: 'none',
			estampEnabled: false,
		});
		const expires = Date.parse(record.workflow.expiresAt!) - Date.parse(record.createdAt);
		expect(Math.round(expires / 86_400_000)).toBe(7);
		expect(sandbox.state.events.map((e) => e.event)).toContain('document.sent');
		expect((await api.get(`/templates/${template.id}`)).data.usageCount).toBe(1);
	});

	test('the same idempotencyKey returns the same run without a second envelope', async () => {
		const api = client(sandbox);
		const { workflowId } = await published(api);
		const first = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ idempotencyKey: 'same' }),
		);
		const second = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ idempotencyKey: 'same' }),
		);
		expect(second.status).toBe(200);
		expect(second.data.run).toEqual(first.data.run);
		expect(second.data.envelope.id).toBe(first.data.envelope.id);
		expect(sandbox.state.envelopes.size).toBe(1);
		const other = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ idempotencyKey: 'other' }),
		);
		expect(other.data.run.id).not.toBe(first.data.run.id);
		const none1 = await api.post(`/workflows/${workflowId}/runs`, runBody());
		const none2 = await api.post(`/workflows/${workflowId}/runs`, runBody());
		expect(none1.data.run.id).not.toBe(none2.data.run.id);
		expect(sandbox.state.envelopes.size).toBe(4);
	});

	test('runs use the latest published version, not a newer draft', async () => {
		const api = client(sandbox);
		const { template, workflowId } = await published(api);
		await api.patch(`/workflows/${workflowId}`, {
			config: config(template.id, { execution: { reminderEveryHours: 99 } }),
		});
		const run = await api.post(`/workflows/${workflowId}/runs`, runBody());
		expect(run.data.run.version).toBe(1);
		expect(sandbox.state.envelopes.get(run.data.envelope.id)!.workflow.reminderEveryHours).toBe(6);
		await api.post(`/workflows/${workflowId}/publish`);
		const run2 = await api.post(`/workflows/${workflowId}/runs`, runBody());
		expect(run2.data.run.version).toBe(2);
		expect(sandbox.state.envelopes.get(run2.data.envelope.id)!.workflow.reminderEveryHours).toBe(
			99,
		);
	});

	test('recipient rules: unknown key, missing required participant, bad e-mail', async () => {
		const api = client(sandbox);
		const { workflowId } = await published(api);
		const unknown = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({
				recipients: [
					...runBody().recipients,
					{ participantKey: 'ghost', name: 'G', email: 'g@x.io' },
				],
			}),
		);
		expect(unknown.status).toBe(400);
		expect(unknown.data.message).toMatch(
			/^recipients\.2\.participantKey: "ghost" is not a participant key/,
		);
		const missing = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ recipients: [runBody().recipients[0]] }),
		);
		expect(missing.status).toBe(400);
		expect(missing.data.message).toMatch(/missing "legal"/);
		const email = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ recipients: [{ participantKey: 'client', name: 'A', email: 'bad' }] }),
		);
		expect(email.data.details.validation.issues[0]).toMatchObject({
			path: 'recipients.0.email',
			code: 'invalid_string',
		});
		expect(sandbox.state.envelopes.size).toBe(0);
	});

	test('approval stages or final sender confirmation keep the envelope a draft', async () => {
		const api = client(sandbox);
		const { workflowId } = await published(api, { approvalStages: [{ name: 'Manager' }] });
		const res = await api.post(`/workflows/${workflowId}/runs`, runBody());
		expect(res.data.approval).toEqual({ required: true, status: 'pending' });
		expect(res.data.envelope.status).toBe('draft');
		const c = await published(api, { execution: { requireFinalSenderConfirmation: true } });
		const res2 = await api.post(`/workflows/${c.workflowId}/runs`, runBody());
		expect(res2.data.envelope.status).toBe('draft');
	});

	test('e-stamping from the execution settings: the envelope goes to estamping', async () => {
		const api = client(sandbox);
		const { workflowId } = await published(api, {
			execution: { estampEnabled: true, estampConfig: estampConfig() },
		});
		const res = await api.post(`/workflows/${workflowId}/runs`, runBody());
		expect(res.status).toBe(200);
		expect(res.data.envelope.status).toBe('estamping');
	});

	test('one envelope per configured document', async () => {
		const api = client(sandbox);
		const t1 = await templateWithPdf(api, { formFields: [] });
		const t2 = await templateWithPdf(api, { name: 'Annex', formFields: [] });
		const id = (
			await api.post('/workflows', {
				name: 'Two docs',
				config: config(t1.id, {
					documents: [
						{ templateId: t1.id, label: 'Agreement' },
						{ templateId: t2.id, label: 'Annex' },
					],
				}),
			})
		).data.definition.id;
		await api.post(`/workflows/${id}/publish`);
		const res = await api.post(`/workflows/${id}/runs`, runBody());
		expect(res.data.envelopes.map((e: any) => [e.title, e.templateId])).toEqual([
			['Onboarding ACME - Agreement', t1.id],
			['Onboarding ACME - Annex', t2.id],
		]);
		expect(res.data.envelope.id).toBe(res.data.envelopes[0].id);
	});

	test('template fields follow the participant paired with their template recipient', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const id = (await api.post('/workflows', { name: 'W', config: config(template.id) })).data
			.definition.id;
		await api.post(`/workflows/${id}/publish`);
		const res = await api.post(
			`/workflows/${id}/runs`,
			runBody({ recipients: [...runBody().recipients].reverse() }),
		);
		const record = sandbox.state.envelopes.get(res.data.envelope.id)!;
		const asha = record.recipients.find((r) => r.name === 'Asha Rao')!;
		expect(record.fields.find((f) => f.fieldKey === 'client_signature')!.recipientId).toBe(asha.id);
	});

	test('aadhaar_otp participants need credits before anything is created', async () => {
		const api = client(sandbox);
		const { workflowId } = await published(api, {
			participants: [
				{
					key: 'client',
					label: 'Client',
					order: 1,
					role: 'signer',
					signatureMethod: 'aadhaar_otp',
				},
			],
		});
		await admin(sandbox).post('/credits', { workspace: 'personal', balance: 0 });
		const res = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ recipients: [runBody().recipients[0]] }),
		);
		expect(res.status).toBe(402);
		expect(res.data.code).toBe('INSUFFICIENT_CREDITS');
		expect(sandbox.state.envelopes.size).toBe(0);
		await admin(sandbox).post('/credits', { workspace: 'personal', balance: 3 });
		const ok = await api.post(
			`/workflows/${workflowId}/runs`,
			runBody({ recipients: [runBody().recipients[0]] }),
		);
		expect(ok.status).toBe(200);
		expect(sandbox.state.balance(sandbox.state.personalWorkspace)).toBe(2);
	});
});
