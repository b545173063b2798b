/**
 * A short soak of the webhook trigger on the webhook process (the long one is `npm run soak`):
 * 50 deliveries in flight for SOAK_SECONDS, valid events, copies of them (at once and later)
 * and forged ones mixed. Every valid event starts exactly one execution, forged ones none,
 * the trigger's stored memory holds every id (under its bound), and the webhook process's
 * memory does not keep growing.
 */
import { check, expect, expectEqual, log, triggerWebhookId } from '../../e2e/lib';
import type { QueueContext } from '../lib';
import { describeSoak, runSoak } from '../soak';
import { waitFor } from '../../../scripts/lib/stack';
import axios from 'axios';

const SOAK_SECONDS = Number(process.env.E2E_SOAK_SECONDS ?? 75);
/** The trigger's bound (nodes/DocumentSigningTrigger/memory.ts). */
const SEEN_EVENTS_LIMIT = 10_000;

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const soak = workflows.DsQueueSoak00001;
	expect(soak, 'the soak workflow fixture is missing');
	const url = queue.webhookUrl(triggerWebhookId(soak), 'webhook');
	await waitFor('the soak trigger to be served by the webhook process', async () => (await axios.post(url, '{}', { validateStatus: () => true })).status !== 404, 30_000);

	await check(`queue mode soak: 50 deliveries at a time for ${SOAK_SECONDS} s (valid, copies, forged): one execution per valid event, none forged, memory flat`, async () => {
		const figures = await runSoak({
			stack,
			url,
			secret: stack.sandbox.webhookSecret,
			workflowId: soak.id,
			seconds: SOAK_SECONDS,
			concurrency: 50,
			pids: () => Object.fromEntries(['webhook', 'n8n', ...queue.workerNames].map((name) => [name, queue.pidOf(name)])),
			log,
		});
		for (const line of describeSoak(figures)) log(`  figures: ${line}`);
		expectEqual(figures.unexpectedAnswers, {}, 'answers other than 200 started (new), 200 duplicate (copy), 401 (forged)');
		expectEqual(
			[figures.validWithout, figures.validMoreThanOnce, figures.forgedExecutions, figures.unknownExecutions, figures.failedExecutions],
			[0, 0, 0, 0, 0],
			'valid events without an execution, with more than one; executions of forged ids, of unknown ids; failed executions',
		);
		expectEqual(figures.executions, figures.validNew, 'executions = distinct valid events');
		expectEqual(figures.storedIds, Math.min(figures.validNew, SEEN_EVENTS_LIMIT), "ids in the trigger's stored memory");
		// Flat: after the first half (warm-up), the webhook process grows less than 1 MB per second of soak.
		const webhook = figures.rss.webhook;
		expect(webhook && webhook.samples > 10, 'too few RSS samples of the webhook process');
		expect(webhook.secondHalfSlopeMbPerMin < 60, `the webhook process's RSS still grows ${webhook.secondHalfSlopeMbPerMin} MB/min in the second half`);
	});
}
