/**
 * Envelope and credit operations against the variant service (the sandbox's variant mode:
 * other choices wherever the specification is silent). Operations whose path and body the
 * specification shows work unchanged; a guess the service does not follow works through
 * the setting a user changes, or fails with an error naming the assumption and the setting.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { adminPost } from '../sandbox-admin';
import {
	byId,
	estampParams,
	expectFails,
	expectWorks,
	listQueries,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	seedEnvelope,
	setStatus,
	SIGNER,
	APPROVER,
	VARIANT_PATHS,
	waitFor,
} from './helpers';

let h: Harness;
let pdf: Buffer;

beforeAll(async () => {
	h = await startHarness({ variant: true });
	pdf = await makePdf();
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

describe('envelope operations against the variant service', () => {
	it('create: works unchanged', async () => {
		const run = await runOp(
			h,
			{
				operation: 'create',
				pdfSource: 'binary',
				binaryPropertyName: 'data',
				title: 'Lease',
				recipientsInput: 'fields',
				recipients: recipientFields([SIGNER]),
			},
			[pdfItem(pdf)],
		);
		expect(expectWorks(run)).toMatchObject({ status: 'draft', recipientsAdded: 1 });
	});

	it('get status, get fields, send, download file: work unchanged', async () => {
		const id = (await seedEnvelope(h, {}, { upload: pdf })).id as string;
		expect(
			expectWorks(await runOp(h, { operation: 'getStatus', envelopeId: byId(id) })),
		).toMatchObject({ envelopeId: id, status: 'draft' });
		expect(
			expectWorks(await runOp(h, { operation: 'getFields', envelopeId: byId(id) })),
		).toMatchObject({ envelopeId: id });
		const sent = expectWorks(await runOp(h, { operation: 'send', envelopeId: byId(id) }));
		expect(sent).toMatchObject({ envelopeId: id, status: 'pending' });
		expect((sent.recipients as unknown[]).length).toBe(1);
		const file = await runOp(h, {
			operation: 'downloadFile',
			envelopeId: byId(id),
			download: true,
			binaryPropertyName: 'data',
		});
		expect(expectWorks(file)).toMatchObject({ envelopeId: id, size: expect.any(Number) });
	});

	it('errors are read by their code, whatever the status (FILE_NOT_UPLOADED answered 409, NOT_AVAILABLE 410)', async () => {
		const id = (await seedEnvelope(h)).id as string;
		const send = await runOp(h, { operation: 'send', envelopeId: byId(id) });
		expect(send.requests[0].status).toBe(409);
		expectFails(send, ['FILE_NOT_UPLOADED']);
		const file = await runOp(h, {
			operation: 'downloadFile',
			envelopeId: byId(id),
			download: false,
			includeStatus: false,
		});
		expect(file.requests[0].status).toBe(410);
		expectFails(file, ['NOT_AVAILABLE']);
	});

	it('check e-stamp: works unchanged', async () => {
		await adminPost(h.sandbox, 'estamp', { completeAfterMs: null });
		const created = await runOp(
			h,
			{
				operation: 'create',
				pdfSource: 'binary',
				binaryPropertyName: 'data',
				title: 'Stamped',
				recipientsInput: 'fields',
				recipients: recipientFields([SIGNER]),
				...estampParams(),
			},
			[pdfItem(pdf)],
		);
		const id = expectWorks(created).id as string;
		expect(expectWorks(await runOp(h, { operation: 'send', envelopeId: byId(id) }))).toMatchObject({
			status: 'estamping',
			estamp: { enabled: true },
		});
		await waitFor(async () =>
			(await h.api<{ estamp?: { status?: string } }>('GET', `/envelopes/${id}/status`)).estamp
				?.status === 'pending'
				? true
				: undefined,
		);
		expect(
			expectWorks(await runOp(h, { operation: 'checkEstamp', envelopeId: byId(id) })),
		).toMatchObject({ envelopeId: id, queued: true });
	});

	it('get many: a status the guesses do not hold (declined) is sent and found', async () => {
		const declined = (await seedEnvelope(h, { title: 'Declined one' })).id as string;
		await seedEnvelope(h, { title: 'Draft one' });
		await setStatus(h, declined, 'declined');
		const run = await runOp(h, {
			operation: 'getMany',
			returnAll: true,
			filters: { status: 'declined' },
		});
		expect(errorText(run)).toBe('');
		expect(run.items.map((item) => item.json.id)).toEqual([declined]);
	});

	it('get many: the page size the service refuses (100 > 50) is lowered and every envelope read', async () => {
		for (let n = 0; n < 55; n++)
			await h.api('POST', '/envelopes', { fileName: `e${n}.pdf`, title: `E${n}` });
		const run = await runOp(h, { operation: 'getMany', returnAll: true });
		expect(errorText(run)).toBe('');
		expect(new Set(run.items.map((item) => item.json.id)).size).toBe(55);
		expect(listQueries(run, '/envelopes')).toEqual([
			{ status: 400, limit: '100', page: '1' },
			{ status: 200, limit: '50', page: '1' },
			{ status: 200, limit: '50', page: '2' },
		]);
		// A Limit within the service's maximum asks once.
		const limited = await runOp(h, { operation: 'getMany', returnAll: false, limit: 7 });
		expect(limited.items).toHaveLength(7);
		expect(listQueries(limited, '/envelopes')).toEqual([{ status: 200, limit: '7', page: '1' }]);
	});

	describe('add recipients', () => {
		const twoDraft = async () =>
			(await seedEnvelope(h, { recipients: [SIGNER, APPROVER] })).id as string;

		it('append: works unchanged', async () => {
			const id = await twoDraft();
			const run = await runOp(h, {
				operation: 'addRecipients',
				envelopeId: byId(id),
				recipientsInput: 'fields',
				recipients: recipientFields([{ name: 'C', email: 'c@example.com', role: 'cc' }]),
			});
			expect((expectWorks(run).recipients as unknown[]).length).toBe(3);
		});

		it('replace with the guessed flag: the service appended, so the item fails naming the assumption and the setting', async () => {
			const id = await twoDraft();
			const run = await runOp(h, {
				operation: 'addRecipients',
				envelopeId: byId(id),
				replace: true,
				recipientsInput: 'fields',
				recipients: recipientFields([SIGNER]),
			});
			expectFails(run, [
				'the service appended instead of replacing',
				'now has 3 recipients, 1 were sent',
				'Add recipients: append or replace',
				'Replace Request Fields (JSON)',
			]);
			expect(run.requests.filter((r) => r.method === 'POST')[0].body).toMatchObject({
				replace: true,
			});
		});

		it("replace with Replace Request Fields set to the service's way: works", async () => {
			const id = await twoDraft();
			const run = await runOp(h, {
				operation: 'addRecipients',
				envelopeId: byId(id),
				replace: true,
				replaceFields: '{"mode": "replace"}',
				recipientsInput: 'fields',
				recipients: recipientFields([SIGNER]),
			});
			expect((expectWorks(run).recipients as unknown[]).length).toBe(1);
			expect(run.requests.filter((r) => r.method === 'POST')[0].body).toEqual({
				recipients: [expect.objectContaining({ name: SIGNER.name })],
				mode: 'replace',
			});
		});
	});

	it('a WhatsApp notification value beyond the guesses (critical) is sent', async () => {
		const run = await runOp(h, {
			operation: 'create',
			pdfSource: 'none',
			fileName: 'w.pdf',
			title: 'W',
			signingSettings: { whatsappNotifications: '={{ "critical" }}' },
		});
		expectWorks(run);
		expect(run.requests[0].body).toMatchObject({ workflow: { whatsappNotifications: 'critical' } });
	});
});

describe('credit operations against the variant service', () => {
	const credit = (parameters: Record<string, unknown>, credentials?: IDataObject) =>
		runOp(h, { resource: 'credit', ...parameters }, undefined, { credentials });

	it('get balance on the guessed path: fails naming the path as a guess and the credential field', async () => {
		const run = await credit({ operation: 'getBalance' });
		expectFails(run, [
			'NOT_FOUND',
			'GET /credits/balance: this path is a guess',
			'"Credit Balance Path"',
			'Credit balance path and fields',
		]);
	});

	it("get balance with the credential's Credit Balance Path set: the answer whole", async () => {
		const run = await credit(
			{ operation: 'getBalance' },
			{ creditBalancePath: VARIANT_PATHS.creditBalancePath },
		);
		expect(expectWorks(run)).toEqual({
			context: 'personal',
			available: expect.any(Number),
			reserved: 0,
			unit: 'credit',
		});
	});

	it('get transactions: a type beyond the guesses (bonus) is sent; the page size adapts', async () => {
		const run = await credit({
			operation: 'getTransactions',
			returnAll: true,
			filters: { type: '={{ "bonus" }}' },
		});
		expect(errorText(run)).toBe('');
		expect(listQueries(run, '/credits/transactions').map((q) => q.limit)).toEqual(['100', '50']);
		expect(run.requests.at(-1)?.query).toMatchObject({ type: 'bonus' });
	});

	it('get usage: works unchanged', async () => {
		const run = await credit({
			operation: 'getUsage',
			startDate: '2024-01-01',
			endDate: '2024-01-31',
		});
		expect(expectWorks(run)).toMatchObject({
			totalUsed: 0,
			period: { startDate: '2024-01-01', endDate: '2024-01-31' },
		});
	});
});

function errorText(run: Awaited<ReturnType<typeof runOp>>): string {
	const error = run.result.error as (Error & { description?: string }) | undefined;
	return error ? `${error.message}\n${error.description ?? ''}` : '';
}
