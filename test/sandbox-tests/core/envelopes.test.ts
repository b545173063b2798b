/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import axios from 'axios';
import { admin, client, draftWithPdf, makePdf, signer, uploadPut } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

describe('POST /envelopes', () => {
	test('returns the upload configuration and envelope fields of 2.1/2.2', async () => {
		const res = await client(sandbox).post('/envelopes', {
			fileName: 'nda.pdf',
			title: 'NDA',
			recipients: [signer('Ann'), { name: 'Bob', phone: '+919876543210', role: 'cc' }],
		});
		expect(res.status).toBe(201);
		const d = res.data;
		expect(d).toMatchObject({
			title: 'NDA',
			fileName: 'nda.pdf',
			status: 'draft',
			expiresIn: 3600,
			maxFileSize: 10485760,
			recipientsAdded: 2,
		});
		expect(typeof d.id).toBe('string');
		expect(typeof d.fileKey).toBe('string');
		expect(d.upload.url).toMatch(new RegExp(`^${sandbox.origin}/storage/upload/`));
		expect(d.upload.fields).toEqual(
			expect.objectContaining({ key: d.fileKey, 'Content-Type': 'application/pdf' }),
		);
		expect(new Date(d.createdAt).toISOString()).toBe(d.createdAt);
	});

	test('an empty draft (no recipients) is accepted', async () => {
		const res = await client(sandbox).post('/envelopes', { fileName: 'x.pdf' });
		expect(res.status).toBe(201);
		expect(res.data.recipientsAdded).toBe(0);
		expect(res.data.title).toBe('x.pdf');
	});

	test('validation errors follow part 7 with zod issue codes', async () => {
		const api = client(sandbox);
		const missing = await api.post('/envelopes', {});
		expect(missing.status).toBe(400);
		expect(missing.data.code).toBe('VALIDATION_ERROR');
		expect(missing.data.message).toMatch(/^fileName: /);
		expect(missing.data.details.validation.issues[0]).toEqual({
			path: 'fileName',
			message: expect.any(String),
			code: 'invalid_type',
		});
		expect(missing.data.details.validation.fieldErrors.fileName).toHaveLength(1);
		expect(missing.data.details.validation.formErrors).toEqual([]);

		const email = await api.post('/envelopes', {
			fileName: 'a.pdf',
			recipients: [{ name: 'A', email: 'not-an-email' }],
		});
		expect(email.status).toBe(400);
		expect(email.data.message).toMatch(/^recipients\.0\.email: /);
		expect(email.data.details.validation.issues[0]).toMatchObject({
			path: 'recipients.0.email',
			code: 'invalid_string',
		});

		const role = await api.post('/envelopes', {
			fileName: 'a.pdf',
			recipients: [{ name: 'A', email: 'a@x.io', role: 'boss' }],
		});
		expect(role.data.details.validation.issues[0]).toMatchObject({
			path: 'recipients.0.role',
			code: 'invalid_enum_value',
		});

		const contact = await api.post('/envelopes', {
			fileName: 'a.pdf',
			recipients: [{ name: 'A' }],
		});
		expect(contact.status).toBe(400);
		expect(contact.data.message).toMatch(/contact/);
	});

	test('recipients: at least one signer and at most 15', async () => {
		const api = client(sandbox);
		const ccOnly = await api.post('/envelopes', {
			fileName: 'a.pdf',
			recipients: [{ name: 'C', email: 'c@x.io', role: 'cc' }],
		});
		expect(ccOnly.status).toBe(400);
		expect(ccOnly.data.message).toMatch(/signer/);
		const sixteen = Array.from({ length: 16 }, (_, i) => signer(`S${i}`));
		expect((await api.post('/envelopes', { fileName: 'a.pdf', recipients: sixteen })).status).toBe(
			400,
		);
		expect(
			(await api.post('/envelopes', { fileName: 'a.pdf', recipients: sixteen.slice(0, 15) }))
				.status,
		).toBe(201);
	});
});

describe('GET /envelopes', () => {
	test('paging, status filter and search by title', async () => {
		const api = client(sandbox);
		for (let i = 1; i <= 5; i++)
			await api.post('/envelopes', {
				fileName: `f${i}.pdf`,
				title: i % 2 ? `Lease ${i}` : `Invoice ${i}`,
				recipients: [signer('Ann')],
			});
		const page = await api.get('/envelopes', { params: { page: 2, limit: 2 } });
		expect(page.status).toBe(200);
		expect(page.data.items).toHaveLength(2);
		expect(page.data.pageInfo).toEqual({
			page: 2,
			limit: 2,
			total: 5,
			totalPages: 3,
			hasNext: true,
			hasPrevious: true,
		});
		expect(page.data.items[0]).toEqual({
			id: expect.any(String),
			title: expect.any(String),
			status: 'draft',
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
			totalRecipients: 1,
			completedActions: 0,
		});

		const defaults = await api.get('/envelopes');
		expect(defaults.data.pageInfo).toMatchObject({
			page: 1,
			limit: 20,
			total: 5,
			totalPages: 1,
			hasNext: false,
			hasPrevious: false,
		});

		const search = await api.get('/envelopes', { params: { search: 'lease' } });
		expect(search.data.items.map((i: any) => i.title).sort()).toEqual([
			'Lease 1',
			'Lease 3',
			'Lease 5',
		]);

		const first = defaults.data.items[0];
		await uploadPut(
			(
				await api.post('/envelopes', {
					fileName: 'z.pdf',
					title: 'Sent one',
					recipients: [signer('Ann')],
				})
			).data.upload.url,
			await makePdf(),
		);
		const sentId = (await api.get('/envelopes', { params: { search: 'Sent one' } })).data.items[0]
			.id;
		await api.post(`/envelopes/${sentId}/send`);
		const pending = await api.get('/envelopes', { params: { status: 'pending' } });
		expect(pending.data.items.map((i: any) => i.id)).toEqual([sentId]);
		expect((await api.get('/envelopes', { params: { status: 'draft' } })).data.pageInfo.total).toBe(
			5,
		);
		expect(first).toBeDefined();
	});

	test('bad query -> VALIDATION_ERROR', async () => {
		const api = client(sandbox);
		for (const params of [
			{ page: 0 },
			{ page: 'x' },
			{ limit: 101 },
			{ limit: 0 },
			{ status: 'nonsense' },
		]) {
			const res = await api.get('/envelopes', { params });
			expect(res.status).toBe(400);
			expect(res.data.code).toBe('VALIDATION_ERROR');
			expect(res.data.message).toMatch(new RegExp(`^${Object.keys(params)[0]}: `));
		}
		expect((await api.get('/envelopes', { params: { limit: 100 } })).status).toBe(200);
	});
});

describe('POST /envelopes/{id}/recipients', () => {
	test('appends by default, continuing the order; replace: true replaces', async () => {
		const api = client(sandbox);
		const { id } = (
			await api.post('/envelopes', { fileName: 'a.pdf', recipients: [signer('Ann')] })
		).data;
		const added = await api.post(`/envelopes/${id}/recipients`, {
			recipients: [signer('Bob'), { name: 'Cat', phone: '+14155550100', role: 'approver' }],
		});
		expect(added.status).toBe(200);
		expect(typeof added.data.message).toBe('string');
		expect(added.data.recipients.map((r: any) => [r.name, r.order, r.role, r.status])).toEqual([
			['Ann', 1, 'signer', 'pending'],
			['Bob', 2, 'signer', 'pending'],
			['Cat', 3, 'approver', 'pending'],
		]);
		expect(added.data.recipients[2]).toEqual({
			id: expect.any(String),
			name: 'Cat',
			email: null,
			phone: '+14155550100',
			role: 'approver',
			order: 3,
			status: 'pending',
			signatureMethod: 'electronic',
		});
		const replaced = await api.post(`/envelopes/${id}/recipients`, {
			recipients: [signer('Dan', { signatureMethod: 'dsc_usb' })],
			replace: true,
		});
		expect(replaced.data.recipients.map((r: any) => [r.name, r.order, r.signatureMethod])).toEqual([
			['Dan', 1, 'dsc_usb'],
		]);
		expect((await api.get(`/envelopes/${id}/status`)).data.totalRecipients).toBe(1);
	});

	test('15 maximum counts existing recipients on append, only the new list on replace', async () => {
		const api = client(sandbox);
		const ten = Array.from({ length: 10 }, (_, i) => signer(`S${i}`));
		const { id } = (await api.post('/envelopes', { fileName: 'a.pdf', recipients: ten })).data;
		const six = Array.from({ length: 6 }, (_, i) => signer(`T${i}`));
		const over = await api.post(`/envelopes/${id}/recipients`, { recipients: six });
		expect(over.status).toBe(400);
		expect(over.data.code).toBe('VALIDATION_ERROR');
		expect(over.data.message).toMatch(/^recipients: .*16/);
		expect(
			(await api.post(`/envelopes/${id}/recipients`, { recipients: six.slice(0, 5) })).status,
		).toBe(200);
		expect(
			(await api.post(`/envelopes/${id}/recipients`, { recipients: [signer('One more')] })).status,
		).toBe(400);
		const replace = await api.post(`/envelopes/${id}/recipients`, {
			recipients: six,
			replace: true,
		});
		expect(replace.status).toBe(200);
		expect(replace.data.recipients).toHaveLength(6);
	});

	test('invalid body, unknown envelope, non-draft', async () => {
		const api = client(sandbox);
		const created = await draftWithPdf(api, { recipients: [signer('Ann')] });
		const bad = await api.post(`/envelopes/${created.id}/recipients`, {
			recipients: [{ email: 'x@y.io' }],
		});
		expect(bad.status).toBe(400);
		expect(bad.data.details.validation.issues[0]).toMatchObject({
			path: 'recipients.0.name',
			code: 'invalid_type',
		});
		expect((await api.post(`/envelopes/${created.id}/recipients`, { recipients: [] })).status).toBe(
			400,
		);
		const missing = await api.post('/envelopes/env_missing/recipients', {
			recipients: [signer('A')],
		});
		expect(missing.status).toBe(404);
		expect(missing.data.code).toBe('NOT_FOUND');
		await api.post(`/envelopes/${created.id}/send`);
		const sent = await api.post(`/envelopes/${created.id}/recipients`, {
			recipients: [signer('Late')],
		});
		expect(sent.status).toBe(409);
		expect(sent.data.code).toBe('INVALID_STATUS');
	});
});

describe('POST /envelopes/{id}/send', () => {
	test('200 shape of 4.1, then INVALID_STATUS on a second send', async () => {
		const api = client(sandbox);
		const created = await draftWithPdf(api, {
			recipients: [
				signer('Ann'),
				{ name: 'Cat', email: 'cat@x.io', role: 'approver' },
				{ name: 'Cc', email: 'cc@x.io', role: 'cc' },
			],
			workflow: { mode: 'parallel', message: 'Please sign', emailNotifications: 'completion_only' },
		});
		const res = await api.post(`/envelopes/${created.id}/send`, {});
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			message: expect.any(String),
			envelopeId: created.id,
			status: 'pending',
			recipients: [
				{
					id: expect.any(String),
					name: 'Ann',
					email: 'ann@example.com',
					role: 'signer',
					order: 1,
					status: 'pending',
					actionUrl: expect.stringMatching(new RegExp(`^${sandbox.origin}/sign/`)),
				},
				{
					id: expect.any(String),
					name: 'Cat',
					email: 'cat@x.io',
					role: 'approver',
					order: 2,
					status: 'pending',
					actionUrl: expect.any(String),
				},
				{
					id: expect.any(String),
					name: 'Cc',
					email: 'cc@x.io',
					role: 'cc',
					order: 3,
					status: 'pending',
					actionUrl: expect.any(String),
				},
			],
			workflow: {
				mode: 'parallel',
				verificationMethod: 'email_verification',
				message: 'Please sign',
				reminderEveryHours: 24,
				expiresAt: expect.any(String),
				emailNotifications: 'completion_only',
				whatsappNotifications: 'all',
			},
		});
		const days = (Date.parse(res.data.workflow.expiresAt) - Date.now()) / 86400_000;
		expect(days).toBeGreaterThan(29.9);
		expect(days).toBeLessThan(30.1);
		const again = await api.post(`/envelopes/${created.id}/send`);
		expect(again.status).toBe(409);
		expect(again.data.code).toBe('INVALID_STATUS');
	});

	test('requirements: a signer, an uploaded PDF; NOT_FOUND', async () => {
		const api = client(sandbox);
		const empty = await draftWithPdf(api, {});
		const noSigner = await api.post(`/envelopes/${empty.id}/send`);
		expect(noSigner.status).toBe(400);
		expect(noSigner.data.code).toBe('VALIDATION_ERROR');
		expect(noSigner.data.message).toMatch(/^recipients: .*signer/);
		await api.post(`/envelopes/${empty.id}/recipients`, {
			recipients: [{ name: 'Ap', email: 'ap@x.io', role: 'approver' }],
		});
		expect((await api.post(`/envelopes/${empty.id}/send`)).data.code).toBe('VALIDATION_ERROR');

		const noPdf = await api.post('/envelopes', { fileName: 'a.pdf', recipients: [signer('Ann')] });
		const res = await api.post(`/envelopes/${noPdf.data.id}/send`);
		expect(res.status).toBe(400);
		expect(res.data.code).toBe('FILE_NOT_UPLOADED');
		expect((await api.get(`/envelopes/${noPdf.data.id}/status`)).data.status).toBe('draft');

		const missing = await api.post('/envelopes/env_nope/send');
		expect(missing.status).toBe(404);
		expect(missing.data.code).toBe('NOT_FOUND');
	});

	test('an incomplete estampConfig stored on a draft is refused at send', async () => {
		const api = client(sandbox);
		const created = await draftWithPdf(api, { recipients: [signer('Ann')] });
		// Drafts made by other routes (template, workflow) may carry settings not checked at creation.
		const record = sandbox.state.envelopes.get(created.id)!;
		record.workflow.estampEnabled = true;
		record.workflow.estampConfig = { state: 'KA' };
		const res = await api.post(`/envelopes/${created.id}/send`);
		expect(res.status).toBe(400);
		expect(res.data.code).toBe('VALIDATION_ERROR');
		expect(res.data.message).toMatch(/^workflow\.estampConfig\./);
	});
});

describe('status, fields and file', () => {
	test('status of a draft (2.7)', async () => {
		const api = client(sandbox);
		const { id } = (
			await api.post('/envelopes', {
				fileName: 'a.pdf',
				recipients: [signer('Ann'), signer('Bob', { order: 5 })],
			})
		).data;
		const res = await api.get(`/envelopes/${id}/status`);
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			envelopeId: id,
			status: 'draft',
			totalRecipients: 2,
			completedCount: 0,
			percentage: 0,
			recipients: [
				{
					id: expect.any(String),
					name: 'Ann',
					email: 'ann@example.com',
					role: 'signer',
					status: 'pending',
					order: 1,
				},
				{
					id: expect.any(String),
					name: 'Bob',
					email: 'bob@example.com',
					role: 'signer',
					status: 'pending',
					order: 5,
				},
			],
		});
		expect(res.data.estamp).toBeUndefined();
		expect((await api.get('/envelopes/env_x/status')).status).toBe(404);
	});

	test('fields: none on a plain envelope; template-carried fields are listed', async () => {
		const api = client(sandbox);
		const { id } = (
			await api.post('/envelopes', { fileName: 'a.pdf', recipients: [signer('Ann')] })
		).data;
		expect((await api.get(`/envelopes/${id}/fields`)).data).toEqual({ items: [], total: 0 });
		expect((await api.get('/envelopes/env_x/fields')).data.code).toBe('NOT_FOUND');

		const { createEnvelopeRecord } = await import('../../sandbox/state');
		const { envelope } = createEnvelopeRecord(sandbox.state, sandbox.state.personalWorkspace, {
			fileName: 't.pdf',
			recipients: [{ id: 'rcp_fixed', name: 'Ann', email: 'ann@x.io' }],
			fields: [
				{
					id: 'f1',
					fieldKey: 'sign_here',
					type: 'signature',
					pageNumber: 1,
					x: 10,
					y: 20,
					width: 200,
					height: 50,
					recipientId: 'rcp_fixed',
					required: true,
				},
			],
		});
		const fields = await api.get(`/envelopes/${envelope.id}/fields`);
		expect(fields.data.total).toBe(1);
		expect(fields.data.items[0]).toMatchObject({
			id: 'f1',
			fieldKey: 'sign_here',
			type: 'signature',
			pageNumber: 1,
			recipientId: 'rcp_fixed',
		});
	});

	test('file: NOT_AVAILABLE before upload; presigned download that expires after 3600 s', async () => {
		const api = client(sandbox);
		const created = (await api.post('/envelopes', { fileName: 'a.pdf' })).data;
		const none = await api.get(`/envelopes/${created.id}/file`);
		expect(none.status).toBe(404);
		expect(none.data.code).toBe('NOT_AVAILABLE');

		const pdf = await makePdf(2);
		await uploadPut(created.upload.url, pdf);
		const file = await api.get(`/envelopes/${created.id}/file`);
		expect(file.status).toBe(200);
		expect(file.data).toEqual({
			url: expect.stringMatching(new RegExp(`^${sandbox.origin}/storage/download/`)),
			expiresIn: 3600,
			fileName: 'a.pdf',
		});
		const download = await axios.get(file.data.url, {
			responseType: 'arraybuffer',
			validateStatus: () => true,
		});
		expect(download.status).toBe(200);
		expect(download.headers['content-type']).toBe('application/pdf');
		expect(Buffer.from(download.data).equals(pdf)).toBe(true);

		await admin(sandbox).post('/clock', { advanceSeconds: 3599 });
		expect((await axios.get(file.data.url, { validateStatus: () => true })).status).toBe(200);
		await admin(sandbox).post('/clock', { advanceSeconds: 2 });
		const expired = await axios.get(file.data.url, { validateStatus: () => true });
		expect(expired.status).toBe(403);
		expect(expired.data.code).toBe('AccessDenied');
		// A fresh address works again.
		const fresh = await api.get(`/envelopes/${created.id}/file`);
		expect((await axios.get(fresh.data.url, { validateStatus: () => true })).status).toBe(200);
	});
});
