/** Create Document and Send Document in real workflows against the sandbox. */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { keyWith } from '../template/helpers';
import {
	byId,
	createDocumentParams,
	errorText,
	mapped,
	runTemplateOp,
	seedLease,
	tenant,
} from './helpers';

describe('template documents', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const fieldsOf = async (envelopeId: string) =>
		Object.fromEntries(
			(await h.api<{ items: IDataObject[] }>('GET', `/envelopes/${envelopeId}/fields`)).items
				.filter((f) => f.recipientId === null)
				.map((f) => [f.fieldKey as string, f.value]),
		);

	it('creates a draft: contacts per role from expressions, prefill typed, stored defaults (0, false) kept for empty fields', async () => {
		const id = await seedLease(h);
		const run = await runTemplateOp(
			h,
			createDocumentParams(id, {
				prefill: mapped({
					company: '={{ $json.company }}',
					deposit: '',
					furnished: null,
					plan: 'premium',
					start: '2027-01-31',
				}),
			}),
			[{ json: { ...tenant(1), company: 'Acme Homes' } }],
		);
		expect(errorText(run)).toBe('');
		expect(run.items).toHaveLength(1);
		const out = run.items[0].json;
		expect(out).toMatchObject({
			status: 'draft',
			templateId: id,
			title: 'Lease - Tenant 1',
			steps: ['createDocument'],
		});
		const envelopeId = out.envelopeId as string;

		const body = run.requests.find((r) => r.method === 'POST')?.body as IDataObject;
		expect(body).toEqual({
			title: 'Lease - Tenant 1',
			recipientMapping: [
				{ templateRecipientId: 'tenant', name: 'Tenant 1', email: 'tenant1@example.com' },
				{ templateRecipientId: 'agent', name: 'Asha Agent', phone: '+919876543210' },
			],
			prefillValues: [
				{ fieldId: 'f-company', fieldKey: 'company', value: 'Acme Homes' },
				{ fieldId: 'f-plan', fieldKey: 'plan', value: 'premium' },
				{ fieldId: 'f-start', fieldKey: 'start', value: '2027-01-31' },
			],
		});
		expect(await fieldsOf(envelopeId)).toEqual({
			company: 'Acme Homes',
			deposit: 0,
			furnished: false,
			plan: 'premium',
			start: '2027-01-31',
		});
		expect(run.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/templates/${id}`,
			`POST /api/v1/templates/${id}/documents`,
		]);
	});

	it('prefill values are converted to the field type (a number and a checkbox from text)', async () => {
		const id = await seedLease(h);
		const run = await runTemplateOp(
			h,
			createDocumentParams(id, {
				prefill: mapped({ company: 'Acme', deposit: '2500', furnished: 'true' }),
			}),
			[{ json: tenant(1) }],
		);
		expect(errorText(run)).toBe('');
		expect(await fieldsOf(run.items[0].json.envelopeId as string)).toMatchObject({
			deposit: 2500,
			furnished: true,
		});
	});

	it('Send Immediately: created and sent in the same item; the output names both steps and holds the send answer', async () => {
		const id = await seedLease(h);
		const run = await runTemplateOp(
			h,
			createDocumentParams(id, {
				sendImmediately: true,
				signingSettings: { message: 'Please sign by Friday' },
				output: 'raw',
			}),
			[{ json: tenant(1) }],
		);
		expect(errorText(run)).toBe('');
		const out = run.items[0].json as IDataObject & { send: IDataObject };
		expect(out).toMatchObject({ status: 'pending', steps: ['createDocument', 'sendDocument'] });
		expect(out.send).toMatchObject({ envelopeId: out.envelopeId, status: 'pending' });
		// the override is laid over the template's settings, which stay
		expect(out.send.workflow).toMatchObject({
			message: 'Please sign by Friday',
			reminderEveryHours: 12,
			mode: 'sequential',
		});
		expect((out.send.recipients as IDataObject[]).map((r) => r.name)).toEqual([
			'Tenant 1',
			'Asha Agent',
		]);
		expect(run.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/templates/${id}`,
			`POST /api/v1/templates/${id}/documents`,
			`POST /api/v1/documents/${String(out.envelopeId)}/send`,
		]);
	});

	it('recipients as JSON: the entries of Get Document Payload, or the whole payload', async () => {
		const id = await seedLease(h);
		const payload = await h.api<IDataObject>('GET', `/templates/${id}/document-payload`);
		const filled = {
			...payload,
			recipientMapping: [
				{ templateRecipientId: 'tenant', name: 'Tenant J', email: 'j@example.com' },
				{ templateRecipientId: 'agent', name: 'Agent J', phone: '+919800000000' },
			],
		};
		for (const json of [JSON.stringify(filled.recipientMapping), '={{ $json.payload }}']) {
			const run = await runTemplateOp(
				h,
				createDocumentParams(id, {
					recipientsInput: 'json',
					recipientMappingJson: json,
					title: 'JSON',
				}),
				[{ json: { payload: filled } }],
			);
			expect(errorText(run)).toBe('');
			expect(run.items[0].json.status).toBe('draft');
			// the service got the recipients of the JSON, each as the entry gave it
			const body = run.requests.find((r) => r.method === 'POST')?.body as IDataObject;
			expect(body.recipientMapping).toEqual(filled.recipientMapping);
			const envelopeId = String(run.items[0].json.envelopeId);
			const progress = await h.api<IDataObject>('GET', `/envelopes/${envelopeId}/status`);
			expect((progress.recipients as IDataObject[]).map((r) => r.name)).toEqual([
				'Tenant J',
				'Agent J',
			]);
		}
	});

	it('an archived template answers 409, named in the error', async () => {
		const id = await seedLease(h);
		await h.api('PATCH', `/templates/${id}`, { status: 'archived' });
		const run = await runTemplateOp(h, createDocumentParams(id), [{ json: tenant(1) }]);
		expect(errorText(run)).toContain('TEMPLATE_ARCHIVED');
		expect((run.result.error as unknown as { httpCode?: string }).httpCode).toBe('409');
		expect((await h.api<{ items: unknown[] }>('GET', '/envelopes')).items).toHaveLength(0);
	});

	it('a send failing after the create: the error names the draft, which Send Document then sends (nothing created twice)', async () => {
		const id = await seedLease(h);
		await h.fault({ failures: [{ status: 500, path: '/documents/', count: 1 }] });
		const failed = await runTemplateOp(h, createDocumentParams(id, { sendImmediately: true }), [
			{ json: tenant(1) },
		]);
		const text = errorText(failed);
		const envelopes = (await h.api<{ items: IDataObject[] }>('GET', '/envelopes')).items;
		expect(envelopes).toHaveLength(1);
		const draftId = envelopes[0].id as string;
		expect(text).toContain(`The document was created as draft ${draftId}, but sending it failed`);
		expect(text).toContain(`Send draft ${draftId} with Template > Send Document`);
		// the send was not repeated (it may have notified the recipients)
		expect(failed.requests.filter((r) => r.path.endsWith('/send'))).toHaveLength(1);

		// under Continue On Fail the error item carries the draft's id
		await h.fault({ failures: [{ status: 500, path: '/documents/', count: 1 }] });
		const kept = await runTemplateOp(
			h,
			createDocumentParams(id, { sendImmediately: true }),
			[{ json: tenant(2) }],
			{ continueOnFail: true },
		);
		expect(kept.items[0].json).toMatchObject({
			code: 'INTERNAL_SERVER_ERROR',
			envelopeId: expect.stringMatching(/./),
		});

		// the API key appears in neither
		for (const shown of [text, JSON.stringify(kept.items)])
			expect(shown).not.toContain(h.sandbox.apiKey);

		const sent = await runTemplateOp(h, { operation: 'sendDocument', envelopeId: byId(draftId) });
		expect(errorText(sent)).toBe('');
		expect(sent.items[0].json).toMatchObject({ envelopeId: draftId, status: 'pending' });
		expect((await h.api<{ items: unknown[] }>('GET', '/envelopes')).items).toHaveLength(2);
	});

	it('a create whose connection drops is not sent again (it may have arrived)', async () => {
		const id = await seedLease(h);
		await h.fault({ connectionReset: { path: `/templates/${id}/documents`, count: 1 } });
		const run = await runTemplateOp(h, createDocumentParams(id), [{ json: tenant(1) }]);
		expect(errorText(run)).toContain('not sent again');
		expect(run.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	it('Send Document: sends a draft made from a template; an envelope not made from a template is NOT_FOUND', async () => {
		const id = await seedLease(h);
		const created = await runTemplateOp(h, createDocumentParams(id), [{ json: tenant(1) }]);
		const envelopeId = created.items[0].json.envelopeId as string;
		const sent = await runTemplateOp(h, {
			operation: 'sendDocument',
			envelopeId: byId(envelopeId),
		});
		expect(sent.items[0].json).toMatchObject({
			envelopeId,
			status: 'pending',
			recipients: [
				expect.objectContaining({ name: 'Tenant 1' }),
				expect.objectContaining({ name: 'Asha Agent' }),
			],
		});
		expect(sent.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`POST /api/v1/documents/${envelopeId}/send`,
		]);

		const plain = await h.api<IDataObject>('POST', '/envelopes', {
			fileName: 'x.pdf',
			recipients: [{ name: 'A', email: 'a@example.com' }],
		});
		const refused = await runTemplateOp(h, {
			operation: 'sendDocument',
			envelopeId: byId(plain.id as string),
		});
		expect(errorText(refused)).toContain('NOT_FOUND');
	});

	it('a key without templates:read or documents:write is refused by the service', async () => {
		const id = await seedLease(h);
		const key = await keyWith(h, ['templates:read']);
		const run = await runTemplateOp(h, createDocumentParams(id), [{ json: tenant(1) }], {
			credentials: { apiKey: key },
		});
		expect(errorText(run)).toContain('FORBIDDEN');
		expect((await h.api<{ items: unknown[] }>('GET', '/envelopes')).items).toHaveLength(0);
	});
});
