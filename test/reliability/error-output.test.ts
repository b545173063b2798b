/**
 * On Error through n8n-core's own WorkflowExecute: with "Continue (using error output)"
 * every failed item (validation with field errors, 404, 500, malformed answer, connection
 * reset) leaves on the error output paired to its input, with its code, HTTP status,
 * request id and field errors; every success on output 0. "Continue (using regular
 * output)" keeps them on output 0, "Stop Workflow" stops with the first error.
 */
import type { IDataObject, INode, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { recipientFields, SIGNER, seedEnvelope } from '../envelope/helpers';

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

const params = {
	resource: 'envelope',
	operation: 'addRecipients',
	envelopeId: { __rl: true, mode: 'id', value: '={{ $json.envelopeId }}' },
	recipients: recipientFields([{ ...SIGNER, email: '={{ $json.email }}' }]),
};

/** Six items: two good, one bad email, one unknown envelope, and three drafts hit by a fault each. */
async function batch(): Promise<{ input: IDataObject[]; faults: IDataObject }> {
	const drafts = await Promise.all(
		Array.from({ length: 5 }, async () => (await seedEnvelope(h)).id as string),
	);
	const [good1, good2, failing, malformed, reset] = drafts;
	const input = [
		{ row: 'good', envelopeId: good1, email: 'asha@example.com' },
		{ row: 'validation', envelopeId: good1, email: 'asha@' },
		{ row: '404', envelopeId: 'env_does_not_exist', email: 'asha@example.com' },
		{ row: '500', envelopeId: failing, email: 'asha@example.com' },
		{ row: 'malformed', envelopeId: malformed, email: 'asha@example.com' },
		{ row: 'reset', envelopeId: reset, email: 'asha@example.com' },
		{ row: 'good', envelopeId: good2, email: 'asha@example.com' },
	];
	const faults = {
		failures: [{ status: 500, path: `/envelopes/${failing}/` }],
		malformedJson: { path: `/envelopes/${malformed}/` },
		connectionReset: { path: `/envelopes/${reset}/` },
	};
	return { input, faults };
}

async function run(onError: INode['onError']) {
	const { input, faults } = await batch();
	await h.fault(faults);
	const result = await h.run({
		nodes: [seedNode(), actionNode(params as Record<string, NodeParameterValueType>, { onError })],
		connections: chain('Seed', 'Document Signing'),
		input: input.map((json) => ({ json })),
	});
	await h.fault({});
	return { input, result };
}

const paired = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

it('Continue (using error output): each failure on the error output, paired, with its facts; each success on output 0', async () => {
	const { input, result } = await run('continueErrorOutput');
	expect(result.error).toBeUndefined();
	const ok = result.items('Document Signing', 0);
	const failed = result.items('Document Signing', 1);

	expect(ok.map(paired)).toEqual([0, 6]);
	for (const item of ok) expect(item.json.error).toBeUndefined();
	expect(failed.map(paired)).toEqual([1, 2, 3, 4, 5]);
	// The error's facts under `error`, as n8n's HTTP Request shows a failed call.
	const byRow = Object.fromEntries(
		failed.map((item) => [String(input[paired(item)].row), item.json.error as IDataObject]),
	);

	expect(String(byRow.validation.message)).toContain('Recipient 1 > Email');
	expect(byRow.validation.fieldErrors).toEqual([expect.stringContaining('Recipient 1 > Email')]);
	expect(byRow['404']).toMatchObject({
		code: 'NOT_FOUND',
		httpCode: '404',
		requestId: expect.any(String),
	});
	expect(byRow['500']).toMatchObject({ httpCode: '500', requestId: expect.any(String) });
	expect(byRow.malformed).toMatchObject({
		code: 'MALFORMED_RESPONSE',
		message: 'The service answered with malformed JSON',
		httpCode: '200',
	});
	// A create-like POST cut off is not sent again: the description says it may have arrived.
	expect(byRow.reset).toMatchObject({
		code: 'ECONNRESET',
		description: expect.stringContaining('may have reached the service'),
	});
});

it('Continue (using regular output): failures stay on output 0 as error items, in input order', async () => {
	const { result } = await run('continueRegularOutput');
	expect(result.error).toBeUndefined();
	const items = result.items('Document Signing', 0);
	expect(items.map(paired)).toEqual([0, 1, 2, 3, 4, 5, 6]);
	expect(items.map((item) => item.json.error === undefined)).toEqual([
		true,
		false,
		false,
		false,
		false,
		false,
		true,
	]);
	expect(items[2].json).toMatchObject({ code: 'NOT_FOUND', httpCode: '404' });
	expect(items[2].error).toBeUndefined();
	expect(result.items('Document Signing', 1)).toEqual([]);
});

it("Stop Workflow: the workflow stops with the first failing item's error", async () => {
	const { result } = await run('stopWorkflow');
	expect(result.error?.message).toContain('Recipient 1 > Email');
	expect((result.error as { context?: IDataObject } | undefined)?.context?.itemIndex).toBe(1);
});
