/**
 * What the webhook trigger rests on inside n8n, checked in a real n8n so that a version that
 * behaves otherwise fails here instead of the trigger losing or doubling events:
 * - n8n answers a delivery that starts a run with the node's own body ({"received":true,
 *   "started":true,"id":...}), and on n8n 2.x only once the execution exists;
 * - the id is in the workflow's stored static data by the time of that answer, also when the
 *   stored static data was not empty (starting the run clears n8n's "changed" flag; the
 *   trigger marks it again when n8n reads the answer body);
 * - a repeat 2 s later and copies at once start nothing more;
 * - after n8n restarts (the trigger's memory in the process gone), the ids taken before are
 *   still refused as duplicates, and a new event still starts.
 * n8n 1.x answers every webhook before it creates the execution (its webhook-helpers.js), so
 * there the answer can come before the execution exists: the check says what it saw.
 */
import axios from 'axios';

import { keptId, rememberedIds } from '../../../nodes/DocumentSigningTrigger/memory';
import { type Stack, sleep, waitFor } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	restartN8n,
	executions,
	expect,
	expectEqual,
	log,
	onN8n1,
	triggerWebhookId,
} from '../lib';
import { signature, webhookEvent } from '../webhook-events';

const NODE_KEY = 'node:Document Signing Trigger';

/** Kept event ids (keptId) in the workflow's stored static data, as n8n's database holds them. */
async function storedIds(stack: Stack, workflowId: string): Promise<Set<string>> {
	const stored = await stack.api.get(`/workflows/${workflowId}`);
	expectEqual(stored.status, 200, `GET /workflows/${workflowId}`);
	return new Set(rememberedIds(stored.data?.staticData?.[NODE_KEY] ?? {}).map(([key]) => key));
}

/**
 * Executions of a workflow as n8n's editor lists them, those still new or running included
 * (the public API leaves out executions that are still active).
 */
async function executionsIncludingActive(stack: Stack, workflowId: string): Promise<number> {
	const response = await stack.rest.get('/executions', {
		params: { filter: JSON.stringify({ workflowId }), limit: 100 },
	});
	expectEqual(response.status, 200, 'GET /rest/executions');
	const results = (response.data?.data?.results ?? []) as Array<{ workflowId?: string }>;
	return results.filter((e) => e.workflowId === workflowId).length;
}

export default async function suite({ stack, workflows }: E2eContext): Promise<void> {
	const workflow = workflows.DsE2eTriggerAns1;
	expect(workflow, 'the trigger-answer workflow fixture is missing');
	const url = stack.webhookUrl(triggerWebhookId(workflow), 'webhook');
	const sign = (body: string) => signature(body, stack.sandbox.webhookSecret);
	const deliver = async (body: string) =>
		await axios.post(url, body, {
			headers: { 'Content-Type': 'application/json', 'X-Service-Signature': sign(body) },
			validateStatus: () => true,
			timeout: 30_000,
		});
	const served = async () =>
		(await axios.post(url, '{}', { validateStatus: () => true })).status !== 404;
	await waitFor('the trigger-answer workflow to be served', served, 15_000);
	const executionCount = async () => (await executions(stack, workflow.id)).length;

	const first = webhookEvent('answer');
	const second = webhookEvent('answer');

	await check(
		"trigger answer in n8n: a started event is answered with the node's body, once the execution exists (n8n 2.x)",
		async () => {
			const before = await executionsIncludingActive(stack, workflow.id);
			const answer = await deliver(first.body);
			const after = await executionsIncludingActive(stack, workflow.id);
			expectEqual(
				[answer.status, answer.data],
				[200, { received: true, started: true, id: first.id }],
				'answer',
			);
			if (onN8n1) {
				log(
					`        n8n 1.x: executions at the answer ${after - before} (n8n 1.x answers before it creates the execution)`,
				);
				return;
			}
			expectEqual(after - before, 1, 'executions listed at the moment of the 2xx answer');
		},
	);

	await check(
		'trigger answer in n8n: the id is in the stored static data by the answer, also when that data was not empty',
		async () => {
			const before = await storedIds(stack, workflow.id);
			expect(
				before.has(keptId(first.id)),
				`the first event's id is not in the stored static data: ${JSON.stringify([...before])}`,
			);
			// Now the stored static data is not empty: the case where starting the run clears n8n's flag.
			const answer = await deliver(second.body);
			expectEqual(answer.data?.started, true, 'second event started');
			const after = await storedIds(stack, workflow.id);
			expectEqual(
				[after.has(keptId(first.id)), after.has(keptId(second.id))],
				[true, true],
				'ids in the stored static data after the second answer',
			);
		},
	);

	await check(
		'trigger answer in n8n: a repeat 2 s later is refused as duplicate, and 5 copies at once start one run',
		async () => {
			await sleep(2000);
			const repeat = await deliver(first.body);
			expectEqual(
				[repeat.status, repeat.data?.reason],
				[200, 'duplicate delivery'],
				'repeat 2 s later',
			);
			const copies = webhookEvent('answer');
			const before = await executionCount();
			const answers = await Promise.all(
				Array.from({ length: 5 }, async () => await deliver(copies.body)),
			);
			expectEqual(
				answers.map((a) => a.status),
				[200, 200, 200, 200, 200],
				'statuses of the copies',
			);
			expectEqual(
				answers.filter((a) => a.data?.started === true).length,
				1,
				'copies answered as started',
			);
			await sleep(1500); // a second execution would be listed by now
			expectEqual((await executionCount()) - before, 1, 'executions for 5 copies at once');
		},
	);

	await check(
		'trigger answer in n8n: "Listen for test event" in the editor gets a test delivery, answered once its run exists',
		async () => {
			const testWorkflow = workflows.DsE2eTriggerTst1;
			expect(testWorkflow, 'the trigger-test-event workflow fixture is missing');
			const listen = await stack.rest.post(`/workflows/${testWorkflow.id}/run`, {
				triggerToStartFrom: { name: 'Document Signing Trigger' },
			});
			expectEqual(
				[listen.status, listen.data?.data?.waitingForWebhook],
				[200, true],
				'listening for a test event',
			);
			const testUrl = `${stack.n8nUrl}/webhook-test/${triggerWebhookId(testWorkflow)}/webhook`;
			const e = webhookEvent('answer');
			const answer = await axios.post(testUrl, e.body, {
				headers: { 'Content-Type': 'application/json', 'X-Service-Signature': sign(e.body) },
				validateStatus: () => true,
				timeout: 30_000,
			});
			expectEqual(
				[answer.status, answer.data],
				[200, { received: true, started: true, id: e.id }],
				'answer to the test delivery',
			);
			let item: Record<string, unknown> | undefined;
			await waitFor(
				'the test run to be listed',
				async () => {
					const list = await executions(stack, testWorkflow.id);
					item = list
						.map(
							(x) =>
								x.data?.resultData.runData['Document Signing Trigger']?.[0]?.data?.main?.[0]?.[0]
									?.json,
						)
						.find((j) => j?.id === e.id);
					return item !== undefined;
				},
				20_000,
				500,
			);
			expectEqual(
				[item?.event, item?.verified],
				['document.sent', true],
				"the test run's trigger output",
			);
		},
	);

	await check(
		'trigger answer in n8n: after n8n restarts, ids taken before are still refused and a new event starts',
		async () => {
			await restartN8n(stack);
			await waitFor('the trigger-answer workflow to be served again', served, 30_000);
			const before = await executionCount();
			const repeats = [await deliver(first.body), await deliver(second.body)];
			expectEqual(
				repeats.map((r) => [r.status, r.data?.reason]),
				[
					[200, 'duplicate delivery'],
					[200, 'duplicate delivery'],
				],
				'repeats after the restart',
			);
			const fresh = webhookEvent('answer');
			const started = await deliver(fresh.body);
			expectEqual(
				[started.status, started.data?.started],
				[200, true],
				'a new event after the restart',
			);
			await sleep(1500);
			expectEqual((await executionCount()) - before, 1, 'executions after the restart');
		},
	);
}
