/**
 * Bad input never reaches the service: each case runs a real workflow, expects an error
 * that names the field and the rule, and finds no request at all in the sandbox's log.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, type SeedItem, startHarness } from '../harness';
import {
	APPROVER,
	errorText,
	estampParams,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	SIGNER,
	type Params,
} from './helpers';

interface Case {
	name: string;
	params: Params;
	/** Input items; a valid PDF item by default. */
	input?: () => SeedItem[];
	/** Texts the error must contain: the field, then the rule. */
	expect: string[];
	/** Texts the error must not contain (noise such as a format check on an empty field). */
	absent?: string[];
}

let pdf: Buffer;

const createWith = (overrides: Params): Params => ({
	operation: 'create',
	pdfSource: 'binary',
	binaryPropertyName: 'data',
	title: 'Lease',
	recipientsInput: 'fields',
	recipients: recipientFields([SIGNER]),
	...overrides,
});

const withRecipients = (recipients: IDataObject[]) =>
	createWith({ recipients: recipientFields(recipients) });
const withJsonRecipients = (recipients: unknown) =>
	createWith({ recipientsInput: 'json', recipientsJson: JSON.stringify(recipients) });
const withSettings = (signingSettings: IDataObject) => createWith({ signingSettings });
const withEstamp = (overrides: Params) => createWith(estampParams(overrides));
/** The flat parameters of one e-stamp party (`estampFirstPartyName`, ...). */
const party = (who: 'First' | 'Second', values: IDataObject) =>
	Object.fromEntries(
		['name', 'email', 'mobile', 'address'].map((f) => [
			`estamp${who}Party${f[0].toUpperCase()}${f.slice(1)}`,
			values[f] ?? '',
		]),
	);
const shipping = (values: IDataObject) => ({
	address: {
		name: 'Asha Rao',
		address: '12 MG Road',
		city: 'Bengaluru',
		state: 'Karnataka',
		pincode: '560001',
		mobile: '9876543210',
		...values,
	},
});

const cases: Case[] = [
	// recipients
	{
		name: 'recipient without a name (mapped empty)',
		params: withRecipients([{ name: '={{ $json.name ?? "" }}', email: 'asha@example.com' }]),
		expect: ['Recipient 1 > Name', 'is required'],
	},
	{
		name: 'recipient without a contact',
		params: withRecipients([{ name: 'Asha Rao' }]),
		expect: ['Recipient 1 > Email', 'needs a contact'],
	},
	{
		name: 'recipient with an empty email and no phone (JSON)',
		params: withJsonRecipients([{ name: 'Asha Rao', email: '' }]),
		expect: ['Recipient 1 > Email', 'needs a contact'],
		absent: ['is not a valid email address', 'more)'],
	},
	{
		name: 'recipient with a bad email',
		params: withRecipients([{ ...SIGNER, email: 'asha@' }]),
		expect: ['Recipient 1 > Email', 'is not a valid email address'],
	},
	{
		name: 'recipient phone not E.164',
		params: withRecipients([{ name: 'Asha Rao', phone: '98765 43210' }]),
		expect: ['Recipient 1 > Phone', 'E.164'],
	},
	{
		name: 'unknown role',
		params: withJsonRecipients([{ ...SIGNER, role: 'witness' }]),
		expect: ['Recipient 1 > Role', 'must be one of: signer, approver, cc'],
	},
	{
		name: 'unknown signature method',
		params: withJsonRecipients([{ ...SIGNER, signatureMethod: 'ink' }]),
		expect: ['Recipient 1 > Signature Method', 'must be one of'],
	},
	{
		name: 'unknown verification method',
		params: withJsonRecipients([{ ...SIGNER, verificationMethod: 'sms' }]),
		expect: ['Recipient 1 > Verification Method', 'must be one of'],
	},
	{
		name: '16 recipients',
		params: withRecipients(
			Array.from({ length: 16 }, (_, n) => ({
				name: `Person ${n}`,
				email: `p${n}@example.com`,
				role: 'signer',
			})),
		),
		expect: ['Recipients', 'at most 15 recipients'],
	},
	{
		name: 'no signer among recipients',
		params: withRecipients([APPROVER]),
		expect: ['Recipients', 'at least one signer'],
	},
	{
		name: 'order 0 through JSON',
		params: withJsonRecipients([{ ...SIGNER, order: 0 }]),
		expect: ['Recipient 1 > Signing Order', 'from 1'],
	},
	{
		name: 'placement page that is not a number',
		params: withRecipients([
			{ ...SIGNER, signaturePlacement: { searchText: 'Signature', pages: '1, x' } },
		]),
		expect: ['Recipient 1 > Signature Placement > Pages, entry 2', 'must be a number'],
	},
	{
		name: 'recipients JSON that does not parse',
		params: createWith({ recipientsInput: 'json', recipientsJson: '[{"name": ' }),
		expect: ['Recipients (JSON)', 'not valid JSON'],
	},
	// workflow settings
	{
		name: 'http redirect URL',
		params: withSettings({ redirectUrl: 'http://example.com/done' }),
		expect: ['Signing Settings > Redirect URL', 'HTTPS'],
	},
	{
		name: 'unknown mode',
		params: withSettings({ mode: 'random' }),
		expect: ['Signing Settings > Mode', 'must be one of: sequential, parallel'],
	},
	{
		name: 'unknown email notification value',
		params: withSettings({ emailNotifications: 'sometimes' }),
		expect: ['Signing Settings > Email Notifications', 'must be one of'],
	},
	{
		name: 'unknown email notification value',
		params: withSettings({ emailNotifications: 'daily' }),
		expect: ['Signing Settings > Email Notifications', 'must be one of'],
	},
	// A key the schema does not list is refused by name, never dropped silently.
	{
		name: 'recipient JSON with a misspelt property',
		params: withJsonRecipients([{ ...SIGNER, emial: 'x@example.com' }]),
		expect: ['Recipient 1 > emial', 'is not a field the API takes'],
	},
	{
		name: 'reminder every 0 hours',
		params: withSettings({ reminderEveryHours: 0 }),
		expect: ['Signing Settings > Reminder Every (Hours)', 'must be a number of 1 or more'],
	},
	{
		name: 'expiry that is not a date',
		params: withSettings({ expiresAt: 'next tuesday' }),
		expect: ['Signing Settings > Expires At', 'ISO 8601'],
	},
	{
		name: 'expiry in the past',
		params: withSettings({ expiresAt: '2020-01-31T18:00:00Z' }),
		expect: ['Signing Settings > Expires At', 'must be in the future'],
	},
	// e-stamp
	{
		name: 'e-stamp state not supported',
		params: withEstamp({ estampState: 'XX', estampArticleValue: 'Affidavit' }),
		expect: ['Stamp State', 'Invalid enum value'],
	},
	{
		name: 'article not in the KA catalog',
		params: withEstamp({ estampArticle: '__exactValue__', estampArticleValue: 'Rental Agreement' }),
		expect: ['Article (Exact Value)', 'KA (Karnataka) catalog'],
	},
	{
		name: 'KA article in the wrong case',
		params: withEstamp({ estampArticle: '__exactValue__', estampArticleValue: 'affidavit' }),
		expect: ['Article (Exact Value)', 'exact KA catalog value "Affidavit"'],
	},
	{
		name: 'article with a Stamp Act number (state without catalog)',
		params: withEstamp({
			estampState: 'DL',
			estampArticle: '__exactValue__',
			estampArticleValue: 'Article 5(b) - Agreement',
		}),
		expect: ['Article (Exact Value)', 'Stamp Act article number'],
	},
	{
		name: 'duty of 9',
		params: withEstamp({ estampAmount: '9' }),
		expect: ['Stamp Duty Amount', 'from 10 to 10000000'],
	},
	{
		name: 'duty over the ceiling and the KA maximum',
		params: withEstamp({ estampAmount: '10000001' }),
		expect: ['Stamp Duty Amount', 'from 10 to 10000000 for state KA'],
	},
	{
		name: 'duty with decimals',
		params: withEstamp({ estampAmount: '12.5' }),
		expect: ['Stamp Duty Amount', 'whole number'],
	},
	{
		name: 'duty mapped empty',
		params: withEstamp({ estampAmount: '={{ $json.duty ?? "" }}' }),
		expect: ['Stamp Duty Amount: must not be empty'],
		absent: ['whole number', 'more)'],
	},
	{
		name: 'party without legal name (mapped empty)',
		params: withEstamp({
			...party('Second', { name: '={{ "" }}', email: 'b@example.com', address: 'Park Street' }),
		}),
		expect: ['Second Party Legal Name', 'is required (the legal name)'],
	},
	{
		name: 'negative consideration amount',
		params: withEstamp({ estampConsiderationAmount: '-5' }),
		expect: ['Consideration Amount: must be a whole number of 0 or more'],
	},
	{
		name: 'same legal name for both parties',
		params: withEstamp({
			...party('Second', { name: 'asha rao ', email: 'b@example.com', address: 'Elsewhere' }),
		}),
		expect: ['Second Party Legal Name', 'must differ'],
	},
	{
		name: 'party with a bad email',
		params: withEstamp({
			...party('First', { name: 'Asha Rao', email: 'asha-at-example', address: 'MG Road' }),
		}),
		expect: ['First Party Email', 'Invalid email'],
	},
	{
		name: 'party with an empty email (mapped)',
		params: withEstamp({
			...party('First', { name: 'Asha Rao', email: '={{ "" }}', address: 'MG Road' }),
		}),
		expect: ['First Party Email', 'must not be empty'],
		absent: ['is not a valid email address'],
	},
	{
		name: 'party mobile with 9 digits',
		params: withEstamp({
			...party('First', {
				name: 'Asha Rao',
				email: 'asha@example.com',
				mobile: '987654321',
				address: 'MG Road',
			}),
		}),
		expect: ['First Party Mobile', '10-digit'],
	},
	{
		name: 'first party missing (all mapped empty)',
		params: withEstamp(
			party('First', { name: '={{ "" }}', email: '={{ "" }}', address: '={{ "" }}' }),
		),
		expect: ['First Party (Legal Name, Email, Address)', 'is required'],
	},
	{
		name: 'hard copy without shipping address',
		params: withEstamp({ estampHardcopy: true }),
		expect: ['Shipping Address', 'required when Deliver a Physical Copy is on'],
	},
	{
		name: 'shipping state given as a code',
		params: withEstamp({ estampHardcopy: true, estampShipping: shipping({ state: 'KA' }) }),
		expect: ['Shipping Address › State', 'full state name'],
	},
	{
		name: 'shipping pincode with 5 digits',
		params: withEstamp({ estampHardcopy: true, estampShipping: shipping({ pincode: '56001' }) }),
		expect: ['Shipping Address › Pincode', '6-digit'],
	},
	// files
	{
		name: 'file that is not a PDF',
		params: createWith({}),
		input: () => [
			{
				json: {},
				binary: {
					data: {
						data: Buffer.from('hello, not a pdf'),
						fileName: 'notes.txt',
						mimeType: 'text/plain',
					},
				},
			},
		],
		expect: ['Binary property "data"', 'not a PDF'],
	},
	{
		name: 'file of 10 485 761 bytes',
		params: createWith({}),
		input: () => {
			const big = Buffer.alloc(10_485_761, 0x20);
			big.write('%PDF-1.7\n', 0, 'latin1');
			return [pdfItem(big)];
		},
		expect: ['Binary property "data"', '10485761 bytes; the limit is 10485760 bytes'],
	},
	{
		name: 'empty file',
		params: createWith({}),
		input: () => [pdfItem(Buffer.alloc(0))],
		expect: ['Binary property "data"', 'empty'],
	},
	{
		name: 'missing binary property',
		params: createWith({ binaryPropertyName: 'contract' }),
		expect: ['contract'],
	},
	{
		name: 'no file name when not uploading',
		params: createWith({ pdfSource: 'none', fileName: '={{ $json.fileName ?? "" }}' }),
		expect: ['File Name', 'is required'],
	},
	// other operations
	{
		name: 'add 16 recipients',
		params: {
			operation: 'addRecipients',
			envelopeId: 'env_any',
			recipientsInput: 'fields',
			recipients: recipientFields(
				Array.from({ length: 16 }, (_, n) => ({ name: `P${n}`, email: `p${n}@example.com` })),
			),
		},
		expect: ['Recipients', 'at most 15 recipients'],
	},
	{
		name: 'replace recipients with a list without signer',
		params: {
			operation: 'addRecipients',
			envelopeId: 'env_any',
			replace: true,
			recipients: recipientFields([APPROVER]),
		},
		expect: ['Recipients', 'at least one signer'],
	},
	{
		name: 'add no recipients',
		params: { operation: 'addRecipients', envelopeId: 'env_any' },
		expect: ['Recipients', 'at least one recipient'],
	},
	{
		name: 'list with an empty status filter given by an expression',
		params: { operation: 'getMany', filters: { status: '={{ " " }}' } },
		expect: ['Status', 'must not be empty'],
	},
	{
		name: 'empty envelope id',
		params: {
			operation: 'send',
			envelopeId: { __rl: true, mode: 'id', value: '={{ $json.envelopeId ?? "" }}' },
		},
		expect: ['Envelope', 'envelope ID is required'],
	},
	{
		name: 'envelope id ".." (would leave /envelopes/{id})',
		params: { operation: 'getStatus', envelopeId: { __rl: true, mode: 'id', value: '..' } },
		expect: ['Envelope', '".." is not an ID'],
	},
	{
		name: 'envelope id "."',
		params: { operation: 'downloadFile', envelopeId: { __rl: true, mode: 'id', value: '.' } },
		expect: ['Envelope', '"." is not an ID'],
	},
	{
		name: 'envelope id of 100 000 characters',
		params: {
			operation: 'getFields',
			envelopeId: { __rl: true, mode: 'id', value: 'e'.repeat(100_000) },
		},
		expect: ['Envelope', 'at most 128 are allowed'],
	},
];

describe('bad input: a clear error and no request', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it('covers at least 25 bad inputs', () => {
		expect(cases.length).toBeGreaterThanOrEqual(25);
	});

	it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const run = await runOp(h, c.params, c.input ? c.input() : [pdfItem(pdf)]);

		expect(run.result.error).toBeDefined();
		const text = errorText(run);
		for (const part of c.expect) expect(text).toContain(part);
		for (const part of c.absent ?? []) expect(text).not.toContain(part);
		expect(run.requests).toEqual([]);
	});

	it("a required parameter left empty in the editor is stopped by n8n's own parameter check", async () => {
		const before = (await h.requests()).length;
		await expect(
			runOp(h, withRecipients([{ email: 'asha@example.com' }]), [pdfItem(pdf)]),
		).rejects.toThrow('Parameter "Name" is required');
		expect((await h.requests()).length).toBe(before);
	});

	it('after switching the state from KA to DL, the KA article is not read: n8n asks for the typed article first', async () => {
		const before = (await h.requests()).length;
		await expect(
			runOp(h, withEstamp({ estampState: 'DL', estampArticle: 'Affidavit' }), [pdfItem(pdf)]),
		).rejects.toThrow('Parameter "Article (Exact Value)" is required');
		expect((await h.requests()).length).toBe(before);
	});

	it('reports every broken field of an item, not only the first', async () => {
		const run = await runOp(
			h,
			withRecipients([
				{ name: '={{ "" }}', email: 'bad' },
				{ ...SIGNER, phone: '12345' },
			]),
			[pdfItem(pdf)],
		);
		const text = errorText(run);
		expect(text).toContain('Recipient 1 > Name: is required');
		expect(text).toContain('Recipient 1 > Email: is not a valid email address');
		expect(text).toContain('Recipient 2 > Phone');
		expect(run.requests).toEqual([]);
		// The message has the first problem and a count; the description has one problem per
		// "; "-separated part (n8n renders it as HTML, where line breaks would run together).
		const error = run.result.error as Error & { description?: string };
		expect(error.message).toBe(
			'Invalid envelope: Recipient 1 > Name: is required; Recipient 1 > Email: is not a valid email address; Recipient 2 > Phone: must be a phone number in E.164 format, such as +919876543210',
		);
		expect(error.description?.split('; ')).toEqual([
			'Recipient 1 > Name: is required',
			'Recipient 1 > Email: is not a valid email address',
			'Recipient 2 > Phone: must be a phone number in E.164 format, such as +919876543210',
		]);
	});

	it('under Continue On Fail, a bad item is an error item with its field errors and the good item is still created', async () => {
		const run = await runOp(
			h,
			createWith({
				recipients: '={{ $json.bad ? [] : undefined }}',
				recipientsInput: 'json',
				recipientsJson: '={{ JSON.stringify($json.recipients) }}',
			}),
			[
				{ ...pdfItem(pdf, { recipients: [{ name: 'No Contact' }] }) },
				{ ...pdfItem(pdf, { recipients: [SIGNER] }) },
			],
			{ continueOnFail: true },
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(run.items[0].json.error).toContain('Recipient 1 > Email');
		expect(run.items[0].json.fieldErrors).toEqual([
			'Recipient 1 > Email: each recipient needs a contact: an email, a phone (E.164) or both',
		]);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		expect(run.items[1].json).toMatchObject({ status: 'draft', recipientsAdded: 1 });
		expect(run.items[1].pairedItem).toEqual({ item: 1 });
		// only the good item reached the service: one create, one upload
		expect(
			run.requests.map((r) => `${r.method} ${r.path.split('/').slice(0, 3).join('/')}`),
		).toEqual(['POST /api/v1', 'POST /storage/upload']);
	});
});
