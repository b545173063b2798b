/** V1 balance, V6 paging, V10 enum values, V12 HTTP status of unshown codes: both modes. */
import { useSandbox } from '../../sandbox-fixture';
import { admin, client, draftWithPdf, MODES, signer } from './helpers';

describe.each(MODES)('%s mode', (_mode, variant) => {
	const sandbox = useSandbox({ variant });

	test('V1: the credit balance path and fields', async () => {
		const api = client(sandbox);
		const balance = await api.get('/credits/balance');
		const wallet = await api.get('/credits/wallet');
		const org = await client(sandbox, sandbox.orgApiKey).get(
			variant ? '/credits/wallet' : '/credits/balance',
		);
		if (variant) {
			expect(balance.status).toBe(404);
			expect(balance.data.code).toBe('NOT_FOUND');
			expect(wallet.status).toBe(200);
			expect(wallet.data).toEqual({
				context: 'personal',
				available: 25,
				reserved: 0,
				unit: 'credit',
			});
			expect(org.data).toEqual({
				context: 'organization_wallet',
				available: 100,
				reserved: 0,
				unit: 'credit',
			});
		} else {
			expect(balance.status).toBe(200);
			expect(balance.data).toEqual({ context: 'personal', balance: 25, currency: 'credits' });
			expect(org.data).toEqual({
				context: 'organization_wallet',
				balance: 100,
				currency: 'credits',
			});
			expect(wallet.status).toBe(404);
			expect(wallet.data.code).toBe('NOT_FOUND');
		}
		// Authentication still applies on the mode's path.
		expect(
			(await client(sandbox, null).get(variant ? '/credits/wallet' : '/credits/balance')).status,
		).toBe(401);
	});

	test('V6: default and maximum page size', async () => {
		const api = client(sandbox);
		for (let i = 0; i < 12; i++) await api.post('/envelopes', { fileName: `f${i}.pdf` });
		const first = await api.get('/envelopes');
		expect(first.data.pageInfo).toMatchObject({
			page: 1,
			limit: variant ? 10 : 20,
			total: 12,
			hasNext: variant,
		});
		expect(first.data.items).toHaveLength(variant ? 10 : 12);

		const fifty = await api.get('/envelopes', { params: { limit: 50 } });
		expect(fifty.status).toBe(200);
		const hundred = await api.get('/envelopes', { params: { limit: 100 } });
		const over = await api.get('/envelopes', { params: { limit: 101 } });
		expect(over.status).toBe(400);
		expect(over.data.details.validation.fieldErrors.limit).toEqual([
			expect.stringContaining(variant ? '50' : '100'),
		]);
		if (variant) {
			expect(hundred.status).toBe(400);
			expect(hundred.data.code).toBe('VALIDATION_ERROR');
			expect(hundred.data.details.validation.fieldErrors.limit).toEqual([
				'must be a whole number from 1 to 50',
			]);
		} else {
			expect(hundred.status).toBe(200);
		}
		// Every list follows the same paging.
		for (const path of ['/templates', '/credits/transactions', '/workflows']) {
			const listed = await api.get(path, { params: { limit: 60 } });
			if (path === '/workflows' && variant) expect(listed.status).toBe(404);
			else expect(listed.status).toBe(variant ? 400 : 200);
		}
		expect((await api.get('/workflow-definitions', { params: { limit: 60 } })).status).toBe(
			variant ? 400 : 404,
		);
	});

	test('V10: credit transaction types and whatsappNotifications values', async () => {
		const api = client(sandbox);
		for (const type of ['consume', 'purchase', 'refund', 'adjustment']) {
			expect((await api.get('/credits/transactions', { params: { type } })).status).toBe(200);
		}
		for (const type of ['bonus', 'expiry']) {
			expect((await api.get('/credits/transactions', { params: { type } })).status).toBe(
				variant ? 200 : 400,
			);
		}
		expect((await api.get('/credits/transactions', { params: { type: 'gift' } })).status).toBe(400);

		const withWhatsapp = (value: string) =>
			api.post('/envelopes', { fileName: 'a.pdf', workflow: { whatsappNotifications: value } });
		expect((await withWhatsapp('all')).status).toBe(201);
		expect((await withWhatsapp('none')).status).toBe(201);
		const critical = await withWhatsapp('critical');
		expect(critical.status).toBe(variant ? 201 : 400);
		if (!variant)
			expect(
				critical.data.details.validation.fieldErrors['workflow.whatsappNotifications'],
			).toBeDefined();
		expect((await withWhatsapp('sometimes')).status).toBe(400);
	});

	test('V12: HTTP status of codes the spec does not number; the body code is the same', async () => {
		const api = client(sandbox);
		const bare = (
			await api.post('/envelopes', {
				fileName: 'a.pdf',
				recipients: [signer('Ann', { signatureMethod: 'aadhaar_otp' })],
			})
		).data;
		const notUploaded = await api.post(`/envelopes/${bare.id}/send`, {});
		expect(notUploaded.data.code).toBe('FILE_NOT_UPLOADED');
		expect(notUploaded.status).toBe(variant ? 409 : 400);

		const file = await api.get(`/envelopes/${bare.id}/file`);
		expect(file.data.code).toBe('NOT_AVAILABLE');
		expect(file.status).toBe(variant ? 410 : 404);

		await admin(sandbox).post('/credits', { workspace: 'personal', balance: 0 });
		const draft = await draftWithPdf(api, {
			recipients: [signer('Ann', { signatureMethod: 'aadhaar_otp' })],
		});
		const poor = await api.post(`/envelopes/${draft.id}/send`, {});
		expect(poor.data.code).toBe('INSUFFICIENT_CREDITS');
		expect(poor.status).toBe(variant ? 422 : 402);
		expect(Object.keys(poor.data).sort()).toEqual(['code', 'message', 'requestId', 'timestamp']);

		// What the spec numbers stays: 400 VALIDATION_ERROR, 401, 404 NOT_FOUND, 409 INVALID_STATUS.
		expect((await api.post('/envelopes', {})).status).toBe(400);
		expect((await client(sandbox, null).get('/envelopes')).status).toBe(401);
		expect((await api.get('/envelopes/env_missing/status')).status).toBe(404);
	});
});
