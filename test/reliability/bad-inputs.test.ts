/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The bad-input catalogue across resources. Each row runs a batch of three items under
 * Continue On Fail where only the middle item is bad (the field under test is mapped
 * from `$json.v`): the bad item's error names the field and the rule, it sends no
 * request (the batch makes exactly the requests of its two good items), and the good
 * items succeed. Rows for more resources go into `rows` beside these.
 */
import { createHmac } from 'crypto';
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, type SeedItem, seedNode, startHarness } from '../harness';
import { startWebhookRunner } from '../harness/webhook';
import { makePdf, pdfItem, recipientFields, SIGNER, seedEnvelope } from '../envelope/helpers';

interface Row {
	name: string;
	resource: string;
	/** Node parameters; the field under test reads `{{ $json.v }}`. */
	params: IDataObject;
	/** A good value for one item (called once per good item: ids of fresh records, ...). */
	good: (h: Harness) => Promise<unknown>;
	bad: unknown;
	/** Texts the bad item's error must contain: the field, then the rule. */
	expect: string[];
	/** The items carry a PDF. */
	pdf?: boolean;
}

const V = '={{ $json.v }}';
const byV = { __rl: true, mode: 'id', value: V };
const draftId = async (h: Harness) => (await seedEnvelope(h)).id as string;
let pdf: Buffer;
/** A draft with its PDF uploaded (send and download need one). */
const readyId = async (h: Harness) => (await seedEnvelope(h, {}, { upload: pdf })).id as string;
const create = (overrides: IDataObject): IDataObject => ({
	operation: 'create',
	pdfSource: 'binary',
	binaryPropertyName: 'data',
	title: 'Lease',
	recipients: recipientFields([SIGNER]),
	...overrides,
});
const withEnvelope = (operation: string, extra: IDataObject = {}) => ({
	operation,
	envelopeId: byV,
	...extra,
});
const idRows = (operation: string, good = draftId): Row[] => [
	{
		name: `${operation}: empty envelope id`,
		resource: 'envelope',
		params: withEnvelope(operation),
		good,
		bad: '',
		expect: ['Envelope', 'envelope ID is required'],
	},
	{
		name: `${operation}: envelope id ".."`,
		resource: 'envelope',
		params: withEnvelope(operation),
		good,
		bad: '..',
		expect: ['Envelope', '".." is not an ID'],
	},
	{
		name: `${operation}: envelope id of 500 characters`,
		resource: 'envelope',
		params: withEnvelope(operation),
		good,
		bad: 'e'.repeat(500),
		expect: ['Envelope', 'at most 128 are allowed'],
	},
];
const fixed = (value: unknown) => async () => value;

export const rows: Row[] = [
	// envelope: create
	{
		name: 'create: recipient email invalid',
		resource: 'envelope',
		pdf: true,
		params: create({ recipients: recipientFields([{ ...SIGNER, email: V }]) }),
		good: fixed('asha@example.com'),
		bad: 'asha@',
		expect: ['Recipient 1 > Email', 'is not a valid email address'],
	},
	{
		name: 'create: recipient name empty',
		resource: 'envelope',
		pdf: true,
		params: create({ recipients: recipientFields([{ ...SIGNER, name: V }]) }),
		good: fixed('Asha Rao'),
		bad: '',
		expect: ['Recipient 1 > Name', 'is required'],
	},
	{
		name: 'create: recipient phone not E.164',
		resource: 'envelope',
		pdf: true,
		params: create({ recipients: recipientFields([{ name: 'Asha Rao', phone: V }]) }),
		good: fixed('+919876543210'),
		bad: '98765 43210',
		expect: ['Recipient 1 > Phone', 'E.164'],
	},
	{
		name: 'create: recipients JSON that does not parse',
		resource: 'envelope',
		pdf: true,
		params: create({ recipientsInput: 'json', recipientsJson: V }),
		good: fixed(JSON.stringify([SIGNER])),
		bad: '[{"name": ',
		expect: ['Recipients (JSON)', 'not valid JSON'],
	},
	{
		name: 'create: recipients JSON with an unknown role',
		resource: 'envelope',
		pdf: true,
		params: create({ recipientsInput: 'json', recipientsJson: V }),
		good: fixed(JSON.stringify([SIGNER])),
		bad: JSON.stringify([{ ...SIGNER, role: 'witness' }]),
		expect: ['Recipient 1 > Role', 'must be one of'],
	},
	{
		name: 'create: http redirect URL',
		resource: 'envelope',
		pdf: true,
		params: create({ signingSettings: { redirectUrl: V } }),
		good: fixed('https://example.com/done'),
		bad: 'http://example.com/done',
		expect: ['Signing Settings > Redirect URL', 'HTTPS'],
	},
	{
		name: 'create: expiry that is not a date',
		resource: 'envelope',
		pdf: true,
		params: create({ signingSettings: { expiresAt: V } }),
		good: fixed('2030-01-01T00:00:00Z'),
		bad: 'next tuesday',
		expect: ['Signing Settings > Expires At', 'ISO 8601'],
	},
	// envelope: operations on one envelope
	...idRows('getStatus'),
	...idRows('getFields'),
	...idRows('downloadFile', readyId),
	...idRows('send', readyId),
	...idRows('checkEstamp'),
	{
		name: 'addRecipients: recipient email invalid',
		resource: 'envelope',
		params: withEnvelope('addRecipients', {
			envelopeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			recipients: recipientFields([{ ...SIGNER, email: V }]),
		}),
		good: fixed('asha@example.com'),
		bad: 'asha@',
		expect: ['Recipient 1 > Email', 'is not a valid email address'],
	},
];

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
	pdf = await makePdf(1);
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

async function runBatch(row: Row, values: unknown[]) {
	const input: SeedItem[] = [];
	for (const v of values) {
		// addRecipients needs a draft of its own per item
		const json: IDataObject = { v: v as IDataObject[string], id: await draftId(h) };
		input.push(row.pdf ? pdfItem(pdf, json) : { json });
	}
	const before = (await h.requests()).length;
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode(
				{ resource: row.resource, ...row.params } as Record<string, NodeParameterValueType>,
				{ continueOnFail: true },
			),
		],
		connections: chain('Seed', 'Document Signing'),
		input,
	});
	return {
		result,
		items: result.items('Document Signing'),
		requests: (await h.requests()).length - before,
	};
}

describe.each(rows.map((row) => [row.name, row] as const))('bad input: %s', (_name, row) => {
	it('names the field and the rule, sends nothing for it, and the other items succeed', async () => {
		const single = await runBatch(row, [await row.good(h)]);
		expect(single.items[0].json.error).toBeUndefined();
		const perGoodItem = single.requests;

		const batch = await runBatch(row, [await row.good(h), row.bad, await row.good(h)]);
		expect(batch.result.error).toBeUndefined();
		const [first, bad, last] = batch.items.filter(
			(item) => (item.pairedItem as { item: number }).item !== undefined,
		);
		expect(first.json.error).toBeUndefined();
		expect(last.json.error).toBeUndefined();
		const text = `${String(bad.json.error)}\n${String(bad.json.description ?? '')}`;
		for (const part of row.expect) expect(text).toContain(part);
		expect(batch.requests).toBe(2 * perGoodItem);
	});
});

const SECRET = 'whsec_catalogue_0c8f3e1d2b4a69587f6e5d4c3b2a1908';

describe('trigger: bodies refused before a workflow starts', () => {
	const bodies: Array<[string, string, string, number, string]> = [
		['not JSON (text/plain)', '{"id": "evt_1", "event": ', 'text/plain', 400, 'INVALID_PAYLOAD'],
		['a JSON array', '[1,2]', 'application/json', 400, 'INVALID_PAYLOAD'],
		[
			'event that is a number',
			JSON.stringify({ id: 'evt_3', event: 7, createdAt: '2026-01-01T00:00:00Z', data: {} }),
			'application/json',
			400,
			'INVALID_PAYLOAD',
		],
		[
			'data that is a string',
			JSON.stringify({
				id: 'evt_4',
				event: 'document.sent',
				createdAt: '2026-01-01T00:00:00Z',
				data: 'x',
			}),
			'application/json',
			400,
			'INVALID_PAYLOAD',
		],
		[
			'a body of 2 MB',
			JSON.stringify({
				id: 'evt_5',
				event: 'document.sent',
				data: { note: 'x'.repeat(2_000_000) },
			}),
			'application/json',
			413,
			'PAYLOAD_TOO_LARGE',
		],
	];
	it.each(bodies)('%s', async (_name, body, type, status, code) => {
		const runner = await startWebhookRunner({ credentials: { webhookSecret: SECRET } });
		try {
			const signature = createHmac('sha256', SECRET).update(body).digest('hex');
			const response = await fetch(runner.url, {
				method: 'POST',
				headers: { 'content-type': type, 'X-Service-Signature': signature },
				body,
			});
			const answer = (await response.json()) as IDataObject;
			// refused for the body, not for the signature
			expect(response.status).toBe(status);
			expect(answer.code).toBe(code);
			await runner.settle();
			expect(runner.executions).toHaveLength(0);
		} finally {
			await runner.close();
		}
	});
});
