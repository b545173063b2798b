/* eslint-disable @n8n/community-nodes/no-restricted-globals -- local tooling: checks n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * A short soak of the webhook trigger on the webhook process (the long one is `npm run soak`):
 * SOAK_CONCURRENCY deliveries in flight for SOAK_SECONDS, valid events, copies of them (at once and later)
 * and forged ones mixed. Every valid event starts exactly one execution, forged ones none,
 * the trigger's stored memory holds every id (under its bound), and the webhook process's
 * memory does not keep growing. Valid deliveries answered non-2xx are made again, as the
 * service does (n8n answers 503 while its database pool is saturated).
 */
import axios from 'axios';

import { SEEN_EVENTS_LIMIT } from '../../../nodes/DocumentSigningTrigger/memory';
import { waitFor } from '../../../scripts/lib/stack';
import { check, expect, expectEqual, log, triggerWebhookId } from '../../e2e/lib';
import type { QueueContext } from '../lib';
import { describeSoak, runSoak } from '../soak';

const SOAK_SECONDS = Number(process.env.E2E_SOAK_SECONDS ?? 40);
/**
 * Deliveries in flight. 25, not `npm run soak`'s 50: on a 2-core machine that also runs
 * PostgreSQL, Redis, five n8n processes and the sandbox, 50 at once time out n8n's own
 * database connections as soon as anything else loads the machine (docs/scaling.md), and the
 * executions n8n has acknowledged then fail in n8n, not in the trigger.
 */
const SOAK_CONCURRENCY = Number(process.env.E2E_SOAK_CONCURRENCY ?? 25);

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const soak = workflows.DsQueueSoak00001;
	expect(soak, 'the soak workflow fixture is missing');
	const url = queue.webhookUrl(triggerWebhookId(soak), 'webhook');
	await waitFor(
		'the soak trigger to be served by the webhook process',
		async () => (await axios.post(url, '{}', { validateStatus: () => true })).status !== 404,
		30_000,
	);

	await check(
		`queue mode soak: ${SOAK_CONCURRENCY} deliveries at a time for ${SOAK_SECONDS} s (valid, copies, forged): one execution per valid event, none forged, memory flat`,
		async () => {
			const figures = await runSoak({
				stack,
				url,
				secret: stack.sandbox.webhookSecret,
				workflowId: soak.id,
				seconds: SOAK_SECONDS,
				concurrency: SOAK_CONCURRENCY,
				pids: () =>
					Object.fromEntries(
						['webhook', 'n8n', ...queue.workerNames].map((name) => [name, queue.pidOf(name)]),
					),
				log,
			});
			for (const line of describeSoak(figures)) log(`  figures: ${line}`);
			expectEqual(
				figures.unexpectedAnswers,
				{},
				'answers other than 200 started (new), 200 duplicate (copy), 401 (forged)',
			);
			expectEqual(
				[
					figures.validWithout,
					figures.validMoreThanOnce,
					figures.forgedExecutions,
					figures.unknownExecutions,
					figures.failedExecutions,
				],
				[0, 0, 0, 0, 0],
				'valid events without an execution, with more than one; executions of forged ids, of unknown ids; failed executions',
			);
			expectEqual(figures.executions, figures.validNew, 'executions = distinct valid events');
			expectEqual(
				figures.storedIds,
				Math.min(figures.validNew, SEEN_EVENTS_LIMIT),
				"ids in the trigger's stored memory after the closing delivery",
			);
			// Flat: the webhook process (which runs the trigger) ends no higher than 1.5 x its highest
			// sample of the first half; its RSS swings with n8n's backlog and garbage collection.
			const webhook = figures.rss.webhook;
			expect(webhook && webhook.samples > 10, 'too few RSS samples of the webhook process');
			expect(
				webhook.lastMb <= 1.5 * webhook.firstHalfMaxMb,
				`the webhook process ends at ${webhook.lastMb} MB, over 1.5 x its first half's highest ${webhook.firstHalfMaxMb} MB`,
			);
		},
	);
}
