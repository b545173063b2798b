/**
 * Run: the latest published version, recipients from fields or JSON, the refusal of a
 * workflow with no published version, Continue On Fail, and the idempotency key that
 * keeps a retried or resent run from starting twice.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import {
	CLIENT_ROW,
	configFor,
	envelopeCount,
	errorText,
	PARTICIPANTS,
	runParams,
	runRecipients,
	runWorkflowOp,
	seedWorkflow,
} from './helpers';

describe('signing workflow run', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness({ retry: { baseDelayMs: 5, maxDelayMs: 20 } });
	});
	afterAll(async () => await h.close());
	beforeEach(async () => {
		await h.reset();
		await h.fault({});
	});
	afterEach(async () => await h.fault({}));

	const runsOf = (workflowId: string) =>
		[
			...(
				h.sandbox.state.workflowRuns as Map<
					string,
					{ workflowId: string; envelopeIds: string[]; idempotencyKey: string | null }
				>
			).values(),
		].filter((r) => r.workflowId === workflowId);

	it('creates and sends the envelope; outputs the envelope and its approval state as the API returns them', async () => {
		const { id, templateId } = await seedWorkflow(h);
		const run = await runWorkflowOp(h, runParams(id));
		expect(run.result.error).toBeUndefined();
		const json = run.items[0].json as {
			envelope: IDataObject;
			approval: IDataObject;
			run: IDataObject;
		};
		expect(json.run).toMatchObject({ workflowId: id, version: 1 });
		expect(json.envelope).toMatchObject({
			title: 'Sale of 12 MG Road',
			status: 'pending',
			templateId,
		});
		expect((json.envelope.recipients as IDataObject[]).map((r) => [r.name, r.role])).toEqual([
			['Asha Rao', 'signer'],
			['Vikram Shah', 'approver'],
		]);
		expect(json.approval).toEqual({ required: false, status: 'not_required' });
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		// No read of the workflow (a guessed path needing workflows:read): the run alone.
		expect(run.requests.map((r) => [r.method, r.path])).toEqual([
			['POST', `/api/v1/workflows/${id}/runs`],
		]);
	});

	it('uses the latest published version, not a newer draft', async () => {
		const { id, templateId } = await seedWorkflow(h);
		// Version 2 (draft) adds a required participant the run does not name.
		await h.api('PATCH', `/workflows/${id}`, {
			config: configFor(templateId, {
				participants: [
					...PARTICIPANTS,
					{ key: 'witness', label: 'Witness', order: 3, role: 'signer' },
				],
			}),
		});
		const onV1 = await runWorkflowOp(h, runParams(id));
		expect(onV1.items[0].json).toMatchObject({ run: { version: 1 } });

		await h.api('POST', `/workflows/${id}/publish`);
		// The service checks the participants of the version it runs, and says so by name.
		const refused = await runWorkflowOp(h, runParams(id));
		expect(errorText(refused)).toContain('VALIDATION_ERROR');
		expect(errorText(refused)).toContain('witness');
		expect(runsOf(id)).toHaveLength(1);

		const rows = runRecipients([
			CLIENT_ROW,
			{ participantKey: 'legal', name: 'V', email: 'v@example.com' },
			{ participantKey: 'witness', name: 'W', email: 'w@example.com' },
		]);
		const onV2 = await runWorkflowOp(h, runParams(id, { runRecipients: rows }));
		expect(onV2.items[0].json).toMatchObject({ run: { version: 2 } });
		expect((onV2.items[0].json.envelope as { recipients: unknown[] }).recipients).toHaveLength(3);
	});

	it('recipients as JSON, a phone instead of an email', async () => {
		const { id } = await seedWorkflow(h);
		const run = await runWorkflowOp(
			h,
			runParams(id, {
				recipientsInput: 'json',
				recipientsJson: JSON.stringify([
					CLIENT_ROW,
					{ participantKey: 'legal', name: 'L', phone: '+919876543210' },
				]),
			}),
		);
		expect(run.result.error).toBeUndefined();
		expect(
			(run.items[0].json.envelope as { recipients: IDataObject[] }).recipients[1],
		).toMatchObject({ phone: '+919876543210' });
	});

	it('a workflow without a published version is refused with what to do, and nothing is run', async () => {
		const { id } = await seedWorkflow(h, { publish: false });
		const run = await runWorkflowOp(h, runParams(id));
		expect(errorText(run)).toContain('INVALID_STATUS');
		expect(run.requests.map((r) => r.method)).toEqual(['POST']);
		expect(runsOf(id)).toHaveLength(0);
	});

	it('an unknown participant key: the service refuses it by name, nothing run', async () => {
		const { id } = await seedWorkflow(h);
		const run = await runWorkflowOp(
			h,
			runParams(id, {
				runRecipients: runRecipients([
					CLIENT_ROW,
					{ participantKey: 'seller', name: 'S', email: 's@example.com' },
				]),
			}),
		);
		expect(errorText(run)).toContain('VALIDATION_ERROR');
		expect(errorText(run)).toContain('seller');
		expect(runsOf(id)).toHaveLength(0);
	});

	it('Continue On Fail: a bad item becomes an error item, the others run; nothing is read first', async () => {
		const { id } = await seedWorkflow(h);
		const params = runParams(id, { title: '={{ $json.title }}' });
		const run = await runWorkflowOp(
			h,
			params,
			[{ json: { title: 'One' } }, { json: { title: '' } }, { json: { title: 'Three' } }],
			{ continueOnFail: true },
		);
		expect(run.result.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect((run.items[0].json.envelope as IDataObject).title).toBe('One');
		expect(run.items[1].json.error).toContain('Title: is required');
		expect(run.items[1].pairedItem).toEqual({ item: 1 });
		expect((run.items[2].json.envelope as IDataObject).title).toBe('Three');
		expect(run.requests.filter((r) => r.method === 'GET')).toHaveLength(0);
		expect(runsOf(id)).toHaveLength(2);
	});

	it('an unknown workflow: NOT_FOUND, nothing run', async () => {
		const run = await runWorkflowOp(h, runParams('wf_missing'));
		expect(errorText(run)).toContain('NOT_FOUND');
		expect(run.requests.map((r) => r.method)).toEqual(['POST']);
	});

	it('a custom key: the same key in a later execution returns the first run', async () => {
		const { id } = await seedWorkflow(h);
		const params = runParams(id, {
			idempotency: 'custom',
			idempotencyKey: '={{ "order-" + $json.order }}',
		});
		const first = await runWorkflowOp(h, params, [{ json: { order: 7 } }]);
		const second = await runWorkflowOp(h, params, [{ json: { order: 7 } }]);
		expect(second.items[0].json.run).toEqual(first.items[0].json.run);
		expect(runsOf(id)).toHaveLength(1);
		expect(runsOf(id)[0].idempotencyKey).toBe('order-7');
	});

	describe('idempotency: a lost answer never starts a second run', () => {
		const items = [{ json: { title: 'A' } }, { json: { title: 'B' } }];
		const retryOnFail = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };

		it('automatic key: the transport resends after a cut answer and gets the same run (one envelope per item)', async () => {
			const { id } = await seedWorkflow(h);
			await h.fault({ malformedJson: { path: `/workflows/${id}/runs`, count: 2 } });
			const run = await runWorkflowOp(h, runParams(id, { title: '={{ $json.title }}' }), items);
			expect(run.result.error).toBeUndefined();
			const posts = run.requests.filter((r) => r.method === 'POST');
			expect(posts.filter((r) => r.fault === 'malformedJson')).toHaveLength(2);
			expect(posts).toHaveLength(4);
			expect(runsOf(id).map((r) => r.envelopeIds.length)).toEqual([1, 1]);
			expect(await envelopeCount(h)).toBe(2);
			expect(new Set(runsOf(id).map((r) => r.idempotencyKey)).size).toBe(2);
		});

		it('automatic key with Retry On Fail: the transport gives up, n8n runs the node again, still one envelope per item', async () => {
			const { id } = await seedWorkflow(h);
			// Every attempt of the first try is cut: 4 per item.
			await h.fault({ malformedJson: { path: `/workflows/${id}/runs`, count: 8 } });
			const run = await runWorkflowOp(h, runParams(id, { title: '={{ $json.title }}' }), items, {
				node: retryOnFail,
			});
			expect(run.result.error).toBeUndefined();
			expect(run.items.map((i) => (i.json.envelope as IDataObject).title)).toEqual(['A', 'B']);
			expect(
				run.requests.filter((r) => r.method === 'POST' && r.fault === 'malformedJson'),
			).toHaveLength(8);
			expect(runsOf(id)).toHaveLength(2);
			expect(await envelopeCount(h)).toBe(2);
		});

		it('without a key (None) the same fault and Retry On Fail start a second run per item: why the key matters', async () => {
			const { id } = await seedWorkflow(h);
			await h.fault({ malformedJson: { path: `/workflows/${id}/runs`, count: 2 } });
			const run = await runWorkflowOp(
				h,
				runParams(id, { title: '={{ $json.title }}', idempotency: 'none' }),
				items,
				{ node: retryOnFail },
			);
			expect(run.result.error).toBeUndefined();
			// Not resent by the transport (it may have arrived), but n8n's retry runs the node again.
			expect(runsOf(id)).toHaveLength(4);
			expect(await envelopeCount(h)).toBe(4);
		});
	});
});
