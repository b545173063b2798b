/**
 * Safeguards from real runs against the sandbox, on the node and on its tool variant
 * (the same node type under a name ending in "Tool", as n8n names it): Allowed Recipients
 * and Draft Only refuse before any request; signing links leave tool outputs unless asked for.
 */
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import {
	emailAllowed,
	parseAllowedRecipients,
	phoneAllowed,
} from '../../nodes/DocumentSigning/actions/shared/allowedRecipients';
import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { makePdf, pdfItem, recipientFields, seedEnvelope, SIGNER } from '../envelope/helpers';
import { actionNode, chain, type Harness, type SeedItem, seedNode, startHarness } from '../harness';
import { createDocumentParams, seedLease } from '../template-documents/helpers';
import { byId } from '../template/helpers';
import { runParams, seedWorkflow } from '../workflow/helpers';

const NODE = 'Document Signing';

describe('Safeguards', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHarness({ nodeTypes: { documentSigningTool: new DocumentSigning() } });
	});
	afterAll(async () => await h.close());

	/** One run of the node (or its tool variant) with the given parameters. */
	async function run(
		parameters: IDataObject,
		opts: { tool?: boolean; input?: SeedItem[]; continueOnFail?: boolean } = {},
	) {
		const before = (await h.requests()).length;
		const node = actionNode(parameters as Record<string, NodeParameterValueType>, {
			continueOnFail: opts.continueOnFail,
		});
		if (opts.tool) node.type = 'documentSigningTool';
		const result = await h.run({
			nodes: [seedNode(), node],
			connections: chain('Seed', NODE),
			input: opts.input ?? [{ json: {} }],
		});
		const error = result.error as (Error & { description?: string }) | undefined;
		return {
			result,
			items: result.items(NODE),
			error: error ? `${error.message}\n${error.description ?? ''}` : '',
			requests: (await h.requests()).slice(before),
		};
	}
	const apiCalls = (requests: Array<{ path: string }>) =>
		requests.filter((r) => r.path.includes('/api/v1/'));

	describe('the Allowed Recipients rule', () => {
		const list = parseAllowedRecipients('example.com, *.partner.org, asha@gmail.com, +91 98')!;
		it.each([
			['asha@example.com', true],
			['ASHA@Example.COM', true],
			['asha@sub.example.com', false],
			['x@partner.org', true],
			['x@legal.partner.org', true],
			['x@notpartner.org', false],
			['asha@gmail.com', true],
			['ravi@gmail.com', false],
			['asha@example.com.evil.io', false],
			['asha@evil.io?@example.com', false],
		])('e-mail %s: %s', (email, allowed) => expect(emailAllowed(list, email)).toBe(allowed));
		it.each([
			['+919876543210', true],
			['+91 98765 43210', true],
			['+919176543210', false],
			['+14155550100', false],
		])('phone %s: %s', (phone, allowed) => expect(phoneAllowed(list, phone)).toBe(allowed));
		it('an empty list allows anyone (the default)', () =>
			expect(parseAllowedRecipients(' , ')).toBeUndefined());
	});

	it('Envelope Create: a recipient outside the list is refused before any request (not even the PDF download), naming the field, the address and what is allowed', async () => {
		const pdf = await makePdf();
		const outsider = { name: 'Mallory', email: 'mallory@evil.io', role: 'signer' };
		const refused = await run(
			{
				resource: 'envelope',
				operation: 'create',
				title: 'Lease',
				recipients: recipientFields([SIGNER, outsider]),
				safeguards: { allowedRecipients: 'example.com' },
			},
			{ input: [pdfItem(pdf)] },
		);
		expect(refused.error).toContain(
			'Recipients: not an allowed recipient (Safeguards > Allowed Recipients): recipient 2 (Mallory): e-mail mallory@evil.io. Allowed: e-mail addresses at example.com; no phone numbers',
		);
		expect(refused.error).toContain('Nothing was sent');
		expect(apiCalls(refused.requests)).toEqual([]);

		// A phone given as a number in JSON input is a contact like any other.
		const numbered = await run(
			{
				resource: 'envelope',
				operation: 'create',
				title: 'Lease',
				recipientsInput: 'json',
				recipientsJson: JSON.stringify([{ ...SIGNER, phone: 14155550100 }]),
				safeguards: { allowedRecipients: 'example.com' },
			},
			{ input: [pdfItem(pdf)] },
		);
		expect(numbered.error).toContain('recipient 1 (Asha Rao): phone 14155550100');
		expect(apiCalls(numbered.requests)).toEqual([]);

		const allowed = await run(
			{
				resource: 'envelope',
				operation: 'create',
				title: 'Lease',
				recipients: recipientFields([SIGNER]),
				safeguards: { allowedRecipients: 'example.com' },
			},
			{ input: [pdfItem(pdf)] },
		);
		expect(allowed.error).toBe('');
		expect(allowed.items[0].json.status).toBe('draft');
	});

	it('Envelope Create: a phone outside the prefixes is refused even when the e-mail is allowed; under Continue On Fail the other items go on, paired', async () => {
		const pdf = await makePdf();
		const withPhone = (phone: string) => ({ ...SIGNER, phone });
		const outcome = await run(
			{
				resource: 'envelope',
				operation: 'create',
				title: '={{ $json.title }}',
				recipients: recipientFields([withPhone('={{ $json.phone }}') as IDataObject]),
				safeguards: { allowedRecipients: 'example.com, +91' },
			},
			{
				input: [
					pdfItem(pdf, { title: 'A', phone: '+14155550100' }),
					pdfItem(pdf, { title: 'B', phone: '+919876543210' }),
				],
				continueOnFail: true,
			},
		);
		expect(outcome.items).toHaveLength(2);
		expect(String(outcome.items[0].json.error)).toContain(
			'recipient 1 (Asha Rao): phone +14155550100. Allowed: e-mail addresses at example.com; phone numbers starting with +91',
		);
		expect(outcome.items[0].pairedItem).toEqual({ item: 0 });
		expect(outcome.items[1].json.title).toBe('B');
		expect(outcome.items[1].pairedItem).toEqual({ item: 1 });
		expect(apiCalls(outcome.requests).filter((r) => r.path.endsWith('/envelopes'))).toHaveLength(1);
	});

	it('Add Recipients, Create Document and Run: the same rule, before any request', async () => {
		const envelope = await seedEnvelope(h);
		const add = await run({
			resource: 'envelope',
			operation: 'addRecipients',
			envelopeId: byId(envelope.id as string),
			recipients: recipientFields([{ name: 'Eve', email: 'eve@evil.io', role: 'cc' }]),
			safeguards: { allowedRecipients: 'asha@example.com' },
		});
		expect(add.error).toContain(
			'recipient 1 (Eve): e-mail eve@evil.io. Allowed: the addresses asha@example.com',
		);
		expect(apiCalls(add.requests)).toEqual([]);

		const lease = await seedLease(h);
		const document = await run(
			{
				resource: 'template',
				...createDocumentParams(lease),
				safeguards: { allowedRecipients: 'example.com' },
			},
			{ input: [{ json: { name: 'Tenant', email: 'tenant@example.com' } }] },
		);
		// The agent role's phone (+91...) is not allowed: no template read, no document.
		expect(document.error).toContain('recipient 2 (Asha Agent): phone +919876543210');
		expect(apiCalls(document.requests)).toEqual([]);

		const workflow = await seedWorkflow(h);
		const runRefused = await run({
			resource: 'workflow',
			...runParams(workflow.id),
			safeguards: { allowedRecipients: 'asha@example.com' },
		});
		expect(runRefused.error).toContain('recipient 2 (Vikram Shah): e-mail vikram@example.com');
		expect(apiCalls(runRefused.requests)).toEqual([]);
	});

	it('Draft Only: Send, Send Document and Run are refused before any request, saying a person sends; Create Document stays a draft', async () => {
		const envelope = await seedEnvelope(h, {}, { upload: await makePdf() });
		const send = await run(
			{
				resource: 'envelope',
				operation: 'send',
				envelopeId: byId(envelope.id as string),
				draftOnly: true,
			},
			{ tool: true },
		);
		expect(send.error).toContain(
			`Draft Only is on: this node does not send; envelope ${String(envelope.id)} was not sent and stays a draft. A person sends it.`,
		);
		expect(apiCalls(send.requests)).toEqual([]);

		const sendDocument = await run({
			resource: 'template',
			operation: 'sendDocument',
			envelopeId: byId(envelope.id as string),
			draftOnly: true,
		});
		expect(sendDocument.error).toContain('Draft Only is on');
		expect(apiCalls(sendDocument.requests)).toEqual([]);

		const workflow = await seedWorkflow(h);
		const runRefused = await run({
			resource: 'workflow',
			...runParams(workflow.id),
			draftOnly: true,
		});
		expect(runRefused.error).toContain(
			`signing workflow ${workflow.id} was not run (a run sends its envelope)`,
		);
		expect(apiCalls(runRefused.requests)).toEqual([]);

		const lease = await seedLease(h);
		const created = await run(
			{
				resource: 'template',
				...createDocumentParams(lease),
				sendImmediately: true,
				draftOnly: true,
			},
			{ tool: true, input: [{ json: { name: 'Tenant', email: 'tenant@example.com' } }] },
		);
		expect(created.error).toBe('');
		expect(created.items[0].json).toMatchObject({
			status: 'draft',
			steps: ['createDocument'],
			sendSkipped: expect.stringContaining('a person sends it'),
		});
		expect(created.requests.filter((r) => r.path.endsWith('/send'))).toEqual([]);
	});

	it('signing links: the node keeps actionUrl; the tool leaves it out unless Include Signing Links is on', async () => {
		const pdf = await makePdf();
		const sendOne = async (opts: { tool?: boolean; safeguards?: IDataObject }) => {
			const envelope = await seedEnvelope(h, {}, { upload: pdf });
			const sent = await run(
				{
					resource: 'envelope',
					operation: 'send',
					envelopeId: byId(envelope.id as string),
					safeguards: opts.safeguards ?? {},
				},
				{ tool: opts.tool },
			);
			expect(sent.error).toBe('');
			return JSON.stringify(sent.items[0].json);
		};
		expect(await sendOne({})).toContain('"actionUrl"');
		const tool = await sendOne({ tool: true });
		expect(tool).not.toContain('actionUrl');
		expect(tool).toContain('"recipients"');
		expect(await sendOne({ tool: true, safeguards: { includeSigningLinks: true } })).toContain(
			'"actionUrl"',
		);
		expect(await sendOne({ safeguards: { includeSigningLinks: false } })).not.toContain(
			'actionUrl',
		);

		const lease = await seedLease(h);
		const created = await run(
			{ resource: 'template', ...createDocumentParams(lease), sendImmediately: true },
			{ tool: true, input: [{ json: { name: 'Tenant', email: 'tenant@example.com' } }] },
		);
		expect(created.error).toBe('');
		expect(created.items[0].json.status).toBe('pending');
		expect(JSON.stringify(created.items[0].json)).not.toContain('actionUrl');
	});
});
