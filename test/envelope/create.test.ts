import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import {
	APPROVER,
	errorText,
	estampParams,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	SIGNER,
} from './helpers';

describe('envelope create', () => {
	let h: Harness;
	let pdf: Buffer;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf(2);
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	/** The PDF the service holds for the envelope, read through the API. */
	async function storedPdf(envelopeId: string): Promise<Buffer> {
		const file = await h.api<IDataObject>('GET', `/envelopes/${envelopeId}/file`);
		const response = await fetch(file.url as string);
		return Buffer.from(await response.arrayBuffer());
	}

	it('creates the envelope and uploads the PDF of the item by multipart POST, without the key', async () => {
		const run = await runOp(
			h,
			{ operation: 'create', title: 'Lease 4B', recipients: recipientFields([SIGNER]) },
			[pdfItem(pdf, {}, 'lease-4b.pdf')],
		);

		expect(run.result.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		const out = run.items[0].json;
		expect(out).toMatchObject({
			title: 'Lease 4B',
			fileName: 'lease-4b.pdf',
			status: 'draft',
			recipientsAdded: 1,
			uploaded: { fileName: 'lease-4b.pdf', size: pdf.length, method: 'POST' },
		});
		expect(out.upload).toBeUndefined(); // the used upload form is not repeated
		expect(run.items[0].pairedItem).toEqual({ item: 0 });

		expect(
			run.requests.map((r) => [
				r.method,
				r.path.split('/').slice(0, 3).join('/'),
				r.hasAuthorization,
			]),
		).toEqual([
			['POST', '/api/v1', true],
			['POST', '/storage/upload', false],
		]);
		expect((await storedPdf(out.id as string)).equals(pdf)).toBe(true);
		expect(JSON.stringify(run.items)).not.toContain(h.sandbox.apiKey);
	});

	it('uploads with PUT when chosen', async () => {
		const run = await runOp(
			h,
			{
				operation: 'create',
				recipients: recipientFields([SIGNER]),
				options: { uploadMethod: 'put' },
			},
			[pdfItem(pdf)],
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items[0].json.uploaded).toEqual({
			fileName: 'agreement.pdf',
			size: pdf.length,
			method: 'PUT',
		});
		expect(run.requests[1]).toMatchObject({ method: 'PUT', hasAuthorization: false, status: 200 });
		expect((await storedPdf(run.items[0].json.id as string)).equals(pdf)).toBe(true);
	});

	it('without upload, returns the upload configuration for a later step', async () => {
		const run = await runOp(h, {
			operation: 'create',
			pdfSource: 'none',
			fileName: 'later.pdf',
			title: 'Later',
			output: 'raw',
		});
		expect(run.result.error).toBeUndefined();
		const out = run.items[0].json;
		expect(out).toMatchObject({
			fileName: 'later.pdf',
			status: 'draft',
			expiresIn: 3600,
			maxFileSize: 10485760,
		});
		expect((out.upload as IDataObject).url).toMatch(/\/storage\/upload\//);
		expect(out.uploaded).toBeUndefined();
		expect(run.requests).toHaveLength(1);
		// the body holds only what was given: no recipients, no workflow
		expect(run.requests[0].body).toEqual({ fileName: 'later.pdf', title: 'Later' });
	});

	it('sends every recipient and workflow field, omitting empty ones', async () => {
		const run = await runOp(
			h,
			{
				operation: 'create',
				fileName: 'contract.pdf',
				recipients: recipientFields([
					{
						...SIGNER,
						phone: '+919876543210',
						order: 2,
						signatureMethod: 'all',
						verificationMethod: 'link_only',
						signaturePlacement: {
							searchText: 'Signature of tenant',
							pages: '1, 2',
							position: 'above',
							gap: 12,
							width: 180,
							height: 40,
						},
					},
					{ ...APPROVER, order: 0, verificationMethod: '' },
				]),
				signingSettings: {
					mode: 'parallel',
					verificationMethod: 'link_only',
					message: 'Please sign',
					reminderEveryHours: 48,
					expiresAt: '2031-01-31T18:00:00.000Z',
					emailNotifications: 'completion_only',
					whatsappNotifications: 'none',
					redirectUrl: 'https://example.com/done',
				},
				...estampParams({
					estampHardcopy: true,
					estampShipping: {
						address: {
							name: 'Asha Rao',
							address: '12 MG Road',
							city: 'Bengaluru',
							state: 'Karnataka',
							pincode: '560001',
							mobile: '9876543210',
						},
					},
				}),
			},
			[pdfItem(pdf)],
		);

		expect(run.result.error).toBeUndefined();
		expect(run.requests[0].body).toEqual({
			fileName: 'contract.pdf',
			recipients: [
				{
					name: 'Asha Rao',
					email: 'asha@example.com',
					role: 'signer',
					phone: '+919876543210',
					order: 2,
					signatureMethod: 'all',
					verificationMethod: 'link_only',
					signaturePlacement: {
						type: 'text',
						searchText: 'Signature of tenant',
						pages: [1, 2],
						position: 'above',
						gap: 12,
						width: 180,
						height: 40,
					},
				},
				// n8n fills the collection's defaults; "Signing Settings Default" (empty) is left out
				{
					name: 'Vikram Shah',
					email: 'vikram@example.com',
					role: 'approver',
					signatureMethod: 'electronic',
				},
			],
			workflow: {
				mode: 'parallel',
				verificationMethod: 'link_only',
				message: 'Please sign',
				reminderEveryHours: 48,
				expiresAt: '2031-01-31T18:00:00.000Z',
				emailNotifications: 'completion_only',
				whatsappNotifications: 'none',
				redirectUrl: 'https://example.com/done',
				estampEnabled: true,
				estampConfig: {
					state: 'KA',
					article: 'Affidavit',
					amount: '100',
					considerationAmount: '0',
					payee: 'first-party',
					hardcopy: 'y',
					firstParty: {
						name: 'Asha Rao',
						email: 'asha@example.com',
						mobile: '9876543210',
						address: '12 MG Road, Bengaluru',
					},
					secondParty: {
						name: 'Vikram Shah',
						email: 'vikram@example.com',
						address: '4 Park Street, Bengaluru',
					},
					shipping: {
						name: 'Asha Rao',
						address: '12 MG Road',
						city: 'Bengaluru',
						state: 'Karnataka',
						pincode: '560001',
						mobile: '9876543210',
					},
				},
			},
		});
		expect(run.items[0].json).toMatchObject({ recipientsAdded: 2, status: 'draft' });
	});

	it('e-stamp for a state without a bundled list: a typed or mapped article is sent as given', async () => {
		const run = await runOp(
			h,
			{
				operation: 'create',
				recipients: recipientFields([SIGNER]),
				// DL has no bundled list, so its article is typed or mapped; an article left in
				// the dropdown from KA is not read.
				...estampParams({
					estampState: 'DL',
					estampArticle: 'Affidavit',
					estampArticleValue: '={{ $json.article ?? "Rent Agreement" }}',
				}),
			},
			[pdfItem(pdf), pdfItem(pdf, { article: 'Indemnity Bond' })],
		);
		expect(run.result.error).toBeUndefined();
		const creates = run.requests.filter((r) => r.path === '/api/v1/envelopes');
		expect(
			creates.map((r) => ((r.body as IDataObject).workflow as IDataObject).estampConfig),
		).toEqual([
			expect.objectContaining({ state: 'DL', article: 'Rent Agreement' }),
			expect.objectContaining({ state: 'DL', article: 'Indemnity Bond' }),
		]);
	});

	it('e-stamp parties mapped to nothing are refused by the schema before any request', async () => {
		const params = estampParams() as IDataObject;
		// Mapped to nothing (a field left empty in the editor is stopped by n8n's own required check).
		for (const key of Object.keys(params).filter((k) => /^estamp(First|Second)Party/.test(k)))
			params[key] = '={{ "" }}';
		const run = await runOp(
			h,
			{ operation: 'create', recipients: recipientFields([SIGNER]), ...params },
			[pdfItem(pdf)],
		);
		expect(errorText(run)).toContain('First Party (Legal Name, Email, Address): is required');
		expect(errorText(run)).toContain('Second Party (Legal Name, Email, Address): is required');
		expect(run.requests).toEqual([]);
	});

	it('takes recipients as JSON mapped from the previous node, one envelope per item', async () => {
		const run = await runOp(
			h,
			{
				operation: 'create',
				title: '={{ $json.title }}',
				recipientsInput: 'json',
				recipientsJson: '={{ $json.people }}',
			},
			[
				pdfItem(pdf, { title: 'First', people: [SIGNER] }),
				pdfItem(pdf, {
					title: 'Second',
					people: { recipients: [SIGNER, { name: 'Cc Only', phone: '+14155550100', role: 'cc' }] },
				}),
			],
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((i) => [i.json.title, i.json.recipientsAdded, i.pairedItem])).toEqual([
			['First', 1, { item: 0 }],
			['Second', 2, { item: 1 }],
		]);
	});

	it.each([
		['UNAUTHORIZED', () => 'service_not-a-real-key', 'UNAUTHORIZED'],
		['FORBIDDEN', () => h.sandbox.disabledApiKey, 'FORBIDDEN'],
	])(
		'a %s answer stops the item before any upload, and the key is never shown',
		async (_label, key, code) => {
			const apiKey = key();
			const run = await runOp(
				h,
				{ operation: 'create', recipients: recipientFields([SIGNER]) },
				[pdfItem(pdf)],
				{
					credentials: { apiKey },
				},
			);
			expect(run.result.error).toBeDefined();
			expect(errorText(run)).toContain(code);
			expect(errorText(run)).not.toContain(apiKey);
			expect(run.requests.map((r) => r.path)).toEqual(['/api/v1/envelopes']);
		},
	);

	it('under Continue On Fail, an item whose create is refused becomes an error item; the others are created', async () => {
		const run = await runOp(
			h,
			{
				operation: 'create',
				recipients: recipientFields([SIGNER]),
				binaryPropertyName: '={{ $json.field }}',
			},
			[
				pdfItem(pdf, { field: 'data' }),
				pdfItem(pdf, { field: 'missing' }),
				pdfItem(pdf, { field: 'data' }),
			],
			{ continueOnFail: true },
		);
		expect(run.items).toHaveLength(3);
		expect(run.items[0].json.status).toBe('draft');
		expect(run.items[1].json.error).toContain("no binary field 'missing'");
		expect(run.items[2].json.status).toBe('draft');
		expect(run.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(run.requests.filter((r) => r.path === '/api/v1/envelopes')).toHaveLength(2);
	});
});
