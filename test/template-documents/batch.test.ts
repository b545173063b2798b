/** The scheduled-batch use in one node run: 50 rows become 50 documents, created and sent, in row order. */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { createDocumentParams, errorText, runTemplateOp, seedLease, tenant } from './helpers';

const ROWS = 50;

describe('batch of documents from a template', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it(`${ROWS} input items become ${ROWS} sent documents: output in order with pairedItem, none created twice`, async () => {
		const id = await seedLease(h);
		const input = Array.from({ length: ROWS }, (_, n) => ({
			json: { ...tenant(n + 1), company: `Company ${n + 1}` },
		}));
		const run = await runTemplateOp(
			h,
			createDocumentParams(id, {
				sendImmediately: true,
				prefill: { mappingMode: 'defineBelow', value: { company: '={{ $json.company }}' } },
			}),
			input,
		);
		expect(errorText(run)).toBe('');

		expect(run.items).toHaveLength(ROWS);
		expect(run.items.map((item) => item.pairedItem)).toEqual(input.map((_, n) => ({ item: n })));
		expect(run.items.map((item) => item.json.title)).toEqual(
			input.map((item) => `Lease - ${item.json.name}`),
		);
		expect(
			run.items.every(
				(item) => item.json.status === 'pending' && (item.json.steps as string[]).length === 2,
			),
		).toBe(true);
		const envelopeIds = run.items.map((item) => item.json.envelopeId as string);
		expect(new Set(envelopeIds).size).toBe(ROWS);

		const all = (await h.api<{ items: IDataObject[] }>('GET', '/envelopes?limit=100')).items;
		expect(all).toHaveLength(ROWS);
		expect(new Set(all.map((e) => e.title)).size).toBe(ROWS);
		expect(all.every((e) => e.status === 'pending')).toBe(true);
		expect(all.map((e) => e.id).sort()).toEqual([...envelopeIds].sort());

		const creates = run.requests.filter(
			(r) => r.method === 'POST' && r.path.endsWith('/documents'),
		);
		const sends = run.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/send'));
		expect([creates.length, sends.length]).toEqual([ROWS, ROWS]);
		// the template is read once for the whole batch
		expect(run.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
		// each item's prefill reached its own document
		const fields = await h.api<{ items: IDataObject[] }>(
			'GET',
			`/envelopes/${envelopeIds[41]}/fields`,
		);
		expect(fields.items.find((f) => f.fieldKey === 'company')?.value).toBe('Company 42');
	});
});
