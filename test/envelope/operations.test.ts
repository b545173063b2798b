import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { adminPost } from '../sandbox-admin';
import {
	APPROVER,
	errorText,
	estampParams,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	seedEnvelope,
	SIGNER,
	type Params,
	waitFor,
} from './helpers';

const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
const fromItem = { __rl: true, mode: 'id', value: '={{ $json.envelopeId }}' };

describe('envelope operations', () => {
	let h: Harness;
	let pdf: Buffer;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const ready = async (body: IDataObject = {}) =>
		(await seedEnvelope(h, body, { upload: pdf })).id as string;

	/** The API code of the workflow's error, or of each error item. */
	async function expectApiError(params: Params, envelopeId: string, code: string) {
		const run = await runOp(h, { ...params, envelopeId: byId(envelopeId) });
		expect(run.result.error).toBeDefined();
		expect(errorText(run)).toContain(code);
		return run;
	}

	describe('getStatus', () => {
		it('takes the envelope from an address (By URL)', async () => {
			const id = await ready();
			const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });
			const run = await runOp(h, {
				operation: 'getStatus',
				envelopeId: byUrl(`https://app.example.com/envelopes/${id}?tab=recipients`),
			});
			expect(run.result.error).toBeUndefined();
			expect(run.items[0].json).toMatchObject({ envelopeId: id });
		});

		it('returns the signing progress', async () => {
			const id = await ready({ recipients: [SIGNER, APPROVER] });
			const run = await runOp(h, { operation: 'getStatus', envelopeId: byId(id) });
			expect(run.items[0].json).toMatchObject({
				envelopeId: id,
				status: 'draft',
				totalRecipients: 2,
				completedCount: 0,
				percentage: 0,
			});
			expect((run.items[0].json.recipients as IDataObject[]).map((r) => r.name)).toEqual([
				'Asha Rao',
				'Vikram Shah',
			]);
		});

		it('NOT_FOUND for an unknown envelope', async () => {
			await expectApiError({ operation: 'getStatus' }, 'env_unknown', 'NOT_FOUND');
		});
	});

	describe('getMany', () => {
		it('lists one item per envelope, paired to the input item, with limit, filters and Return All', async () => {
			for (const title of ['Lease A', 'Lease B', 'Invoice C']) await seedEnvelope(h, { title });
			const sent = await ready({ title: 'Lease D' });
			await h.api('POST', `/envelopes/${sent}/send`, {});

			const limited = await runOp(h, { operation: 'getMany', limit: 2 });
			expect(limited.items).toHaveLength(2);
			expect(limited.items.every((i) => (i.pairedItem as unknown as IDataObject).item === 0)).toBe(
				true,
			);

			const all = await runOp(h, { operation: 'getMany', returnAll: true });
			expect(all.items.map((i) => i.json.title).sort()).toEqual([
				'Invoice C',
				'Lease A',
				'Lease B',
				'Lease D',
			]);
			expect(all.items[0].json).toHaveProperty('totalRecipients');

			const drafts = await runOp(h, {
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'draft', search: 'lease' },
			});
			expect(drafts.items.map((i) => i.json.title).sort()).toEqual(['Lease A', 'Lease B']);
			expect(drafts.requests[0].query).toMatchObject({ status: 'draft', search: 'lease' });

			const pending = await runOp(h, {
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'pending' },
			});
			expect(pending.items.map((i) => i.json.id)).toEqual([sent]);
		});

		it('pages through more envelopes than one page holds', async () => {
			for (let n = 0; n < 23; n++)
				await h.api('POST', '/envelopes', { fileName: `f${n}.pdf`, title: `Doc ${n}` });
			const run = await runOp(h, { operation: 'getMany', limit: 21 });
			expect(run.items).toHaveLength(21);
			const all = await runOp(h, { operation: 'getMany', returnAll: true });
			expect(new Set(all.items.map((i) => i.json.id)).size).toBe(23);
		});

		it("an organization key lists only the organization's envelopes", async () => {
			await seedEnvelope(h, { title: 'Personal one' });
			await seedEnvelope(h, { title: 'Org one' }, { apiKey: h.sandbox.orgApiKey });
			await seedEnvelope(h, { title: 'Org two' }, { apiKey: h.sandbox.orgApiKey });

			const org = await runOp(h, { operation: 'getMany', returnAll: true }, undefined, {
				credentials: { apiKey: h.sandbox.orgApiKey },
			});
			expect(org.items.map((i) => i.json.title).sort()).toEqual(['Org one', 'Org two']);

			const personal = await runOp(h, { operation: 'getMany', returnAll: true });
			expect(personal.items.map((i) => i.json.title)).toEqual(['Personal one']);

			// and an org envelope is not found with the personal key
			const orgId = org.items[0].json.id as string;
			await expectApiError({ operation: 'getStatus' }, orgId, 'NOT_FOUND');
		});

		it('an empty list gives no items and no error', async () => {
			const run = await runOp(h, { operation: 'getMany', returnAll: true });
			expect(run.result.error).toBeUndefined();
			expect(run.items).toEqual([]);
		});
	});

	describe('send', () => {
		it('sends a draft: status pending, recipients with their signing links, in the documented shape', async () => {
			const id = await ready({
				recipients: [SIGNER, APPROVER],
				workflow: { mode: 'sequential', reminderEveryHours: 12 },
			});
			const run = await runOp(h, { operation: 'send', envelopeId: byId(id), output: 'raw' });
			expect(run.result.error).toBeUndefined();
			const out = run.items[0].json;
			expect(Object.keys(out).sort()).toEqual([
				'envelopeId',
				'estamp',
				'message',
				'recipients',
				'status',
				'workflow',
			]);
			expect(out).toMatchObject({ envelopeId: id, status: 'pending', estamp: { enabled: false } });
			expect(out.estamp).toEqual({ enabled: false });
			expect(out.workflow).toMatchObject({ mode: 'sequential', reminderEveryHours: 12 });
			const recipients = out.recipients as IDataObject[];
			expect(recipients.map((r) => [r.name, r.role, r.order])).toEqual([
				['Asha Rao', 'signer', 1],
				['Vikram Shah', 'approver', 2],
			]);
			expect(recipients[0].actionUrl).toMatch(/\/sign\//);
			expect(run.requests[0]).toMatchObject({
				method: 'POST',
				path: `/api/v1/envelopes/${id}/send`,
				status: 200,
			});
		});

		it('with e-stamping: the 202 answer in the same shape (estamping, queued), nothing added that it lacks', async () => {
			const created = await runOp(
				h,
				{ operation: 'create', recipients: recipientFields([SIGNER]), ...estampParams() },
				[pdfItem(pdf)],
			);
			const id = created.items[0].json.id as string;
			const run = await runOp(h, { operation: 'send', envelopeId: byId(id), output: 'raw' });
			expect(run.requests[0].status).toBe(202);
			expect(run.items[0].json).toEqual({
				envelopeId: id,
				status: 'estamping',
				message: expect.any(String),
				estamp: { enabled: true, status: 'queued' },
				// No recipients or workflow in the answer: absent, not an empty list or null.
				// The answer's other fields stay.
				success: true,
				estampStatus: 'queued',
			});
		});

		it('INVALID_STATUS when the envelope is not a draft', async () => {
			const id = await ready();
			await h.api('POST', `/envelopes/${id}/send`, {});
			await expectApiError({ operation: 'send' }, id, 'INVALID_STATUS');
		});

		it('VALIDATION_ERROR when the draft has no signer, FILE_NOT_UPLOADED when it has no PDF', async () => {
			const noSigner = (await seedEnvelope(h, { recipients: undefined }, { upload: pdf }))
				.id as string;
			const run = await expectApiError({ operation: 'send' }, noSigner, 'VALIDATION_ERROR');
			expect(errorText(run)).toContain('recipients');
			const noPdf = (await seedEnvelope(h)).id as string;
			await expectApiError({ operation: 'send' }, noPdf, 'FILE_NOT_UPLOADED');
		});

		it('NOT_FOUND for an unknown envelope', async () => {
			await expectApiError({ operation: 'send' }, 'env_nope', 'NOT_FOUND');
		});

		it('under Continue On Fail: the refused item becomes an error item, the others are sent, pairing kept', async () => {
			const a = await ready();
			const b = await ready();
			await h.api('POST', `/envelopes/${b}/send`, {});
			const c = await ready();
			const run = await runOp(
				h,
				{ operation: 'send', envelopeId: fromItem },
				[{ json: { envelopeId: a } }, { json: { envelopeId: b } }, { json: { envelopeId: c } }],
				{ continueOnFail: true },
			);
			expect(run.items.map((i) => [i.json.status ?? i.json.code, i.pairedItem])).toEqual([
				['pending', { item: 0 }],
				['INVALID_STATUS', { item: 1 }],
				['pending', { item: 2 }],
			]);
			expect(run.items[1].json.error).toContain('INVALID_STATUS');
		});
	});

	describe('downloadFile', () => {
		it('returns the address and the PDF as binary, fetched without the API key', async () => {
			const id = await ready();
			const run = await runOp(h, {
				operation: 'downloadFile',
				envelopeId: byId(id),
				binaryPropertyName: 'signed',
			});
			expect(run.result.error).toBeUndefined();
			expect(run.items[0].json).toMatchObject({
				envelopeId: id,
				fileName: 'contract.pdf',
				expiresIn: 3600,
				size: pdf.length,
				envelopeStatus: 'draft',
				signed: false,
			});
			expect(run.items[0].binary?.signed).toMatchObject({
				fileName: 'contract.pdf',
				mimeType: 'application/pdf',
			});
			expect((await run.result.binary('Document Signing', 0, 'signed')).equals(pdf)).toBe(true);
			expect(run.requests.map((r) => [r.method, r.path.split('/')[1], r.hasAuthorization])).toEqual(
				[
					['GET', 'api', true],
					['GET', 'api', true],
					['GET', 'storage', false],
				],
			);
			expect(run.requests[0].path).toMatch(/\/status$/);
		});

		it('with Download File and Include Signing Status off, returns only the address', async () => {
			const id = await ready();
			const run = await runOp(h, {
				operation: 'downloadFile',
				envelopeId: byId(id),
				download: false,
				includeStatus: false,
			});
			expect(run.items[0].json.url).toMatch(/\/storage\/download\//);
			expect(run.items[0].binary).toBeUndefined();
			expect(run.requests).toHaveLength(1);
		});

		it('NOT_AVAILABLE when no PDF was uploaded; NOT_FOUND for an unknown envelope', async () => {
			const id = (await seedEnvelope(h)).id as string;
			await expectApiError({ operation: 'downloadFile' }, id, 'NOT_AVAILABLE');
			await expectApiError({ operation: 'downloadFile' }, 'env_nope', 'NOT_FOUND');
		});
	});

	describe('getFields', () => {
		it('returns one item { envelopeId, items, total } per input item', async () => {
			const id = await ready();
			const run = await runOp(h, { operation: 'getFields', envelopeId: byId(id), output: 'raw' });
			expect(run.items).toEqual([
				expect.objectContaining({ json: { envelopeId: id, items: [], total: 0 } }),
			]);
		});

		it('returns the form fields of an envelope created from a template', async () => {
			const template = await h.api<IDataObject>('POST', '/templates', {
				name: 'NDA',
				fileName: 'nda.pdf',
				recipients: [{ id: 'tr_signer', name: 'Signer', role: 'signer' }],
				formFields: [
					{
						id: 'f1',
						fieldKey: 'signature',
						type: 'signature',
						pageNumber: 1,
						x: 50,
						y: 100,
						width: 150,
						height: 40,
						assignee: { type: 'recipient', templateRecipientId: 'tr_signer' },
					},
				],
			});
			const upload = template.upload as { url: string };
			await fetch(upload.url, {
				method: 'PUT',
				headers: { 'content-type': 'application/pdf' },
				body: pdf,
			});
			const doc = await h.api<IDataObject>(
				'POST',
				`/templates/${template.id as string}/documents`,
				{
					title: 'NDA for Asha',
					recipientMapping: [
						{ templateRecipientId: 'tr_signer', name: 'Asha Rao', email: 'asha@example.com' },
					],
				},
			);
			const run = await runOp(h, {
				operation: 'getFields',
				envelopeId: byId(doc.envelopeId as string),
				output: 'raw',
			});
			expect(run.items[0].json.total).toBe(1);
			expect((run.items[0].json.items as IDataObject[])[0]).toMatchObject({
				fieldKey: 'signature',
				type: 'signature',
				pageNumber: 1,
			});
		});

		it('NOT_FOUND for an unknown envelope', async () => {
			await expectApiError({ operation: 'getFields' }, 'env_nope', 'NOT_FOUND');
		});
	});

	describe('addRecipients', () => {
		it('appends recipients, or replaces them all', async () => {
			const id = (await seedEnvelope(h)).id as string;
			const added = await runOp(h, {
				operation: 'addRecipients',
				envelopeId: byId(id),
				recipients: recipientFields([
					APPROVER,
					{ name: 'Copy Only', phone: '+14155550100', role: 'cc' },
				]),
			});
			expect(added.result.error).toBeUndefined();
			expect(added.requests[0].body).toEqual({
				recipients: [
					{
						name: 'Vikram Shah',
						email: 'vikram@example.com',
						role: 'approver',
						signatureMethod: 'electronic',
					},
					{ name: 'Copy Only', phone: '+14155550100', role: 'cc', signatureMethod: 'electronic' },
				],
			});
			expect(added.items[0].json).toMatchObject({ envelopeId: id });
			expect((added.items[0].json.recipients as IDataObject[]).map((r) => r.name)).toEqual([
				'Asha Rao',
				'Vikram Shah',
				'Copy Only',
			]);

			const replaced = await runOp(h, {
				operation: 'addRecipients',
				envelopeId: byId(id),
				replace: true,
				recipientsInput: 'json',
				recipientsJson: JSON.stringify([{ name: 'New Signer', email: 'new@example.com' }]),
			});
			expect(replaced.requests[0].body).toEqual({
				recipients: [{ name: 'New Signer', email: 'new@example.com' }],
				replace: true,
			});
			expect((replaced.items[0].json.recipients as IDataObject[]).map((r) => r.name)).toEqual([
				'New Signer',
			]);
		});

		it('VALIDATION_ERROR when appending would pass 15 recipients (counted by the service)', async () => {
			const ten = Array.from({ length: 10 }, (_, n) => ({
				name: `P${n}`,
				email: `p${n}@example.com`,
			}));
			const id = (await seedEnvelope(h, { recipients: ten })).id as string;
			const run = await runOp(h, {
				operation: 'addRecipients',
				envelopeId: byId(id),
				recipientsInput: 'json',
				recipientsJson: JSON.stringify(ten.slice(0, 6)),
			});
			expect(errorText(run)).toContain('VALIDATION_ERROR');
			expect(errorText(run)).toContain('16 recipients');
		});

		it('INVALID_STATUS once sent; NOT_FOUND for an unknown envelope', async () => {
			const id = await ready();
			await h.api('POST', `/envelopes/${id}/send`, {});
			const params = { operation: 'addRecipients', recipients: recipientFields([APPROVER]) };
			await expectApiError(params, id, 'INVALID_STATUS');
			await expectApiError(params, 'env_nope', 'NOT_FOUND');
		});
	});

	describe('checkEstamp', () => {
		it('queues a check of a pending e-stamp; says so when there is nothing to check', async () => {
			// the provider accepts at once and never finishes by itself
			await adminPost(h.sandbox, 'estamp', { acceptAfterMs: 0, completeAfterMs: null });
			const created = await runOp(
				h,
				{ operation: 'create', recipients: recipientFields([SIGNER]), ...estampParams() },
				[pdfItem(pdf)],
			);
			const id = created.items[0].json.id as string;
			await runOp(h, { operation: 'send', envelopeId: byId(id) });
			await waitFor(async () => {
				const status = await h.api<IDataObject>('GET', `/envelopes/${id}/status`);
				return (status.estamp as IDataObject).status === 'pending';
			});

			const run = await runOp(h, { operation: 'checkEstamp', envelopeId: byId(id) });
			expect(run.items[0].json).toMatchObject({
				envelopeId: id,
				queued: true,
				estampStatus: 'pending',
			});
			expect(run.requests[0]).toMatchObject({
				method: 'POST',
				path: `/api/v1/envelopes/${id}/estamp/check`,
			});

			const plain = await ready();
			const none = await runOp(h, { operation: 'checkEstamp', envelopeId: byId(plain) });
			expect(none.items[0].json).toMatchObject({ queued: false, estampStatus: null });
		});

		it('NOT_FOUND for an unknown envelope', async () => {
			await expectApiError({ operation: 'checkEstamp' }, 'env_nope', 'NOT_FOUND');
		});
	});

	describe('every operation with a bad or disabled key', () => {
		const operations: Params[] = [
			{ operation: 'getMany' },
			{ operation: 'getStatus' },
			{ operation: 'send' },
			{ operation: 'downloadFile' },
			{ operation: 'getFields' },
			{ operation: 'addRecipients', recipients: recipientFields([SIGNER]) },
			{ operation: 'checkEstamp' },
		];

		it.each(operations.map((p) => [p.operation as string, p]))(
			'%s: UNAUTHORIZED and FORBIDDEN',
			async (_op, params) => {
				const id = await ready();
				for (const [apiKey, code] of [
					['service_wrong', 'UNAUTHORIZED'],
					[h.sandbox.disabledApiKey, 'FORBIDDEN'],
				]) {
					const run = await runOp(h, { ...params, envelopeId: byId(id) }, undefined, {
						credentials: { apiKey },
					});
					expect(errorText(run)).toContain(code);
					expect(errorText(run)).not.toContain(apiKey);
					expect(run.requests).toHaveLength(1);
				}
			},
		);
	});
});
