/**
 * Output = Selected Fields names each field the answer lacks, under the output (a warning
 * hint, once per name in a run, not once per item), with the fields the answer has and the
 * one a name differs from only by case; the item keeps the fields found, so an AI tool's
 * call is not failed by it. From real runs against the sandbox.
 */
import type { NodeExecutionHint } from 'n8n-workflow';

import { NODE, recipientFields, runOp, SIGNER } from '../envelope/helpers';
import { type Harness, startHarness } from '../harness';

const create = {
	operation: 'create',
	pdfSource: 'none',
	fileName: 'lease.pdf',
	title: 'Lease',
	recipients: recipientFields([SIGNER]),
	output: 'fields',
};

describe('Output = Selected Fields names the fields the answer lacks', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());

	const hintsOf = (run: Awaited<ReturnType<typeof runOp>>): NodeExecutionHint[] =>
		run.result.runData[NODE][0].hints ?? [];

	it("a name in the wrong case: the item keeps the others, the hint names it, its match and the answer's fields", async () => {
		const run = await runOp(h, { ...create, outputFields: 'envelopeID, status' });
		expect(run.result.error).toBeUndefined();
		expect(run.items.map((item) => item.json)).toEqual([{ status: 'draft' }]);
		const hints = hintsOf(run);
		expect(hints).toHaveLength(1);
		expect(hints[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(hints[0].message).toMatch(
			/^Fields: "envelopeID" \(did you mean "envelopeId"\?\) is not in the answer, so left out\. Names are matched exactly, case included; the answer has: .*\benvelopeId\b.*\.$/,
		);
		expect(hints[0].message).not.toMatch(/"status"/);
	});

	it('one hint per name in a run of several items; none when every name is found', async () => {
		const three = await runOp(h, { ...create, outputFields: 'id, nmae, title' }, [
			{ json: {} },
			{ json: {} },
			{ json: {} },
		]);
		expect(three.items.map((item) => Object.keys(item.json))).toEqual([
			['id', 'title'],
			['id', 'title'],
			['id', 'title'],
		]);
		expect(hintsOf(three).map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^Fields: "nmae" is not in the answer, so left out\./),
		]);
		const found = await runOp(h, { ...create, outputFields: 'envelopeId, status' });
		expect(hintsOf(found)).toEqual([]);
	});
});
