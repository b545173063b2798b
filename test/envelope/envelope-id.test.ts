/**
 * `envelopeId` after every step that creates an envelope (Create, a signing-workflow Run),
 * next to the API's own fields: a saved `{{ $json.id }}` after Create keeps working, and
 * `{{ $json.envelopeId }}` maps the next node's "By ID" after any step.
 */
import type { IDataObject, INode, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { makePdf, NODE, pdfItem, recipientFields, runOp, SIGNER } from './helpers';
import { runParams, runWorkflowOp, seedWorkflow } from '../workflow/helpers';
import { NO_RECIPIENTS_HINT } from '../../nodes/DocumentSigning/actions/envelope/create.operation';

describe('envelopeId after the steps that create an envelope', () => {
	let h: Harness;
	let pdf: Buffer;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf(1);
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it('Create outputs envelopeId equal to the API id, with and without upload, keeping every API field', async () => {
		const uploaded = await runOp(
			h,
			{ operation: 'create', title: 'Lease', recipients: recipientFields([SIGNER]), output: 'raw' },
			[pdfItem(pdf)],
		);
		expect(uploaded.result.error).toBeUndefined();
		const out = uploaded.items[0].json;
		expect(typeof out.id).toBe('string');
		expect(out.envelopeId).toBe(out.id);
		expect(out).toMatchObject({ title: 'Lease', status: 'draft', fileName: 'agreement.pdf' });

		const later = await runOp(h, {
			operation: 'create',
			pdfSource: 'none',
			fileName: 'later.pdf',
			output: 'raw',
		});
		expect(later.items[0].json.envelopeId).toBe(later.items[0].json.id);
		expect((later.items[0].json.upload as IDataObject).url).toBeDefined();
	});

	it('Create without recipients adds one hint under the output (Send will need them); with recipients, none', async () => {
		const bare = await runOp(h, { operation: 'create', pdfSource: 'none', fileName: 'a.pdf' }, [
			{ json: {} },
			{ json: {} },
		]);
		expect(bare.result.error).toBeUndefined();
		const hints = bare.result.runData[NODE][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([NO_RECIPIENTS_HINT]);
		const withSigner = await runOp(h, {
			operation: 'create',
			pdfSource: 'none',
			fileName: 'b.pdf',
			recipients: recipientFields([SIGNER]),
		});
		expect(withSigner.result.runData[NODE][0].hints ?? []).toEqual([]);
	});

	it('Get Many outputs each envelope with envelopeId beside its id', async () => {
		const created = await runOp(h, {
			operation: 'create',
			pdfSource: 'none',
			fileName: 'listed.pdf',
			recipients: recipientFields([SIGNER]),
		});
		const listed = await runOp(h, {
			operation: 'getMany',
			returnAll: true,
			filters: { status: 'draft' },
		});
		expect(listed.result.error).toBeUndefined();
		const mine = listed.items
			.map((item) => item.json)
			.find((json) => json.id === created.items[0].json.id);
		expect(mine?.envelopeId).toBe(mine?.id);
		expect(listed.items.every((item) => item.json.envelopeId === item.json.id)).toBe(true);
	});

	/** Seed -> Create -> Send, Send's envelope By ID given by `expression`. */
	async function createThenSend(expression: string) {
		const send: INode = {
			...actionNode({
				resource: 'envelope',
				operation: 'send',
				envelopeId: { __rl: true, mode: 'id', value: expression },
			} as Record<string, NodeParameterValueType>),
			id: 'send',
			name: 'Send',
			position: [400, 0],
		};
		const create = actionNode({
			resource: 'envelope',
			operation: 'create',
			title: 'Lease',
			recipients: recipientFields([SIGNER]),
		} as Record<string, NodeParameterValueType>);
		return await h.run({
			nodes: [seedNode(), create, send],
			connections: chain('Seed', NODE, 'Send'),
			input: [pdfItem(pdf)],
		});
	}

	it.each([
		['{{ $json.id }} (saved workflows)', '={{ $json.id }}'],
		['{{ $json.envelopeId }} (as after every later step)', '={{ $json.envelopeId }}'],
	])('Send after Create finds the envelope by %s', async (_label, expression) => {
		const result = await createThenSend(expression);
		expect(result.error).toBeUndefined();
		const created = result.items(NODE)[0].json;
		const sent = result.items('Send')[0].json;
		expect(sent.envelopeId).toBe(created.id);
		expect(sent.status).toBe('pending');
	});

	it('Run outputs envelopeId of the envelope it created, keeping the API answer', async () => {
		const { id } = await seedWorkflow(h);
		const run = await runWorkflowOp(h, runParams(id));
		expect(run.result.error).toBeUndefined();
		const json = run.items[0].json as IDataObject & { envelope: IDataObject };
		expect(json.envelope.id).toEqual(expect.any(String));
		expect(json.envelopeId).toBe(json.envelope.id);
		expect(json.run).toBeDefined();
	});
});
