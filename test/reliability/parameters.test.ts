import type { IDataObject } from 'n8n-workflow';
import { ExecuteContext } from 'n8n-core';

import { type Harness, startHarness } from '../harness';
import { runOp, seedEnvelope } from '../envelope/helpers';

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());
afterEach(() => jest.restoreAllMocks());

/** Counts the parameter reads that reach n8n's own resolver (it still answers them). */
function countReads() {
	let owner: object | null = ExecuteContext.prototype;
	while (owner && !Object.prototype.hasOwnProperty.call(owner, '_getNodeParameter'))
		owner = Object.getPrototypeOf(owner) as object | null;
	const spy = jest.spyOn(
		owner as { _getNodeParameter: (name: string) => unknown },
		'_getNodeParameter',
	);
	return (name: string) => spy.mock.calls.filter(([asked]) => asked === name).length;
}

describe('parameters read once per run where they cannot differ by item', () => {
	it('a parameter without an expression reaches n8n once per run; one with an expression once per item', async () => {
		const input = Array.from({ length: 30 }, (_, n) => ({ json: { title: `Lease ${n}` } }));
		const reads = countReads();
		const run = await runOp(
			h,
			{
				operation: 'create',
				pdfSource: 'none',
				fileName: 'lease.pdf',
				title: '={{ $json.title + "!" }}',
			},
			input,
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((item) => item.json.title)).toEqual(
			input.map((item) => `${item.json.title}!`),
		);
		expect(reads('fileName')).toBe(1);
		expect(reads('pdfSource')).toBe(1);
		expect(reads('title')).toBe(30);
	});

	it('a plain item field ({{ $json.x }}) is read from the item: the same values as n8n gives, never through n8n', async () => {
		const envelopes = [
			await seedEnvelope(h, { title: 'One' }),
			await seedEnvelope(h, { title: 'Two' }),
		];
		const input = envelopes.map((envelope) => ({ json: { ref: { id: envelope.id as string } } }));
		const reads = countReads();
		const run = await runOp(
			h,
			{
				operation: 'getStatus',
				envelopeId: { __rl: true, mode: 'id', value: '={{ $json.ref["id"] }}' },
			},
			input,
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((item) => item.json.envelopeId)).toEqual(envelopes.map((e) => e.id));
		expect(reads('envelopeId')).toBe(0);
	});

	it('a locator By URL mapped from the item goes to n8n, which takes the id out of the address', async () => {
		const envelope = await seedEnvelope(h, { title: 'Linked' });
		const input = [
			{ json: { link: `https://app.example.com/envelopes/${envelope.id as string}` } },
		];
		const run = await runOp(
			h,
			{
				operation: 'getStatus',
				envelopeId: { __rl: true, mode: 'url', value: '={{ $json.link }}' },
			},
			input,
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items[0].json.envelopeId).toBe(envelope.id);
	});

	it('a missing field goes to n8n, which evaluates it as before', async () => {
		const input: Array<{ json: IDataObject }> = [{ json: { title: 'Present' } }, { json: {} }];
		const reads = countReads();
		const run = await runOp(
			h,
			{
				operation: 'create',
				pdfSource: 'none',
				fileName: 'lease.pdf',
				title: '={{ $json.title }}',
			},
			input,
			{ continueOnFail: true },
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items[0].json.title).toBe('Present');
		// n8n evaluates the missing field to nothing: the create is sent without a title.
		expect(run.items[1].json.error).toBeUndefined();
		expect(run.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
			{ fileName: 'lease.pdf', title: 'Present' },
			{ fileName: 'lease.pdf' },
		]);
		expect(reads('title')).toBe(1);
	});
});
