/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import {
	admin,
	client,
	documentBody,
	makePdf,
	templateBody,
	templateWithPdf,
	uploadPut,
} from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

async function keyWith(workspace: 'personal' | 'organization', scopes?: string[]): Promise<string> {
	const res = await admin(sandbox).post('/keys', { workspace, ...(scopes ? { scopes } : {}) });
	return res.data.apiKey;
}

describe('POST /templates', () => {
	test('returns the upload configuration and the recipient count', async () => {
		const res = await client(sandbox).post('/templates', templateBody());
		expect(res.status).toBe(201);
		expect(res.data).toMatchObject({
			name: 'Service Agreement',
			fileName: 'service-agreement.pdf',
			expiresIn: 3600,
			maxFileSize: 10485760,
			recipientsCount: 2,
		});
		expect(res.data.upload.url).toMatch(new RegExp(`^${sandbox.origin}/storage/upload/`));
		expect(res.data.upload.fields.key).toBe(res.data.fileKey);
		expect(typeof res.data.id).toBe('string');
		expect(new Date(res.data.createdAt).toISOString()).toBe(res.data.createdAt);
	});

	test('validates the body: required fields, field rules, assignments', async () => {
		const api = client(sandbox);
		const missing = await api.post('/templates', { fileName: 'x.pdf' });
		expect(missing.status).toBe(400);
		expect(missing.data).toMatchObject({ code: 'VALIDATION_ERROR', message: 'name: Required' });
		expect(missing.data.details.validation.issues[0]).toEqual({
			path: 'name',
			message: 'Required',
			code: 'invalid_type',
		});

		const body = templateBody();
		const dupKey = await api.post('/templates', {
			...body,
			formFields: [body.formFields[0], { ...body.formFields[1], fieldKey: 'company' }],
		});
		expect(dupKey.status).toBe(400);
		expect(dupKey.data.message).toMatch(/^formFields\.1\.fieldKey: duplicate field key "company"/);

		const page0 = await api.post('/templates', {
			...body,
			formFields: [{ ...body.formFields[0], pageNumber: 0 }],
		});
		expect(page0.data.message).toBe('formFields.0.pageNumber: pages start at 1');

		const tiny = await api.post('/templates', {
			...body,
			formFields: [{ ...body.formFields[0], width: 0 }],
		});
		expect(tiny.data.message).toBe('formFields.0.width: width must be at least 1');

		const unassignedSignature = await api.post('/templates', {
			...body,
			formFields: [{ ...body.formFields[3], assignee: { type: 'sender_prefill' } }],
		});
		expect(unassignedSignature.data.message).toMatch(
			/^formFields\.0\.assignee\.type: signature fields must belong to a recipient/,
		);

		const implicitId = await api.post('/templates', { ...body, recipients: [{ name: 'Client' }] });
		expect(implicitId.status).toBe(400);
		expect(implicitId.data.message).toMatch(
			/^formFields\.3\.assignee\.templateRecipientId: "client" is not a recipient id/,
		);
		expect((await api.get('/templates')).data.items).toHaveLength(0);
	});
});

describe('GET /templates/{id}', () => {
	test('returns the full template with generated ids and usage statistics', async () => {
		const api = client(sandbox);
		const created = await api.post(
			'/templates',
			templateBody({
				recipients: [...templateBody().recipients, { name: 'Observer', role: 'cc' }],
			}),
		);
		const res = await api.get(`/templates/${created.data.id}`);
		expect(res.status).toBe(200);
		const t = res.data;
		expect(t).toMatchObject({
			id: created.data.id,
			name: 'Service Agreement',
			description: 'Standard services contract',
			status: 'active',
			usageCount: 0,
			lastUsedAt: null,
			fileSize: null,
		});
		expect(t.recipients.map((r: any) => r.id).slice(0, 2)).toEqual(['client', 'legal']);
		expect(t.recipients[2].id).toEqual(expect.any(String));
		expect(t.recipients[2].id).not.toBe('');
		expect(t.formFields).toHaveLength(5);
		expect(t.workflow).toEqual({
			mode: 'sequential',
			reminderEveryHours: 12,
			message: 'Please review',
		});
		for (const k of ['createdAt', 'updatedAt', 'fileName'])
			expect(t[k]).toEqual(expect.any(String));

		await uploadPut(created.data.upload.url, await makePdf());
		expect((await api.get(`/templates/${created.data.id}`)).data.fileSize).toBeGreaterThan(100);
		expect((await api.get('/templates/tpl_missing')).data.code).toBe('NOT_FOUND');
		expect((await api.get('/templates/tpl_missing')).status).toBe(404);
	});
});

describe('GET /templates', () => {
	test('lists active templates by default, archived on request, searches by name, pages', async () => {
		const api = client(sandbox);
		const ids: string[] = [];
		for (const name of ['NDA One', 'NDA Two', 'Lease', 'Offer Letter']) {
			ids.push((await api.post('/templates', templateBody({ name }))).data.id);
		}
		await api.patch(`/templates/${ids[2]}`, { status: 'archived' });

		const active = await api.get('/templates');
		expect(active.status).toBe(200);
		expect(active.data.items.map((i: any) => i.name).sort()).toEqual([
			'NDA One',
			'NDA Two',
			'Offer Letter',
		]);
		expect(active.data.items[0]).toEqual({
			id: expect.any(String),
			name: expect.any(String),
			description: 'Standard services contract',
			fileName: 'service-agreement.pdf',
			status: 'active',
			usageCount: 0,
			recipientsCount: 2,
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
		});
		const archived = await api.get('/templates', { params: { status: 'archived' } });
		expect(archived.data.items.map((i: any) => i.name)).toEqual(['Lease']);

		const search = await api.get('/templates', { params: { search: 'nda' } });
		expect(search.data.items.map((i: any) => i.name).sort()).toEqual(['NDA One', 'NDA Two']);

		const page = await api.get('/templates', { params: { limit: 2, page: 2 } });
		expect(page.data.items).toHaveLength(1);
		expect(page.data.pageInfo).toEqual({
			page: 2,
			limit: 2,
			total: 3,
			totalPages: 2,
			hasNext: false,
			hasPrevious: true,
		});

		const bad = await api.get('/templates', { params: { status: 'deleted' } });
		expect(bad.status).toBe(400);
		expect(bad.data.code).toBe('VALIDATION_ERROR');
		expect(bad.data.details.validation.issues[0]).toMatchObject({
			path: 'status',
			code: 'invalid_enum_value',
		});
		expect((await api.get('/templates', { params: { limit: 0 } })).status).toBe(400);
	});

	test('organization keys see only organization templates', async () => {
		const personal = client(sandbox);
		const org = client(sandbox, sandbox.orgApiKey);
		const mine = await personal.post('/templates', templateBody({ name: 'Personal' }));
		await org.post('/templates', templateBody({ name: 'Org' }));
		expect((await org.get('/templates')).data.items.map((i: any) => i.name)).toEqual(['Org']);
		expect((await personal.get('/templates')).data.items.map((i: any) => i.name)).toEqual([
			'Personal',
		]);
		expect((await org.get(`/templates/${mine.data.id}`)).status).toBe(404);
		expect((await org.post(`/templates/${mine.data.id}/copies`, { newName: 'x' })).status).toBe(
			404,
		);
	});
});

describe('PATCH /templates/{id}', () => {
	test('updates metadata and answers the update summary', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		const res = await api.patch(`/templates/${id}`, { name: 'Renamed', description: 'New text' });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			id,
			name: 'Renamed',
			description: 'New text',
			recipientsCount: 2,
			updatedAt: expect.any(String),
			status: 'active',
			formFieldsCount: 5,
		});
	});

	test('arrays replace; formFields: [] clears', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		const body = templateBody();
		await api.patch(`/templates/${id}`, { formFields: [body.formFields[0]] });
		expect((await api.get(`/templates/${id}`)).data.formFields.map((f: any) => f.id)).toEqual([
			'f-company',
		]);
		const cleared = await api.patch(`/templates/${id}`, { formFields: [] });
		expect(cleared.data.formFieldsCount).toBe(0);
		expect((await api.get(`/templates/${id}`)).data.formFields).toEqual([]);
		await api.patch(`/templates/${id}`, { workflow: { mode: 'parallel' } });
		expect((await api.get(`/templates/${id}`)).data.workflow).toEqual({ mode: 'parallel' });
	});

	test('replaced recipients update field assignments in the same request', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		const body = templateBody();

		// Removing `client` while stored fields still point at it is an invalid assignment.
		const broken = await api.patch(`/templates/${id}`, {
			recipients: [{ id: 'buyer', name: 'Buyer' }],
		});
		expect(broken.status).toBe(400);
		expect(broken.data.code).toBe('VALIDATION_ERROR');
		expect(broken.data.message).toMatch(
			/^formFields\.3\.assignee\.templateRecipientId: "client" is not a recipient id/,
		);
		expect((await api.get(`/templates/${id}`)).data.recipients.map((r: any) => r.id)).toEqual([
			'client',
			'legal',
		]);

		const moved = body.formFields.map((f: any) =>
			f.assignee.type === 'recipient'
				? { ...f, assignee: { type: 'recipient', templateRecipientId: 'buyer' } }
				: f,
		);
		const ok = await api.patch(`/templates/${id}`, {
			recipients: [{ id: 'buyer', name: 'Buyer' }],
			formFields: moved,
		});
		expect(ok.status).toBe(200);
		expect(ok.data.recipientsCount).toBe(1);
		const t = (await api.get(`/templates/${id}`)).data;
		expect(
			t.formFields
				.filter((f: any) => f.assignee.type === 'recipient')
				.map((f: any) => f.assignee.templateRecipientId),
		).toEqual(['buyer', 'buyer']);

		// Fields alone are checked against the stored recipients.
		const ghost = await api.patch(`/templates/${id}`, { formFields: [{ ...body.formFields[3] }] });
		expect(ghost.status).toBe(400);
		expect(ghost.data.message).toMatch(/"client" is not a recipient id/);
	});

	test('empty update and bad status are 400', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		const empty = await api.patch(`/templates/${id}`, {});
		expect(empty.status).toBe(400);
		expect(empty.data.code).toBe('VALIDATION_ERROR');
		expect(empty.data.message).toMatch(/at least one property/);
		expect(empty.data.details.validation.formErrors).toHaveLength(1);
		expect(
			(await api.patch(`/templates/${id}`, { status: 'gone' })).data.details.validation.issues[0]
				.code,
		).toBe('invalid_enum_value');
	});

	test('archive and restore', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		expect((await api.patch(`/templates/${id}`, { status: 'archived' })).data.status).toBe(
			'archived',
		);
		expect((await api.get('/templates')).data.items).toHaveLength(0);
		expect((await api.get(`/templates/${id}`)).data.status).toBe('archived');
		expect((await api.patch(`/templates/${id}`, { status: 'active' })).data.status).toBe('active');
		expect((await api.get('/templates')).data.items).toHaveLength(1);
	});

	test('only the owner edits, archives or deletes; others get NOT_FOUND', async () => {
		const owner = client(sandbox, sandbox.orgApiKey);
		const colleague = client(sandbox, await keyWith('organization'));
		const { id } = (await owner.post('/templates', templateBody())).data;
		expect((await colleague.get(`/templates/${id}`)).status).toBe(200);
		for (const res of [
			await colleague.patch(`/templates/${id}`, { name: 'Hijack' }),
			await colleague.patch(`/templates/${id}`, { status: 'archived' }),
			await colleague.delete(`/templates/${id}`),
		]) {
			expect(res.status).toBe(404);
			expect(res.data.code).toBe('NOT_FOUND');
		}
		expect((await owner.get(`/templates/${id}`)).data).toMatchObject({
			name: 'Service Agreement',
			status: 'active',
		});
		// Copying needs no ownership; the copy belongs to the copier.
		const copy = await colleague.post(`/templates/${id}/copies`, { newName: 'Mine now' });
		expect(copy.status).toBe(200);
		expect(
			(await colleague.patch(`/templates/${copy.data.id}`, { name: 'Edited copy' })).status,
		).toBe(200);
	});

	test('a missing template is NOT_FOUND', async () => {
		expect((await client(sandbox).patch('/templates/tpl_nope', { name: 'x' })).status).toBe(404);
	});
});

describe('POST /templates/{id}/copies and DELETE', () => {
	test('copies everything under the new name, with its own PDF and zero usage', async () => {
		const api = client(sandbox);
		const original = await templateWithPdf(api);
		await api.post(`/templates/${original.id}/documents`, documentBody());
		const copy = await api.post(`/templates/${original.id}/copies`, {
			newName: 'Agreement (copy)',
		});
		expect(copy.status).toBe(200);
		expect(copy.data).toEqual({
			id: expect.any(String),
			name: 'Agreement (copy)',
			createdAt: expect.any(String),
		});
		expect(copy.data.id).not.toBe(original.id);
		const t = (await api.get(`/templates/${copy.data.id}`)).data;
		const o = (await api.get(`/templates/${original.id}`)).data;
		expect(t).toMatchObject({
			name: 'Agreement (copy)',
			usageCount: 0,
			lastUsedAt: null,
			status: 'active',
			fileSize: o.fileSize,
		});
		expect(t.formFields).toEqual(o.formFields);
		expect(t.recipients).toEqual(o.recipients);
		expect((await api.post(`/templates/${original.id}/copies`, {})).data.message).toBe(
			'newName: Required',
		);
	});

	test('DELETE answers 204 without a body and is permanent', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/templates', templateBody())).data;
		const res = await api.delete(`/templates/${id}`, { responseType: 'text' });
		expect(res.status).toBe(204);
		expect(res.data).toBe('');
		expect((await api.get(`/templates/${id}`)).status).toBe(404);
		expect((await api.delete(`/templates/${id}`)).status).toBe(404);
	});
});

describe('scopes', () => {
	test('each operation needs its key permission', async () => {
		const owner = client(sandbox);
		const { id } = (await owner.post('/templates', templateBody())).data;
		const readOnly = client(sandbox, await keyWith('personal', ['templates:read']));
		const noDelete = client(
			sandbox,
			await keyWith('personal', ['templates:read', 'templates:write']),
		);
		const noDocs = client(
			sandbox,
			await keyWith('personal', ['templates:read', 'templates:write']),
		);
		expect((await readOnly.get('/templates')).status).toBe(200);
		expect((await readOnly.get(`/templates/${id}/document-payload`)).status).toBe(200);
		const create = await readOnly.post('/templates', templateBody());
		expect(create.status).toBe(403);
		expect(create.data.message).toMatch(/templates:write/);
		expect((await readOnly.post(`/templates/${id}/copies`, { newName: 'c' })).status).toBe(403);
		const del = await noDelete.delete(`/templates/${id}`);
		expect(del.status).toBe(403);
		expect(del.data.message).toMatch(/templates:delete/);
		const doc = await noDocs.post(`/templates/${id}/documents`, documentBody());
		expect(doc.status).toBe(403);
		expect(doc.data.message).toMatch(/documents:write/);
		const unauth = await client(sandbox, null).get('/templates');
		expect(unauth.status).toBe(401);
	});
});
