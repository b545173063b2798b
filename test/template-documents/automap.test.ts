/**
 * Create Document's Prefill Fields in "Map Automatically" mode: the input item's fields
 * named as the template's sender-field keys are the values, typed as in "Map Each Field
 * Manually"; the item's other fields are left alone; a missing required field is named.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { createDocumentParams, errorText, runTemplateOp, seedLease, tenant } from './helpers';

const autoMap = {
	mappingMode: 'autoMapInputData',
	value: null,
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
};

describe('Create Document: Prefill Fields mapped automatically', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const postedPrefill = (run: Awaited<ReturnType<typeof runTemplateOp>>) =>
		run.requests
			.filter((r) => r.method === 'POST')
			.map((r) => (r.body as IDataObject).prefillValues);

	it("takes each item's fields named as sender-field keys, typed; other fields of the item are not sent", async () => {
		const id = await seedLease(h);
		const run = await runTemplateOp(h, createDocumentParams(id, { prefill: autoMap }), [
			{
				json: {
					...tenant(1),
					company: 'Acme Homes',
					deposit: '2500',
					furnished: 'true',
					plan: 'premium',
					start: '2027-01-31',
					note: 'not a field',
				},
			},
			{ json: { ...tenant(2), company: 'Beta Flats' } },
		]);
		expect(errorText(run)).toBe('');
		expect(run.items).toHaveLength(2);
		expect(postedPrefill(run)).toEqual([
			[
				{ fieldId: 'f-company', fieldKey: 'company', value: 'Acme Homes' },
				{ fieldId: 'f-deposit', fieldKey: 'deposit', value: 2500 },
				{ fieldId: 'f-furnished', fieldKey: 'furnished', value: true },
				{ fieldId: 'f-plan', fieldKey: 'plan', value: 'premium' },
				{ fieldId: 'f-start', fieldKey: 'start', value: '2027-01-31' },
			],
			// the second item gives only company: the stored defaults apply to the rest
			[{ fieldId: 'f-company', fieldKey: 'company', value: 'Beta Flats' }],
		]);
		const fields = (
			await h.api<{ items: IDataObject[] }>(
				'GET',
				`/envelopes/${run.items[1].json.envelopeId as string}/fields`,
			)
		).items;
		expect(
			Object.fromEntries(
				fields.filter((f) => f.recipientId === null).map((f) => [f.fieldKey, f.value]),
			),
		).toMatchObject({ company: 'Beta Flats', deposit: 0, furnished: false });
	});

	it('a value of the wrong type names the input field; with Continue On Fail the other items go on', async () => {
		const id = await seedLease(h);
		const run = await runTemplateOp(
			h,
			createDocumentParams(id, { prefill: autoMap }),
			[
				{ json: { ...tenant(1), company: 'Acme', deposit: 'a lot' } },
				{ json: { ...tenant(2), company: 'Beta' } },
			],
			{ continueOnFail: true },
		);
		expect(run.items).toHaveLength(2);
		expect(String(run.items[0].json.error)).toContain(
			'Prefill Fields (mapped automatically from the input field): "deposit" must be a number',
		);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		expect(run.items[1].json.envelopeId).toEqual(expect.any(String));
		expect(postedPrefill(run)).toHaveLength(1);
	});

	it('an item without a required field (no stored default) is refused before the create, naming the field', async () => {
		const id = await seedLease(h);
		const run = await runTemplateOp(h, createDocumentParams(id, { prefill: autoMap }), [
			{ json: tenant(1) },
		]);
		expect(errorText(run)).toContain('company');
		expect(run.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});
});
