/**
 * Redis stopped for 30 s while signed deliveries keep arriving at the webhook process, then
 * started again; the n8n processes that exited meanwhile (n8n exits a process that cannot reach
 * Redis for QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD, 10 s by default) are started again, as a
 * supervisor would. The same events go to this trigger and to n8n's own Webhook node
 * (Respond: Immediately) on the same webhook process, from a sender that retries every non-2xx
 * answer (and connection error) up to 5 times, then delivers every event once more.
 * Counted per event id: answered 2xx without an execution that ran (lost; apart, those whose
 * execution n8n created and ended crashed when the queued job went with Redis), executions
 * beyond one per id (twice). An event the webhook process took in the seconds before it exited may run again
 * when delivered again (its id was not saved yet): those are counted apart; no other runs twice.
 * docs/scaling.md says what this means for a user.
 */
import { sleep } from '../../../scripts/lib/stack';
import {
	type FaultEvent,
	figures,
	makeEvents,
	printTable,
	type Receiver,
	Sender,
	settle,
	triggerReceiver,
	untilServed,
	webhookReceiver,
} from '../../e2e/faults';
import { check, expect, expectEqual, log, triggerWebhookId } from '../../e2e/lib';
import type { QueueContext } from '../lib';

const OUTAGE_MS = 30_000;
const BEFORE_MS = 8_000;
const AFTER_MS = 10_000;
/** One new event every this many ms (to both receivers). */
const EVERY_MS = 1000;
/** An event first acknowledged this long before the webhook process exited counts as "taken just before it exited". */
const JUST_BEFORE_MS = 15_000;

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const outage = workflows.DsQueueOutage001;
	const hook = workflows.DsQueueOutHook01;
	expect(outage && hook, 'an outage workflow fixture is missing');
	const hookPath = (hook.nodes[0].parameters as { path: string }).path;
	const receivers: Receiver[] = [
		triggerReceiver(outage.id, [queue.webhookUrl(triggerWebhookId(outage), 'webhook')]),
		webhookReceiver(hook.id, [`${queue.webhookOrigin}/webhook/${hookPath}`]),
	];
	const sender = new Sender(stack.sandbox.webhookSecret);
	for (const r of receivers) await untilServed(r.urls[0]);

	await check(
		'queue mode: Redis stopped for 30 s while signed deliveries arrive (retried 5 times, then each delivered once more): this trigger loses 0 events; none runs twice except those the webhook process took just before it exited (counted)',
		async () => {
			const events: FaultEvent[] = [];
			const phaseOf = new Map<string, string>();
			let phase = 'before';
			let sending = true;
			const inFlight: Array<Promise<unknown>> = [];
			const pool = makeEvents('outage', 1000);
			const producer = (async () => {
				while (sending) {
					const event = pool[events.length];
					events.push(event);
					phaseOf.set(event.id, phase);
					for (const r of receivers) inFlight.push(sender.deliver(r, event));
					await sleep(EVERY_MS);
				}
			})();
			await sleep(BEFORE_MS);
			phase = 'outage';
			const t0 = Date.now();
			await queue.stopRedis();
			log('  Redis stopped');
			const exitedAt: Record<string, number> = {};
			while (Date.now() - t0 < OUTAGE_MS) {
				for (const name of queue.exitedN8nProcesses()) exitedAt[name] ??= Date.now();
				await sleep(250);
			}
			await queue.restartRedis();
			phase = 'after';
			const seconds = (at: number) => Math.round((at - t0) / 1000);
			log(
				`  Redis started again after ${seconds(Date.now())} s; n8n processes that exited meanwhile (s into the outage): ${JSON.stringify(Object.fromEntries(Object.entries(exitedAt).map(([n, at]) => [n, seconds(at)])))}`,
			);
			// What a supervisor (systemd, Docker's restart policy, Kubernetes) would do.
			const exited = queue.exitedN8nProcesses();
			if (exited.includes('n8n')) await queue.restart('n8n');
			await Promise.all(
				exited.filter((name) => name !== 'n8n').map(async (name) => await queue.restart(name)),
			);
			log(
				`  started again: ${exited.join(', ') || 'none'} (${seconds(Date.now())} s after Redis stopped)`,
			);
			await sleep(AFTER_MS);
			sending = false;
			await producer;
			await Promise.all(inFlight);
			await settle(stack, receivers, 60_000);
			await sender.onceMore(receivers, events);
			await settle(stack, receivers, 60_000);

			const fault = 'Redis stopped for 30 s';
			const [mine, yardstick] = await Promise.all(
				receivers.map(async (r) => await figures(stack, sender, fault, r, events)),
			);
			printTable(`queue mode, n8n ${stack.line.version}`, [mine, yardstick]);
			const byPhase = (ids: string[]) => {
				const counts: Record<string, number> = {};
				for (const id of ids) counts[phaseOf.get(id)!] = (counts[phaseOf.get(id)!] ?? 0) + 1;
				return JSON.stringify(counts);
			};
			const webhookExit = exitedAt.webhook;
			const takenJustBefore = (id: string) => {
				const at = sender.firstAcknowledged(receivers[0], id);
				return (
					webhookExit !== undefined &&
					at !== undefined &&
					at <= webhookExit &&
					at >= webhookExit - JUST_BEFORE_MS
				);
			};
			const twiceJustBefore = mine.twiceIds.filter(takenJustBefore);
			const twiceOther = mine.twiceIds.filter((id) => !takenJustBefore(id));
			log(
				`  figures: this trigger lost ${mine.lost} of ${events.length} (${mine.lostInN8n} in executions n8n created and did not run; by phase sent ${byPhase(mine.lostIds)}); ran twice ${mine.twiceIds.length}: ${twiceJustBefore.length} taken in the ${JUST_BEFORE_MS / 1000} s before the webhook process exited, ${twiceOther.length} others`,
			);
			log(
				`  figures: n8n's Webhook node lost ${yardstick.lost} of ${events.length} (${yardstick.lostInN8n} in executions n8n created and did not run; by phase sent ${byPhase(yardstick.lostIds)}); ran twice ${yardstick.twice}`,
			);
			// Redis runs without persistence here: a job n8n queued just before Redis stopped is
			// gone when it starts again, and n8n ends that execution crashed, for any webhook node.
			// The trigger's 2xx came after n8n had that execution; what it must never do is
			// answer 2xx for an event n8n has no execution of.
			expectEqual(mine.falseAcks, 0, 'events this trigger answered 2xx with no execution in n8n');
			expectEqual(
				twiceOther,
				[],
				'events run twice, other than those taken just before the webhook process exited',
			);
			// Events never answered 2xx are not lost (the service knows them); their count is printed above.
			expectEqual(queue.exitedN8nProcesses(), [], 'n8n processes not running at the end');
		},
	);
}
