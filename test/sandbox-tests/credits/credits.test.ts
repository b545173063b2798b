/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { admin, client, draftWithPdf } from '../core/helpers';
import { useSandbox } from '../../sandbox-fixture';
import type { AxiosInstance } from 'axios';

const sandbox = useSandbox();

/** Sends an envelope with `aadhaar` aadhaar_otp signers (one credit each) and one electronic signer. */
async function sendWithAadhaar(api: AxiosInstance, aadhaar: number): Promise<string> {
	const recipients = [
		{ name: 'Free Signer', email: 'free@example.com', signatureMethod: 'electronic' },
		...Array.from({ length: aadhaar }, (_, i) => ({
			name: `Aadhaar ${i}`,
			email: `a${i}@example.com`,
			signatureMethod: 'aadhaar_otp',
		})),
	];
	const created = await draftWithPdf(api, { recipients });
	const sent = await api.post(`/envelopes/${created.id}/send`);
	if (sent.status !== 200) throw new Error(JSON.stringify(sent.data));
	return created.id;
}

describe('GET /credits/balance', () => {
	test('personal keys see the personal balance, organization keys the organization wallet', async () => {
		const personal = await client(sandbox).get('/credits/balance');
		expect(personal.status).toBe(200);
		expect(personal.data).toEqual({ context: 'personal', balance: 25, currency: 'credits' });
		const org = await client(sandbox, sandbox.orgApiKey).get('/credits/balance');
		expect(org.data).toEqual({ context: 'organization_wallet', balance: 100, currency: 'credits' });

		await sendWithAadhaar(client(sandbox, sandbox.orgApiKey), 2);
		expect((await client(sandbox, sandbox.orgApiKey).get('/credits/balance')).data.balance).toBe(
			98,
		);
		expect((await client(sandbox).get('/credits/balance')).data.balance).toBe(25);
	});

	test('needs credits:read', async () => {
		const key = (
			await admin(sandbox).post('/keys', { workspace: 'personal', scopes: ['documents:read'] })
		).data.apiKey;
		const res = await client(sandbox, key).get('/credits/balance');
		expect(res.status).toBe(403);
		expect(res.data.message).toMatch(/credits:read/);
		expect((await client(sandbox, null).get('/credits/transactions')).status).toBe(401);
	});
});

describe('GET /credits/transactions', () => {
	test('lists the workspace transactions newest first, with the fields of 2.12', async () => {
		const api = client(sandbox);
		const first = await sendWithAadhaar(api, 1);
		const second = await sendWithAadhaar(api, 2);
		await sendWithAadhaar(client(sandbox, sandbox.orgApiKey), 1);
		const res = await api.get('/credits/transactions');
		expect(res.status).toBe(200);
		expect(res.data.items.map((t: any) => t.envelopeId)).toEqual([second, first]);
		expect(res.data.items[0]).toEqual({
			id: expect.any(String),
			type: 'consume',
			amount: 2,
			balanceAfter: 22,
			reason: expect.any(String),
			description: expect.any(String),
			envelopeId: second,
			signatureMethod: 'aadhaar_otp',
			source: 'api',
			createdAt: expect.any(String),
		});
		expect(res.data.pageInfo).toEqual({
			page: 1,
			limit: 20,
			total: 2,
			totalPages: 1,
			hasNext: false,
			hasPrevious: false,
		});
	});

	test('pages and filters by type; an invalid type is VALIDATION_ERROR', async () => {
		const api = client(sandbox);
		for (let i = 0; i < 3; i++) await sendWithAadhaar(api, 1);
		const page = await api.get('/credits/transactions', { params: { page: 2, limit: 2 } });
		expect(page.data.items).toHaveLength(1);
		expect(page.data.pageInfo).toMatchObject({
			page: 2,
			limit: 2,
			total: 3,
			totalPages: 2,
			hasNext: false,
			hasPrevious: true,
		});
		expect(
			(await api.get('/credits/transactions', { params: { type: 'consume' } })).data.items,
		).toHaveLength(3);
		expect(
			(await api.get('/credits/transactions', { params: { type: 'purchase' } })).data.items,
		).toHaveLength(0);
		const bad = await api.get('/credits/transactions', { params: { type: 'spend' } });
		expect(bad.status).toBe(400);
		expect(bad.data.code).toBe('VALIDATION_ERROR');
		expect(bad.data.details.validation.issues[0]).toMatchObject({
			path: 'type',
			code: 'invalid_enum_value',
		});
		expect((await api.get('/credits/transactions', { params: { limit: 1000 } })).status).toBe(400);
	});
});

describe('GET /credits/usage', () => {
	test('sums consumption in the period with the breakdown', async () => {
		const api = client(sandbox);
		await sendWithAadhaar(api, 2);
		await sendWithAadhaar(api, 1);
		const today = sandbox.state.nowIso().slice(0, 10);
		const res = await api.get('/credits/usage', { params: { startDate: today, endDate: today } });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			totalUsed: 3,
			period: { startDate: today, endDate: today },
			breakdown: { document_signing: 0, aadhaar_esign: 3 },
		});
		expect((await client(sandbox, sandbox.orgApiKey).get('/credits/usage')).data.totalUsed).toBe(0);
	});

	test('dates outside the period are not counted; defaults cover the last 30 days', async () => {
		const api = client(sandbox);
		await sendWithAadhaar(api, 1);
		const sentDay = sandbox.state.nowIso().slice(0, 10);
		await admin(sandbox).post('/clock', { advanceSeconds: 2 * 86400 });
		await sendWithAadhaar(api, 2);
		const today = sandbox.state.nowIso().slice(0, 10);
		expect((await api.get('/credits/usage', { params: { startDate: today } })).data.totalUsed).toBe(
			2,
		);
		expect((await api.get('/credits/usage', { params: { endDate: sentDay } })).data.totalUsed).toBe(
			1,
		);
		const all = await api.get('/credits/usage');
		expect(all.data.totalUsed).toBe(3);
		expect(all.data.period.endDate).toBe(today);
		const days =
			(Date.parse(all.data.period.endDate) - Date.parse(all.data.period.startDate)) / 86_400_000;
		expect(days).toBe(29);
		await admin(sandbox).post('/clock', { advanceSeconds: 40 * 86400 });
		expect((await api.get('/credits/usage')).data.totalUsed).toBe(0);
	});

	test('invalid dates are VALIDATION_ERROR', async () => {
		const api = client(sandbox);
		for (const bad of ['2024-02-30', '2024-13-01', '01/02/2024', 'yesterday']) {
			const res = await api.get('/credits/usage', { params: { startDate: bad } });
			expect(res.status).toBe(400);
			expect(res.data.code).toBe('VALIDATION_ERROR');
			expect(res.data.message).toBe(
				'startDate: must be a real calendar date in the form YYYY-MM-DD',
			);
			expect(res.data.details.validation.issues[0]).toMatchObject({
				path: 'startDate',
				code: 'invalid_string',
			});
		}
		const reversed = await api.get('/credits/usage', {
			params: { startDate: '2024-05-02', endDate: '2024-05-01' },
		});
		expect(reversed.status).toBe(400);
		expect(reversed.data.message).toBe('endDate: must not be before startDate');
		expect(
			(
				await api.get('/credits/usage', {
					params: { startDate: '2024-02-29', endDate: '2024-03-01' },
				})
			).status,
		).toBe(200);
	});
});
