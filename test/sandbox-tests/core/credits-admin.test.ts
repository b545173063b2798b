/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { admin, client, draftWithPdf, signer } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

const aadhaar = (name: string) => signer(name, { signatureMethod: 'aadhaar_otp' });

describe('credits at send', () => {
	test('one credit per aadhaar_otp recipient from the personal balance, recorded as consume/api', async () => {
		await admin(sandbox).post('/credits', { workspace: 'personal', balance: 5 });
		const api = client(sandbox);
		const created = await draftWithPdf(api, {
			recipients: [aadhaar('Ann'), aadhaar('Bob'), signer('Cy')],
		});
		expect((await api.post(`/envelopes/${created.id}/send`)).status).toBe(200);
		expect(sandbox.state.balance(sandbox.state.personalWorkspace)).toBe(3);
		expect(sandbox.state.balance(sandbox.state.organizationWorkspace)).toBe(100);
		const txs = (await admin(sandbox).get('/transactions')).data.items;
		expect(txs).toEqual([
			{
				id: expect.any(String),
				workspace: { type: 'personal', id: expect.any(String) },
				type: 'consume',
				amount: 2,
				balanceAfter: 3,
				reason: expect.any(String),
				description: expect.any(String),
				envelopeId: created.id,
				signatureMethod: 'aadhaar_otp',
				source: 'api',
				createdAt: expect.any(String),
			},
		]);
	});

	test('free methods consume nothing', async () => {
		const api = client(sandbox);
		const created = await draftWithPdf(api, {
			recipients: [signer('Ann'), signer('Bob', { signatureMethod: 'dsc_usb' })],
		});
		await api.post(`/envelopes/${created.id}/send`);
		expect(sandbox.state.creditTransactions).toHaveLength(0);
		expect(sandbox.state.balance(sandbox.state.personalWorkspace)).toBe(25);
	});

	test('INSUFFICIENT_CREDITS (402) leaves the draft and balance untouched', async () => {
		await admin(sandbox).post('/credits', { workspace: 'personal', balance: 1 });
		const api = client(sandbox);
		const created = await draftWithPdf(api, { recipients: [aadhaar('Ann'), aadhaar('Bob')] });
		const res = await api.post(`/envelopes/${created.id}/send`);
		expect(res.status).toBe(402);
		expect(res.data).toMatchObject({
			code: 'INSUFFICIENT_CREDITS',
			message: expect.stringMatching(/2 credit.*has 1/),
		});
		expect((await api.get(`/envelopes/${created.id}/status`)).data.status).toBe('draft');
		expect(sandbox.state.balance(sandbox.state.personalWorkspace)).toBe(1);
		expect(sandbox.state.creditTransactions).toHaveLength(0);
	});

	test('an organization key spends the organization wallet', async () => {
		await admin(sandbox).post('/credits', { workspace: 'organization', balance: 1 });
		const org = client(sandbox, sandbox.orgApiKey);
		const one = await draftWithPdf(org, { recipients: [aadhaar('Ann')] });
		expect((await org.post(`/envelopes/${one.id}/send`)).status).toBe(200);
		expect(sandbox.state.balance(sandbox.state.organizationWorkspace)).toBe(0);
		expect(sandbox.state.balance(sandbox.state.personalWorkspace)).toBe(25);
		expect(sandbox.state.creditTransactions[0]).toMatchObject({
			workspace: { type: 'organization' },
			balanceAfter: 0,
		});
		const two = await draftWithPdf(org, { recipients: [aadhaar('Bob')] });
		const refused = await org.post(`/envelopes/${two.id}/send`);
		expect(refused.status).toBe(402);
		expect(refused.data.message).toMatch(/organization wallet/);
	});
});

describe('admin routes', () => {
	test('reset: fresh state with the same keys; minted keys are dropped', async () => {
		const api = client(sandbox);
		await api.post('/envelopes', { fileName: 'a.pdf' });
		const minted = (await admin(sandbox).post('/keys', { workspace: 'personal' })).data.apiKey;
		await admin(sandbox).post('/clock', { advanceSeconds: 7200 });
		await admin(sandbox).post('/credits', { workspace: 'personal', balance: 0 });
		expect((await admin(sandbox).post('/reset')).data).toEqual({ reset: true });
		expect((await api.get('/envelopes')).data.pageInfo.total).toBe(0);
		expect((await client(sandbox, minted).get('/envelopes')).status).toBe(401);
		expect(sandbox.state.balance(sandbox.state.personalWorkspace)).toBe(25);
		expect((await admin(sandbox).get('/clock')).data.offsetSeconds).toBe(0);
		const log = (await admin(sandbox).get('/requests')).data.items;
		expect(log.map((e: any) => e.path)).toEqual(['/api/v1/envelopes', '/api/v1/envelopes']);
	});

	test('clock: advancing moves createdAt of new records', async () => {
		const res = await admin(sandbox).post('/clock', { advanceSeconds: 86400 });
		expect(Date.parse(res.data.now) - Date.now()).toBeGreaterThan(86000_000);
		const created = await client(sandbox).post('/envelopes', { fileName: 'a.pdf' });
		expect(Date.parse(created.data.createdAt) - Date.now()).toBeGreaterThan(86000_000);
		expect((await admin(sandbox).post('/clock', { advanceSeconds: -1 })).status).toBe(400);
	});

	test('keys: minted with chosen scopes and workspace', async () => {
		const res = await admin(sandbox).post('/keys', {
			workspace: 'organization',
			scopes: ['documents:read'],
		});
		expect(res.data).toMatchObject({
			apiKey: expect.stringMatching(/^service_/),
			workspace: { type: 'organization' },
			scopes: ['documents:read'],
			disabled: false,
		});
		expect((await admin(sandbox).post('/keys', { workspace: 'team' })).status).toBe(400);
	});

	test('credits: invalid body -> VALIDATION_ERROR', async () => {
		expect(
			(await admin(sandbox).post('/credits', { workspace: 'personal', balance: -1 })).status,
		).toBe(400);
	});
});
