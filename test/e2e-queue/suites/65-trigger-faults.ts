/**
 * The webhook trigger in queue mode under faults, side by side with n8n's own Webhook node
 * (Respond: Immediately) on the same n8n, both fed the same signed events by a sender that
 * retries every non-2xx answer up to 5 times, then delivers every event once more:
 * - PostgreSQL refuses the execution insert for a few seconds (a PL/pgSQL trigger on
 *   execution_entity): 0 lost, 0 run twice;
 * - two webhook processes (as behind a balancer), each event's copies hitting both at once:
 *   0 lost; how many run twice is measured (n8n's execution deduplication key is not reachable
 *   from a webhook, so two processes can each take a copy before either has saved the id);
 *   docs/scaling.md gives the figure.
 * The Redis outage is suite 60.
 */

import {
	type FaultFigures,
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

const EVENTS = 10;
const FAULT_MS = 5000;
const EVERY_MS = 300;
const COPIED_EVENTS = 20;

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const trigger = workflows.DsQueueFaultTrg1;
	const hook = workflows.DsQueueFaultHok1;
	expect(trigger && hook, 'a fault workflow fixture is missing');
	const hookPath = (hook.nodes[0].parameters as { path: string }).path;
	const triggerPath = `webhook/${triggerWebhookId(trigger)}/webhook`;
	const on = (origin: string) => ({
		trigger: `${origin}/${triggerPath}`,
		hook: `${origin}/webhook/${hookPath}`,
	});
	const first = on(queue.webhookOrigin);
	const receivers: Receiver[] = [
		triggerReceiver(trigger.id, [first.trigger]),
		webhookReceiver(hook.id, [first.hook]),
	];
	for (const r of receivers) await untilServed(r.urls[0]);
	const rows: FaultFigures[] = [];

	await check(
		`queue mode, PostgreSQL refuses the execution insert for at least ${FAULT_MS / 1000} s: this trigger loses 0 events and runs 0 twice (sender retries non-2xx 5 times, then delivers each event once more)`,
		async () => {
			const fault = 'execution insert refused (PostgreSQL trigger)';
			const events = makeEvents('pg', EVENTS);
			const sender = new Sender(stack.sandbox.webhookSecret);
			await queue.sql(`CREATE OR REPLACE FUNCTION fault_refuse_execution() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'fault test: execution insert refused'; END $$;
			CREATE TRIGGER fault_refuse_execution BEFORE INSERT ON execution_entity FOR EACH ROW EXECUTE FUNCTION fault_refuse_execution();`);
			const ended = sender.endFault(
				receivers,
				events,
				FAULT_MS,
				async () =>
					void (await queue.sql(
						'DROP TRIGGER IF EXISTS fault_refuse_execution ON execution_entity;',
					)),
			);
			try {
				await sender.sendAll(receivers, events, EVERY_MS);
			} finally {
				await ended;
			}
			await settle(stack, receivers);
			await sender.onceMore(receivers, events);
			await settle(stack, receivers);
			const [mine, yardstick] = await Promise.all(
				receivers.map(async (r) => await figures(stack, sender, fault, r, events)),
			);
			rows.push(mine, yardstick);
			printTable(fault, [mine, yardstick]);
			expect(
				Object.keys(yardstick.answers).some((s) => s !== '200') || yardstick.lost > 0,
				`the fault did not reach n8n: ${JSON.stringify(yardstick.answers)}`,
			);
			expectEqual(mine.lost, 0, 'events this trigger answered 2xx without an execution');
			expectEqual(mine.twice, 0, 'executions beyond one per event id');
			expectEqual(mine.refused, 0, 'events never answered 2xx (after the closing delivery)');
		},
	);

	await check(
		`queue mode, two webhook processes, the copies of each of ${COPIED_EVENTS} events hitting both at once: this trigger loses 0 events; the events run twice are counted (docs/scaling.md)`,
		async () => {
			const fault = 'two webhook processes, copies at once';
			const second = on((await queue.startExtraWebhookProcess()).origin);
			await untilServed(second.trigger);
			await untilServed(second.hook);
			const both: Receiver[] = [
				triggerReceiver(trigger.id, [first.trigger, second.trigger]),
				webhookReceiver(hook.id, [first.hook, second.hook]),
			];
			const events = makeEvents('two', COPIED_EVENTS);
			const sender = new Sender(stack.sandbox.webhookSecret);
			await sender.sendCopies(both, events, 200);
			await settle(stack, both);
			await sender.onceMore(both, events);
			await settle(stack, both);
			const [mine, yardstick] = await Promise.all(
				both.map(async (r) => await figures(stack, sender, fault, r, events)),
			);
			rows.push(mine, yardstick);
			printTable(fault, [mine, yardstick]);
			log(
				`  figures: this trigger ran ${mine.twiceIds.length} of ${COPIED_EVENTS} events more than once (${mine.twice} extra executions) with 2 copies of each hitting 2 webhook processes at once`,
			);
			expectEqual(mine.lost, 0, 'events this trigger answered 2xx without an execution');
			expectEqual(mine.refused, 0, 'events never answered 2xx');
			expect(
				mine.executions >= COPIED_EVENTS,
				`executions: ${mine.executions} for ${COPIED_EVENTS} events`,
			);
		},
	);

	if (rows.length) printTable(`queue mode, n8n ${stack.line.version}`, rows);
}
