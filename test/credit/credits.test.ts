/**
 * Credit operations against the sandbox: the balance of a personal key and of an
 * organization key (its wallet), transactions with the type filter and Return All / Limit,
 * usage over dates as n8n's date picker gives them; bad dates refused before any request.
 */
import { type Harness, startHarness } from '../harness';
import {
	configFor,
	errorText,
	keyWith,
	type Params,
	PARTICIPANTS,
	runWorkflowOp,
	seedTemplate,
} from '../workflow/helpers';

describe('credit operations', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const credit = (params: Params, options: Parameters<typeof runWorkflowOp>[3] = {}) =>
		runWorkflowOp(h, { resource: 'credit', ...params }, undefined, options);

	/** `runs` workflow runs whose signer uses Aadhaar OTP: one credit each, taken at send. */
	async function spendCredits(runs: number, apiKey?: string): Promise<void> {
		const participants = [{ ...PARTICIPANTS[0], signatureMethod: 'aadhaar_otp' }];
		const template = await seedTemplate(h, {}, { apiKey });
		const created = await h.api<{ definition: { id: string } }>(
			'POST',
			'/workflows',
			{ name: 'Aadhaar', config: configFor(template.id as string, { participants }) },
			apiKey,
		);
		const id = created.definition.id;
		await h.api('POST', `/workflows/${id}/publish`, undefined, apiKey);
		for (let n = 0; n < runs; n++) {
			await h.api(
				'POST',
				`/workflows/${id}/runs`,
				{
					title: `Run ${n}`,
					recipients: [{ participantKey: 'client', name: 'Asha', email: 'asha@example.com' }],
				},
				apiKey,
			);
		}
	}

	it('get balance: a personal key sees its balance, an organization key the wallet; context explains which', async () => {
		const personal = await credit({ operation: 'getBalance' });
		expect(personal.items[0].json).toEqual({
			context: 'personal',
			balance: 25,
			currency: 'credits',
		});

		const org = await credit(
			{ operation: 'getBalance' },
			{ credentials: { apiKey: h.sandbox.orgApiKey } },
		);
		expect(org.items[0].json).toEqual({
			context: 'organization_wallet',
			balance: 100,
			currency: 'credits',
		});

		await spendCredits(2, h.sandbox.orgApiKey);
		const after = await credit(
			{ operation: 'getBalance' },
			{ credentials: { apiKey: h.sandbox.orgApiKey } },
		);
		expect(after.items[0].json).toMatchObject({ balance: 98 });
		const personalAfter = await credit({ operation: 'getBalance' });
		expect(personalAfter.items[0].json).toMatchObject({ balance: 25 });
	});

	it('get transactions: type filter, Limit and Return All, only the key workspace', async () => {
		await spendCredits(3);
		await spendCredits(1, h.sandbox.orgApiKey);
		const all = await credit({ operation: 'getTransactions', returnAll: true, output: 'raw' });
		expect(all.items).toHaveLength(3);
		expect(all.items[0].json).toMatchObject({
			type: 'consume',
			amount: 1,
			signatureMethod: 'aadhaar_otp',
			source: 'api',
		});
		expect(all.items.map((i) => i.json.balanceAfter)).toEqual([22, 23, 24]);

		const limited = await credit({
			operation: 'getTransactions',
			returnAll: false,
			limit: 2,
			filters: { type: 'consume' },
		});
		expect(limited.items).toHaveLength(2);
		expect(limited.requests[0].query).toMatchObject({ type: 'consume' });

		const purchases = await credit({
			operation: 'getTransactions',
			returnAll: true,
			filters: { type: 'purchase' },
		});
		expect(purchases.items).toHaveLength(0);
	});

	it('get usage: dates as the date picker gives them, or plain days, or empty (the service default)', async () => {
		await spendCredits(2);
		const today = h.sandbox.state.nowIso().slice(0, 10);
		const picker = await credit({
			operation: 'getUsage',
			startDate: `${today}T00:00:00`,
			endDate: `${today}T00:00:00`,
		});
		expect(picker.items[0].json).toEqual({
			totalUsed: 2,
			period: { startDate: today, endDate: today },
			breakdown: { document_signing: 0, aadhaar_esign: 2 },
		});
		expect(picker.requests[0].query).toEqual({ startDate: today, endDate: today });

		const plain = await credit({
			operation: 'getUsage',
			startDate: '2020-01-01',
			endDate: '2020-01-31',
		});
		expect(plain.items[0].json).toMatchObject({
			totalUsed: 0,
			period: { startDate: '2020-01-01', endDate: '2020-01-31' },
		});

		const empty = await credit({ operation: 'getUsage' });
		expect(empty.requests[0].query).toEqual({});
		expect(empty.items[0].json).toMatchObject({ totalUsed: 2, period: { endDate: today } });
	});

	it.each([
		[
			{ startDate: '2026-02-30' },
			'Start Date: must be a real calendar date in the form YYYY-MM-DD',
		],
		[{ endDate: '01/11/2026' }, 'End Date: must be a real calendar date in the form YYYY-MM-DD'],
		[{ startDate: '2026-11-10', endDate: '2026-11-01' }, 'End Date: must not be before startDate'],
	])('get usage refuses %j before any request', async (dates, message) => {
		const run = await credit({ operation: 'getUsage', ...dates });
		expect(errorText(run)).toContain(message);
		expect(run.requests).toHaveLength(0);
	});

	it('a key without credits:read is refused by the service (FORBIDDEN), Continue On Fail keeps the item', async () => {
		const key = await keyWith(h, ['documents:read']);
		const run = await credit(
			{ operation: 'getBalance' },
			{ credentials: { apiKey: key }, continueOnFail: true },
		);
		expect(run.items).toHaveLength(1);
		expect(String(run.items[0].json.error)).toContain('credits:read');
		expect(JSON.stringify(run.items[0].json)).not.toContain(key);
	});
});
