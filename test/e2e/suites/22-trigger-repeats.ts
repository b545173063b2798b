/**
 * The webhook trigger's guarantees in a real n8n, with deliveries made here and signed with
 * the credential's secret: one execution per event id (one by one, and copies at once),
 * distinct events all start, no secret means 401 unless unsigned deliveries are accepted,
 * oversized and over-deep bodies start nothing and leave n8n's execution listing readable.
 */
import axios from 'axios';

import { keptId, rememberedIds } from '../../../nodes/DocumentSigningTrigger/memory';
import { type Stack, sleep, waitFor } from '../../../scripts/lib/stack';
import { check, type E2eContext, executions, expect, expectEqual, triggerWebhookId } from '../lib';
import { signature, webhookEvent } from '../webhook-events';

export default async function suite({ stack, workflows }: E2eContext): Promise<void> {
	const repeats = workflows.DsE2eTriggerRep1;
	const noSecret = workflows.DsE2eTriggerNoS1;
	const unsignedOk = workflows.DsE2eTriggerUns1;
	expect(repeats && noSecret && unsignedOk, 'a trigger workflow fixture is missing');
	const url = stack.webhookUrl(triggerWebhookId(repeats), 'webhook');
	const sign = (body: string) => signature(body, stack.sandbox.webhookSecret);
	const deliver = async (target: string, body: string, signed = true) =>
		await axios.post(target, body, {
			headers: {
				'Content-Type': 'application/json',
				...(signed ? { 'X-Service-Signature': sign(body) } : {}),
			},
			validateStatus: () => true,
			maxBodyLength: Infinity,
			timeout: 30_000,
		});
	await waitFor(
		'the repeats workflow to be served',
		async () => (await deliver(url, '{}', false)).status !== 404,
		15_000,
	);

	/** Executions of a workflow whose trigger output carries one of `ids`, once they have settled. */
	const startedFor = async (workflowId: string, ids: string[], expected: number) => {
		await waitFor(
			`${expected} executions to finish`,
			async () => (await count(stack, workflowId, ids)) >= expected,
			20_000,
			300,
		).catch(() => undefined);
		await sleep(1500); // an extra execution would show by now
		return await count(stack, workflowId, ids);
	};

	await check(
		'trigger in n8n: the same event delivered twice, 2 s apart, starts one execution',
		async () => {
			const e = webhookEvent('e2e');
			const first = await deliver(url, e.body);
			await sleep(2000);
			const again = await deliver(url, e.body);
			expectEqual(await startedFor(repeats.id, [e.id], 1), 1, 'executions for the event id');
			expectEqual(
				[first.status, first.data],
				[200, { received: true, started: true, id: e.id }],
				'first answer',
			);
			expectEqual([again.status, again.data?.reason], [200, 'duplicate delivery'], 'second answer');
		},
	);

	for (const copies of [2, 5, 20]) {
		await check(
			`trigger in n8n: ${copies} identical copies at once start one execution`,
			async () => {
				const e = webhookEvent('e2e');
				const answers = await Promise.all(
					Array.from({ length: copies }, async () => await deliver(url, e.body)),
				);
				expectEqual(await startedFor(repeats.id, [e.id], 1), 1, 'executions for the event id');
				expectEqual(
					answers.map((a) => a.status),
					Array(copies).fill(200),
					'statuses',
				);
				expectEqual(
					answers.filter((a) => a.data?.started === true).length,
					1,
					'answers that started',
				);
			},
		);
	}

	await check(
		'trigger in n8n: 30 distinct events at once start 30; the same 30 again one by one start none',
		async () => {
			const batch = Array.from({ length: 30 }, () => webhookEvent('e2e'));
			const ids = batch.map((e) => e.id);
			const answers = await Promise.all(batch.map(async (e) => await deliver(url, e.body)));
			expectEqual(await startedFor(repeats.id, ids, 30), 30, 'executions after the first round');
			// What n8n stored in its database holds every id: none lost to simultaneous writes.
			const stored = await stack.api.get(`/workflows/${repeats.id}`);
			const seen = new Set(
				rememberedIds(stored.data?.staticData?.['node:Document Signing Trigger'] ?? {}).map(
					([key]) => key,
				),
			);
			expectEqual(
				ids.filter((id) => !seen.has(keptId(id))),
				[],
				"ids missing from the workflow's stored static data",
			);
			const again = [];
			for (const e of batch) again.push(await deliver(url, e.body));
			expectEqual(await startedFor(repeats.id, ids, 30), 30, 'executions after the repeats');
			expectEqual(
				answers.filter((a) => a.data?.started === true).length,
				30,
				'answers that started',
			);
			expectEqual(
				again.filter((a) => a.data?.reason === 'duplicate delivery').length,
				30,
				'repeats answered as duplicates',
			);
		},
	);

	await check(
		'trigger in n8n: without a webhook secret, deliveries get 401 and start nothing; with Accept Unsigned Deliveries they start',
		async () => {
			const refusedUrl = stack.webhookUrl(triggerWebhookId(noSecret), 'webhook');
			const acceptedUrl = stack.webhookUrl(triggerWebhookId(unsignedOk), 'webhook');
			const e = webhookEvent('e2e');
			const refused = await deliver(refusedUrl, e.body, false);
			expectEqual(
				[refused.status, refused.data?.code],
				[401, 'WEBHOOK_SECRET_MISSING'],
				'unsigned delivery without a secret',
			);
			expect(
				String(refused.data?.message).includes('set the webhook secret'),
				`the 401 does not say what to do: ${JSON.stringify(refused.data)}`,
			);
			expectEqual(
				await startedFor(noSecret.id, [e.id], 0),
				0,
				'executions of the trigger without a secret',
			);

			const accepted = await deliver(acceptedUrl, e.body, false);
			expectEqual(
				[accepted.status, accepted.data?.started],
				[200, true],
				'unsigned delivery with the option on',
			);
			expectEqual(
				await startedFor(unsignedOk.id, [e.id], 1),
				1,
				'executions of the trigger that accepts unsigned deliveries',
			);
		},
	);

	await check(
		'trigger in n8n: an over-deep and an over-large signed body start nothing, and the execution listing still answers',
		async () => {
			const before = (await executions(stack, repeats.id)).length;
			const base = JSON.parse(webhookEvent('e2e').body) as Record<string, unknown>;
			const deep = JSON.stringify({ ...base, data: {} }).replace(
				'"data":{}',
				`"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
			);
			const tooDeep = await deliver(url, deep);
			expectEqual(
				[tooDeep.status, tooDeep.data?.code],
				[400, 'PAYLOAD_TOO_DEEP'],
				'10 000 levels deep',
			);
			const large = JSON.stringify({
				...base,
				id: `${String(base.id)}_large`,
				data: { note: 'x'.repeat(1024 * 1024) },
			});
			const tooLarge = await deliver(url, large);
			expectEqual([tooLarge.status, tooLarge.data?.code], [413, 'PAYLOAD_TOO_LARGE'], '1 MB body');
			await sleep(1500);
			expectEqual(
				(await executions(stack, repeats.id)).length,
				before,
				'executions after the refused bodies',
			);
			const listing = await stack.api.get('/executions', {
				params: { includeData: true, limit: 250 },
			});
			expectEqual(listing.status, 200, "n8n's execution listing");
		},
	);
}

async function count(stack: Stack, workflowId: string, ids: string[]): Promise<number> {
	const wanted = new Set(ids);
	const list = await executions(stack, workflowId);
	return list.filter((e) => {
		const item = e.data?.resultData.runData['Document Signing Trigger']?.[0]?.data?.main?.[0]?.[0];
		return (
			item !== undefined &&
			wanted.has(String(item.json.id)) &&
			e.status !== 'running' &&
			e.status !== 'new'
		);
	}).length;
}
