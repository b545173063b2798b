/**
 * `null` in a text field, as an expression over data with an empty cell gives it
 * (`{{ $json.title }}` where title is null), means the same as an absent value: an optional
 * field is left out, a required one is named as missing. Objects and arrays are still
 * refused (test/reliability/text-fields.test.ts).
 */
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { pdfItem, recipientFields, SIGNER } from '../envelope/helpers';
import { makePdf } from '../fixtures';

let h: Harness;
let pdf: Buffer;
beforeAll(async () => {
	h = await startHarness();
	pdf = await makePdf(1);
});
afterAll(async () => await h.close());

async function run(params: IDataObject, v: unknown, binary = false) {
	const before = (await h.requests()).length;
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode(params as Record<string, NodeParameterValueType>, { continueOnFail: true }),
		],
		connections: chain('Seed', 'Document Signing'),
		input: [binary ? pdfItem(pdf, { v } as IDataObject) : { json: { v } as IDataObject }],
	});
	const sent = (await h.requests()).slice(before);
	return { item: result.items('Document Signing')[0], sent };
}

const createEnvelope = (title: string) => ({
	resource: 'envelope',
	operation: 'create',
	title,
	recipients: recipientFields([SIGNER]),
});

it('envelope create: Title null is created as with Title left empty', async () => {
	const withNull = await run(createEnvelope('={{ $json.v }}'), null, true);
	const empty = await run(createEnvelope(''), null, true);
	expect(withNull.item.json.error).toBeUndefined();
	expect(withNull.item.json.status).toBe('draft');
	const bodyOf = (sent: typeof empty.sent) => {
		const body = { ...(sent[0].body as IDataObject) };
		delete body.idempotencyKey;
		return body;
	};
	// The same requests (the upload address differs per envelope).
	const calls = (sent: typeof empty.sent) =>
		sent.map((r) => `${r.method} ${r.path.split('/').slice(0, 3).join('/')}`);
	expect(calls(withNull.sent)).toEqual(['POST /api/v1', 'POST /storage/upload']);
	expect(calls(withNull.sent)).toEqual(calls(empty.sent));
	expect(bodyOf(withNull.sent)).toEqual(bodyOf(empty.sent));
});

it('template create: Name null is named as required, as an empty Name is', async () => {
	const params = {
		resource: 'template',
		operation: 'create',
		name: '={{ $json.v }}',
		pdfSource: 'none',
		fileName: 'lease.pdf',
	};
	const withNull = await run(params, null);
	const empty = await run(params, '');
	expect(String(empty.item.json.error)).toContain('Name: is required');
	expect(String(withNull.item.json.error)).not.toContain('received null');
	expect(withNull.item.json.error).toBe(empty.item.json.error);
	expect(withNull.sent).toEqual([]);
});
