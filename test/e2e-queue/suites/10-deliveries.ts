/**
 * Webhook deliveries in queue mode: signed ones reach the webhook process, which enqueues
 * them; a worker runs them. Forged ones get 401. Repeats of an event id (one by one and
 * copies at once) start one execution, as in one process: the webhook process holds the
 * trigger's memory of ids and saves it in n8n's database.
 */
import axios from 'axios';

import { sleep, waitFor } from '../../../scripts/lib/stack';
import { check, expect, expectEqual, triggerWebhookId } from '../../e2e/lib';
import { signature, webhookEvent } from '../../e2e/webhook-events';
import { executionWithData, finished, listExecutions, processLog, type QueueContext } from '../lib';

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const repeats = workflows.DsE2eTriggerRep1;
	expect(repeats, 'the repeats workflow fixture is missing');
	const url = queue.webhookUrl(triggerWebhookId(repeats), 'webhook');
	const sign = (body: string) => signature(body, stack.sandbox.webhookSecret);
	const deliver = async (body: string, signed = sign(body)) =>
		await axios.post(url, body, {
			headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signed },
			validateStatus: () => true,
			timeout: 30_000,
		});
	// The webhook process finds the activated workflow in the database.
	await waitFor(
		'the trigger to be served by the webhook process',
		async () => (await deliver('{}', 'x')).status !== 404,
		30_000,
	);

	// Execution id -> event id of its trigger output, read once per execution.
	const seen = new Set<string>();
	const idOf = new Map<string, string>();
	/** Executions whose trigger output carries one of `ids`, once settled. */
	const executionsFor = async (ids: string[], expected: number) => {
		const wanted = new Set(ids);
		const matching = async () => {
			const list = (await listExecutions(stack, repeats.id)).filter(finished);
			const found = [];
			for (const e of list.filter((x) => !seen.has(x.id))) {
				const full = await executionWithData(stack, e.id);
				const id = full.data?.resultData.runData['Document Signing Trigger']?.[0]?.data
					?.main?.[0]?.[0]?.json.id as string | undefined;
				idOf.set(e.id, id ?? '');
				seen.add(e.id);
			}
			for (const e of list) if (wanted.has(idOf.get(e.id) ?? '')) found.push(e);
			return found;
		};
		await waitFor(
			`${expected} executions`,
			async () => (await matching()).length >= expected,
			60_000,
			500,
		).catch(() => undefined);
		await sleep(2000); // an extra execution would show by now
		return await matching();
	};
	await check(
		'queue mode: a signed delivery to the webhook process is enqueued there and run by a worker',
		async () => {
			const e = webhookEvent('queue');
			const answer = await deliver(e.body);
			expectEqual(
				[answer.status, answer.data?.started],
				[200, true],
				'answer of the webhook process',
			);
			const [run, ...more] = await executionsFor([e.id], 1);
			expectEqual(
				[run?.status, more.length],
				['success', 0],
				'execution status and extra executions',
			);
			const { ranBy, enqueuedBy } = await processLog(queue);
			expectEqual(enqueuedBy.get(run.id), 'webhook', `process that enqueued execution ${run.id}`);
			expect(
				queue.workerNames.includes(ranBy.get(run.id) ?? ''),
				`execution ${run.id} was not run by a worker (${ranBy.get(run.id) ?? 'no log line'})`,
			);
		},
	);

	await check(
		'queue mode: a forged signature gets 401 from the webhook process and starts nothing',
		async () => {
			const e = webhookEvent('queue');
			const forged = await deliver(e.body, sign(`${e.body} `));
			expectEqual(forged.status, 401, 'status of a delivery with a wrong signature');
			const unsigned = await axios.post(url, e.body, {
				headers: { 'Content-Type': 'application/json' },
				validateStatus: () => true,
			});
			expectEqual(unsigned.status, 401, 'status of an unsigned delivery');
			expectEqual((await executionsFor([e.id], 0)).length, 0, 'executions of the forged event');
		},
	);

	await check('queue mode: the same event twice, 2 s apart, starts one execution', async () => {
		const e = webhookEvent('queue');
		const first = await deliver(e.body);
		await sleep(2000);
		const again = await deliver(e.body);
		expectEqual([first.data?.started, again.data?.reason], [true, 'duplicate delivery'], 'answers');
		expectEqual((await executionsFor([e.id], 1)).length, 1, 'executions for the event id');
	});

	for (const copies of [2, 20]) {
		await check(
			`queue mode: ${copies} copies of one event at once start one execution`,
			async () => {
				const e = webhookEvent('queue');
				const answers = await Promise.all(
					Array.from({ length: copies }, async () => await deliver(e.body)),
				);
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
				expectEqual((await executionsFor([e.id], 1)).length, 1, 'executions for the event id');
			},
		);
	}

	await check(
		'queue mode: 30 distinct events at once start 30 on the workers; the same 30 again start none',
		async () => {
			const batch = Array.from({ length: 30 }, () => webhookEvent('queue'));
			const ids = batch.map((e) => e.id);
			const answers = await Promise.all(batch.map(async (e) => await deliver(e.body)));
			expectEqual(
				answers.filter((a) => a.data?.started === true).length,
				30,
				'answers that started',
			);
			const runs = await executionsFor(ids, 30);
			expectEqual(runs.length, 30, 'executions after the first round');
			const again = [];
			for (const e of batch) again.push(await deliver(e.body));
			expectEqual(
				again.filter((a) => a.data?.reason === 'duplicate delivery').length,
				30,
				'repeats answered as duplicates',
			);
			expectEqual((await executionsFor(ids, 30)).length, 30, 'executions after the repeats');
			const { ranBy } = await processLog(queue);
			const notOnWorker = runs.filter((r) => !queue.workerNames.includes(ranBy.get(r.id) ?? ''));
			expectEqual(
				notOnWorker.map((r) => r.id),
				[],
				'executions not run by a worker',
			);
		},
	);
}
