/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { admin, client, documentBody, makePdf, templateBody, templateWithPdf } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

describe('GET /templates/{id}/document-payload', () => {
	test('one mapping per role, sender fields with stored defaults (false and 0 kept), recipient fields excluded', async () => {
		const api = client(sandbox);
		const body = templateBody({
			recipients: [
				...templateBody().recipients,
				{ id: 'witness', name: 'Witness', role: 'cc', phone: '+919876543210' },
			],
		});
		const { id } = (await api.post('/templates', body)).data;
		const res = await api.get(`/templates/${id}/document-payload`);
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			title: 'Service Agreement',
			recipientMapping: [
				{ templateRecipientId: 'client', name: 'Client', email: '' },
				{ templateRecipientId: 'legal', name: 'Legal', email: '' },
				{ templateRecipientId: 'witness', name: 'Witness', phone: '+919876543210' },
			],
			workflow: { mode: 'sequential', reminderEveryHours: 12, message: 'Please review' },
			prefillValues: [
				{ fieldId: 'f-company', fieldKey: 'company', value: null },
				{ fieldId: 'f-agree', fieldKey: 'agree', value: false },
				{ fieldId: 'f-count', fieldKey: 'seats', value: 0 },
			],
		});
	});

	test('works on archived and incomplete templates (no PDF, no fields)', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', { name: 'Bare', fileName: 'bare.pdf' })).data;
		await api.patch(`/templates/${id}`, { status: 'archived' });
		const res = await api.get(`/templates/${id}/document-payload`);
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			title: 'Bare',
			recipientMapping: [],
			workflow: {},
			prefillValues: [],
		});
		expect((await api.get('/templates/tpl_none/document-payload')).status).toBe(404);
	});
});

describe('POST /templates/{id}/documents', () => {
	test('creates a draft envelope carrying the template PDF, recipients, fields and workflow', async () => {
		const api = client(sandbox);
		const pdf = await makePdf(2, 'Template body');
		const template = await templateWithPdf(api, {}, pdf);
		const res = await api.post(`/templates/${template.id}/documents`, documentBody());
		expect(res.status).toBe(201);
		expect(res.data).toEqual({
			envelopeId: expect.any(String),
			message: expect.any(String),
			status: 'draft',
		});

		const envelope = sandbox.state.envelopes.get(res.data.envelopeId)!;
		expect(envelope).toMatchObject({
			title: 'Agreement with ACME',
			status: 'draft',
			templateId: template.id,
			fileName: 'service-agreement.pdf',
		});
		expect(sandbox.state.storage.get(envelope.fileKey)!.data.equals(pdf)).toBe(true);
		expect(envelope.recipients.map((r) => [r.name, r.email ?? r.phone, r.role, r.order])).toEqual([
			['Asha Rao', 'asha@acme.example', 'signer', 1],
			['Lee Legal', '+14155550100', 'approver', 2],
		]);
		expect(envelope.workflow).toMatchObject({
			mode: 'sequential',
			reminderEveryHours: 12,
			message: 'Please review',
		});

		const fields = await api.get(`/envelopes/${envelope.id}/fields`);
		expect(fields.data.total).toBe(5);
		const byKey = Object.fromEntries(fields.data.items.map((f: any) => [f.fieldKey, f]));
		const clientId = envelope.recipients[0].id;
		expect(byKey.client_signature.recipientId).toBe(clientId);
		expect(byKey.client_note.recipientId).toBe(clientId);
		expect(byKey.company).toMatchObject({ recipientId: null, value: 'ACME Ltd' });
		expect(byKey.agree.value).toBe(false);
		expect(byKey.seats.value).toBe(0);

		const t = (await api.get(`/templates/${template.id}`)).data;
		expect(t.usageCount).toBe(1);
		expect(t.lastUsedAt).toBe(envelope.createdAt);
	});

	test('a workflow in the body replaces the inherited one', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const res = await api.post(
			`/templates/${template.id}/documents`,
			documentBody({ workflow: { mode: 'parallel', emailNotifications: 'none' } }),
		);
		const envelope = sandbox.state.envelopes.get(res.data.envelopeId)!;
		expect(envelope.workflow).toMatchObject({ mode: 'parallel', emailNotifications: 'none' });
		expect(envelope.workflow.message).toBeUndefined();
	});

	test('later template edits do not change created envelopes', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const { envelopeId } = (await api.post(`/templates/${template.id}/documents`, documentBody()))
			.data;
		const before = JSON.stringify((await api.get(`/envelopes/${envelopeId}/fields`)).data);
		const pdfBefore = Buffer.from(
			sandbox.state.storage.get(sandbox.state.envelopes.get(envelopeId)!.fileKey)!.data,
		);
		await api.patch(`/templates/${template.id}`, {
			formFields: [],
			workflow: { mode: 'parallel' },
			name: 'Changed',
		});
		await api.delete(`/templates/${template.id}`);
		expect(JSON.stringify((await api.get(`/envelopes/${envelopeId}/fields`)).data)).toBe(before);
		const envelope = sandbox.state.envelopes.get(envelopeId)!;
		expect(envelope.workflow.mode).toBe('sequential');
		expect(sandbox.state.storage.get(envelope.fileKey)!.data.equals(pdfBefore)).toBe(true);
	});

	test('each use creates a separate envelope', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const a = await api.post(`/templates/${template.id}/documents`, documentBody());
		const b = await api.post(`/templates/${template.id}/documents`, documentBody());
		expect(a.data.envelopeId).not.toBe(b.data.envelopeId);
		expect((await api.get(`/templates/${template.id}`)).data.usageCount).toBe(2);
	});

	test.each([
		[
			'unknown mapping',
			{
				recipientMapping: [
					...documentBody().recipientMapping,
					{ templateRecipientId: 'ghost', name: 'G', email: 'g@x.io' },
				],
			},
			/^recipientMapping\.2\.templateRecipientId: "ghost" is not a recipient/,
		],
		[
			'repeated mapping',
			{
				recipientMapping: [documentBody().recipientMapping[0], documentBody().recipientMapping[0]],
			},
			/^recipientMapping\.1\.templateRecipientId: repeats "client"/,
		],
		[
			'missing mapping',
			{ recipientMapping: [documentBody().recipientMapping[0]] },
			/^recipientMapping: must hold exactly one entry per template recipient; missing "legal"/,
		],
		[
			'unknown prefill',
			{
				prefillValues: [
					...documentBody().prefillValues,
					{ fieldId: 'f-zzz', fieldKey: 'zzz', value: 1 },
				],
			},
			/^prefillValues\.1: fieldId "f-zzz"/,
		],
		[
			'prefill key not matching id',
			{ prefillValues: [{ fieldId: 'f-company', fieldKey: 'seats', value: 'x' }] },
			/^prefillValues\.0: fieldId "f-company" with fieldKey "seats"/,
		],
		[
			'repeated prefill',
			{ prefillValues: [documentBody().prefillValues[0], documentBody().prefillValues[0]] },
			/^prefillValues\.1\.fieldId: repeats "f-company"/,
		],
		[
			'prefill of a recipient field',
			{
				prefillValues: [
					...documentBody().prefillValues,
					{ fieldId: 'f-note', fieldKey: 'client_note', value: 'hi' },
				],
			},
			/^prefillValues\.1: /,
		],
		[
			'required prefill without value or default',
			{ prefillValues: [] },
			/^prefillValues: required field "company"/,
		],
		[
			'no real contact',
			{
				recipientMapping: [
					{ templateRecipientId: 'client', name: 'A', email: '' },
					documentBody().recipientMapping[1],
				],
			},
			/^recipientMapping\.0\.email: Invalid email/,
		],
		['missing title', { title: undefined }, /^title: Required/],
	])('%s: 400 and no envelope', async (_name, change, message) => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const res = await api.post(
			`/templates/${template.id}/documents`,
			documentBody(change as Record<string, unknown>),
		);
		expect(res.status).toBe(400);
		expect(res.data.code).toBe('VALIDATION_ERROR');
		expect(res.data.message).toMatch(message);
		expect(sandbox.state.envelopes.size).toBe(0);
		expect((await api.get(`/templates/${template.id}`)).data.usageCount).toBe(0);
	});

	test('a template without a signer cannot create documents', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api, {
			recipients: [{ id: 'legal', name: 'Legal', role: 'approver' }],
			formFields: [],
		});
		const res = await api.post(`/templates/${template.id}/documents`, {
			title: 'x',
			recipientMapping: [{ templateRecipientId: 'legal', name: 'L', email: 'l@x.io' }],
		});
		expect(res.status).toBe(400);
		expect(res.data.message).toMatch(/at least one signer/);
	});

	test('archived template: 409 TEMPLATE_ARCHIVED; restored: works again', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		await api.patch(`/templates/${template.id}`, { status: 'archived' });
		const res = await api.post(`/templates/${template.id}/documents`, documentBody());
		expect(res.status).toBe(409);
		expect(res.data.code).toBe('TEMPLATE_ARCHIVED');
		expect(sandbox.state.envelopes.size).toBe(0);
		await api.patch(`/templates/${template.id}`, { status: 'active' });
		expect((await api.post(`/templates/${template.id}/documents`, documentBody())).status).toBe(
			201,
		);
	});

	test('a template whose PDF was never uploaded: 400 FILE_NOT_UPLOADED', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		const res = await api.post(`/templates/${id}/documents`, documentBody());
		expect(res.status).toBe(400);
		expect(res.data.code).toBe('FILE_NOT_UPLOADED');
		expect(sandbox.state.envelopes.size).toBe(0);
	});

	test('the envelope belongs to the workspace of the key', async () => {
		const org = client(sandbox, sandbox.orgApiKey);
		const template = await templateWithPdf(org);
		const { envelopeId } = (await org.post(`/templates/${template.id}/documents`, documentBody()))
			.data;
		expect((await org.get(`/envelopes/${envelopeId}/status`)).status).toBe(200);
		expect((await client(sandbox).get(`/envelopes/${envelopeId}/status`)).status).toBe(404);
		expect(
			(await client(sandbox).post(`/templates/${template.id}/documents`, documentBody())).status,
		).toBe(404);
	});
});

describe('POST /documents/{envelopeId}/send', () => {
	test('sends a template-created draft like an envelope send', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const { envelopeId } = (await api.post(`/templates/${template.id}/documents`, documentBody()))
			.data;
		const res = await api.post(`/documents/${envelopeId}/send`);
		expect(res.status).toBe(200);
		expect(res.data).toMatchObject({ envelopeId, status: 'pending' });
		expect(res.data.recipients).toHaveLength(2);
		expect(res.data.recipients[0].actionUrl).toMatch(new RegExp(`^${sandbox.origin}/sign/`));
		const again = await api.post(`/documents/${envelopeId}/send`);
		expect(again.status).toBe(409);
		expect(again.data.code).toBe('INVALID_STATUS');
	});

	test('needs signing:write; unknown or non-template envelopes are NOT_FOUND', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const { envelopeId } = (await api.post(`/templates/${template.id}/documents`, documentBody()))
			.data;
		const key = (
			await admin(sandbox).post('/keys', {
				workspace: 'personal',
				scopes: ['templates:read', 'documents:write'],
			})
		).data.apiKey;
		const denied = await client(sandbox, key).post(`/documents/${envelopeId}/send`);
		expect(denied.status).toBe(403);
		expect(denied.data.message).toMatch(/signing:write/);
		expect((await api.post('/documents/env_nope/send')).status).toBe(404);
		const plain = await api.post('/envelopes', {
			fileName: 'x.pdf',
			recipients: [{ name: 'A', email: 'a@x.io' }],
		});
		expect((await api.post(`/documents/${plain.data.id}/send`)).status).toBe(404);
	});
});
