import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import {
	byId,
	CLIENT,
	errorText,
	LEGAL,
	makePdf,
	pdfItem,
	runTemplateOp,
	seedTemplate,
} from './helpers';

describe('template operations', () => {
	let h: Harness;
	let pdf: Buffer;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf(2, 'Template');
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const stored = async (id: string) => await h.api<IDataObject>('GET', `/templates/${id}`);

	describe('create', () => {
		it('creates the template with roles, listed fields and signing settings, and uploads the PDF in the same step', async () => {
			const run = await runTemplateOp(
				h,
				{
					operation: 'create',
					name: 'Rental agreement',
					description: 'Standard lease',
					recipients: { recipient: [CLIENT, { ...LEGAL, email: 'legal@example.com' }] },
					formFields: {
						field: [
							{
								fieldKey: 'rent',
								type: 'text',
								assignee: 'sender_prefill',
								pageNumber: 1,
								x: 100,
								y: 700,
								width: 120,
								height: 20,
								label: 'Monthly rent',
								required: true,
								defaultValue: '1000',
							},
							{
								fieldKey: 'tenant_sign',
								type: 'signature',
								assignee: 'recipient',
								templateRecipientId: 'client',
								pageNumber: 2,
								x: 50,
								y: 100,
								width: 200,
								height: 50,
							},
						],
					},
					signingSettings: { mode: 'parallel', reminderEveryHours: 6, message: 'Please sign' },
				},
				[pdfItem(pdf, {}, 'lease.pdf')],
			);
			expect(run.result.error).toBeUndefined();
			const out = run.items[0].json;
			expect(out).toMatchObject({
				name: 'Rental agreement',
				fileName: 'lease.pdf',
				recipientsCount: 2,
			});
			expect(out.uploaded).toEqual({ fileName: 'lease.pdf', size: pdf.length, method: 'POST' });
			expect(out.upload).toBeUndefined();
			expect(
				run.requests.map((r) => `${r.method} ${r.path.split('?')[0].replace(/tpl_\w+/, 'ID')}`)[0],
			).toBe('POST /api/v1/templates');
			expect(run.requests).toHaveLength(2);

			const template = await stored(out.id as string);
			expect(template).toMatchObject({
				name: 'Rental agreement',
				description: 'Standard lease',
				status: 'active',
				fileSize: pdf.length,
				workflow: { mode: 'parallel', reminderEveryHours: 6, message: 'Please sign' },
			});
			expect(template.recipients).toEqual([
				{ id: 'client', name: 'Client', role: 'signer', signatureMethod: 'electronic' },
				{
					id: 'legal',
					name: 'Legal',
					role: 'approver',
					signatureMethod: 'electronic',
					email: 'legal@example.com',
				},
			]);
			const fields = template.formFields as IDataObject[];
			expect(fields[0]).toMatchObject({
				fieldKey: 'rent',
				type: 'text',
				required: true,
				defaultValue: '1000',
				label: 'Monthly rent',
				assignee: { type: 'sender_prefill' },
			});
			expect(fields[1]).toMatchObject({
				fieldKey: 'tenant_sign',
				type: 'signature',
				pageNumber: 2,
				required: false,
				assignee: { type: 'recipient', templateRecipientId: 'client' },
			});
			expect(fields.every((f) => typeof f.id === 'string')).toBe(true);
		});

		it('takes recipients and the whole form-field shape as JSON, and can leave the upload for later', async () => {
			const formFields = [
				{
					id: 'f-agree',
					fieldKey: 'agree',
					type: 'checkbox',
					pageNumber: 1,
					x: 10,
					y: 10,
					width: 12,
					height: 12,
					defaultValue: false,
					checkboxSize: 12,
					assignee: { type: 'sender_prefill' },
				},
				{
					id: 'f-plan',
					fieldKey: 'plan',
					type: 'radio',
					pageNumber: 1,
					x: 10,
					y: 40,
					width: 100,
					height: 20,
					radioGroup: {
						options: [{ value: 'a', label: 'A' }],
						layout: 'AUTO',
						direction: 'VERTICAL',
					},
					assignee: { type: 'recipient', templateRecipientId: 'client' },
				},
			];
			const run = await runTemplateOp(h, {
				operation: 'create',
				name: 'JSON template',
				pdfSource: 'none',
				fileName: 'later.pdf',
				recipientsInput: 'json',
				recipientsJson: JSON.stringify([CLIENT]),
				formFieldsInput: 'json',
				formFieldsJson: JSON.stringify({ formFields }),
			});
			expect(run.result.error).toBeUndefined();
			const out = run.items[0].json;
			expect((out.upload as IDataObject).url).toEqual(expect.any(String));
			expect(out.fileName).toBe('later.pdf');
			const template = await stored(out.id as string);
			expect(template.formFields).toEqual(formFields);
			expect(template.fileSize).toBeNull();
		});
	});

	describe('getMany', () => {
		it('lists active templates by default, archived on request, searched by name; Return All or Limit', async () => {
			for (let n = 1; n <= 5; n++) await seedTemplate(h, { name: `Lease ${n}` }, { upload: false });
			const nda = await seedTemplate(h, { name: 'NDA' }, { upload: false });
			await h.api('PATCH', `/templates/${String(nda.id)}`, { status: 'archived' });

			const all = await runTemplateOp(h, { operation: 'getMany', returnAll: true });
			expect(all.items.map((i) => i.json.name).sort()).toEqual([
				'Lease 1',
				'Lease 2',
				'Lease 3',
				'Lease 4',
				'Lease 5',
			]);

			const limited = await runTemplateOp(h, { operation: 'getMany', limit: 2 });
			expect(limited.items).toHaveLength(2);

			const archived = await runTemplateOp(h, {
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'archived' },
			});
			expect(archived.items.map((i) => i.json.name)).toEqual(['NDA']);
			expect(archived.items[0].json).toMatchObject({ status: 'archived', recipientsCount: 2 });

			const searched = await runTemplateOp(h, {
				operation: 'getMany',
				returnAll: true,
				filters: { search: 'lease 3' },
			});
			expect(searched.items.map((i) => i.json.name)).toEqual(['Lease 3']);
			expect(searched.requests[0].query).toMatchObject({ search: 'lease 3' });
		});

		it('refuses an unknown status before any request', async () => {
			const run = await runTemplateOp(h, { operation: 'getMany', filters: { status: 'deleted' } });
			expect(errorText(run)).toContain('Status');
			expect(run.requests).toHaveLength(0);
		});
	});

	describe('get and getDocumentPayload', () => {
		it('get returns the full template', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'get',
				templateId: byId(id as string),
				output: 'raw',
			});
			expect(run.items[0].json).toMatchObject({
				id,
				name: 'Service Agreement',
				status: 'active',
				usageCount: 0,
			});
			expect((run.items[0].json.formFields as IDataObject[]).map((f) => f.fieldKey)).toEqual([
				'company',
				'client_signature',
			]);
		});

		it('getDocumentPayload returns one mapping per role and the sender fields, also for an archived template', async () => {
			const { id } = await seedTemplate(h);
			await h.api('PATCH', `/templates/${String(id)}`, { status: 'archived' });
			const run = await runTemplateOp(h, {
				operation: 'getDocumentPayload',
				templateId: byId(id as string),
				output: 'raw',
			});
			expect(run.result.error).toBeUndefined();
			expect(run.items[0].json).toMatchObject({
				templateId: id,
				title: 'Service Agreement',
				recipientMapping: [
					{ templateRecipientId: 'client', name: 'Client' },
					{ templateRecipientId: 'legal', name: 'Legal' },
				],
				prefillValues: [{ fieldId: 'f-company', fieldKey: 'company', value: null }],
			});
		});

		it('NOT_FOUND for an unknown template', async () => {
			const run = await runTemplateOp(h, { operation: 'get', templateId: byId('tpl_unknown') });
			expect(errorText(run)).toContain('NOT_FOUND');
		});
	});

	describe('update', () => {
		it('changes only the chosen parts; lists replace the stored ones', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'update',
				templateId: byId(id as string),
				updateParts: ['name', 'recipients', 'formFields'],
				name: 'Service Agreement v2',
				recipients: { recipient: [{ id: 'buyer', name: 'Buyer', role: 'signer' }] },
				formFields: {
					field: [
						{
							fieldKey: 'buyer_sign',
							type: 'signature',
							assignee: 'recipient',
							templateRecipientId: 'buyer',
							pageNumber: 1,
							x: 1,
							y: 2,
							width: 100,
							height: 40,
						},
					],
				},
			});
			expect(run.result.error).toBeUndefined();
			expect(run.items[0].json).toMatchObject({
				id,
				name: 'Service Agreement v2',
				recipientsCount: 1,
				formFieldsCount: 1,
				status: 'active',
			});
			expect(run.requests[0].body).toEqual({
				name: 'Service Agreement v2',
				recipients: [{ id: 'buyer', name: 'Buyer', role: 'signer', signatureMethod: 'electronic' }],
				formFields: [
					{
						fieldKey: 'buyer_sign',
						type: 'signature',
						assignee: { type: 'recipient', templateRecipientId: 'buyer' },
						pageNumber: 1,
						x: 1,
						y: 2,
						width: 100,
						height: 40,
						required: false,
					},
				],
			});
			const template = await stored(id as string);
			expect(template.workflow).toEqual({ mode: 'sequential', reminderEveryHours: 12 });
			expect((template.recipients as IDataObject[]).map((r) => r.id)).toEqual(['buyer']);
		});

		it('replaces the signing settings, and clears the form fields with an empty list', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'update',
				templateId: byId(id as string),
				updateParts: ['signingSettings', 'formFields', 'description'],
				description: 'Updated',
				signingSettings: { emailNotifications: 'none' },
			});
			expect(run.result.error).toBeUndefined();
			const template = await stored(id as string);
			expect(template).toMatchObject({
				description: 'Updated',
				workflow: { emailNotifications: 'none' },
				formFields: [],
			});
		});

		it('refuses an empty update and an empty name before any request', async () => {
			const { id } = await seedTemplate(h);
			const empty = await runTemplateOp(h, {
				operation: 'update',
				templateId: byId(id as string),
				updateParts: [],
			});
			expect(errorText(empty)).toContain('What to Update: choose at least one part to change');
			expect(empty.requests).toHaveLength(0);
			const noName = await runTemplateOp(h, {
				operation: 'update',
				templateId: byId(id as string),
				updateParts: ['name'],
				name: '={{ " " }}',
			});
			expect(errorText(noName)).toContain('Name: must not be empty');
			expect(noName.requests).toHaveLength(0);
		});

		it('the service refuses replacing recipients so a stored field points nowhere (400 names the field)', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'update',
				templateId: byId(id as string),
				updateParts: ['recipients'],
				recipients: { recipient: [{ id: 'buyer', name: 'Buyer' }] },
			});
			expect(errorText(run)).toContain('VALIDATION_ERROR');
			expect(errorText(run)).toContain('formFields.1.assignee.templateRecipientId');
		});
	});

	describe('archive and restore', () => {
		it('archive hides the template from the default list; restore brings it back', async () => {
			const { id } = await seedTemplate(h);
			const archived = await runTemplateOp(h, {
				operation: 'archive',
				templateId: byId(id as string),
			});
			expect(archived.items[0].json).toMatchObject({ id, status: 'archived' });
			expect(archived.requests[0]).toMatchObject({ method: 'PATCH', body: { status: 'archived' } });
			expect(
				(await runTemplateOp(h, { operation: 'getMany', returnAll: true })).items,
			).toHaveLength(0);

			const restored = await runTemplateOp(h, {
				operation: 'restore',
				templateId: byId(id as string),
			});
			expect(restored.items[0].json).toMatchObject({ id, status: 'active' });
			expect((await stored(id as string)).status).toBe('active');
		});
	});

	describe('duplicate and delete', () => {
		it('duplicate copies under a new name; the copy is active and keeps recipients, fields and PDF', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'duplicate',
				templateId: byId(id as string),
				newName: 'Copy of agreement',
			});
			expect(run.result.error).toBeUndefined();
			const copy = run.items[0].json;
			expect(copy).toMatchObject({ name: 'Copy of agreement', copiedFrom: id });
			expect(copy.id).not.toBe(id);
			const template = await stored(copy.id as string);
			expect(template).toMatchObject({
				status: 'active',
				usageCount: 0,
				recipients: [
					expect.objectContaining({ id: 'client' }),
					expect.objectContaining({ id: 'legal' }),
				],
			});
			expect(template.fileSize).toEqual(expect.any(Number));
		});

		it('duplicate without a new name is refused before any request', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'duplicate',
				templateId: byId(id as string),
				newName: '={{ "" }}',
			});
			expect(errorText(run)).toContain('New Name: is required');
			expect(run.requests).toHaveLength(0);
		});

		it('deleteTemplate outputs { deleted: true, id } and the template is gone', async () => {
			const { id } = await seedTemplate(h);
			const run = await runTemplateOp(h, {
				operation: 'deleteTemplate',
				templateId: byId(id as string),
			});
			expect(run.items[0].json).toEqual({ deleted: true, id });
			expect(run.requests[0]).toMatchObject({ method: 'DELETE', status: 204 });
			await expect(stored(id as string)).rejects.toThrow('404');
		});
	});
});
