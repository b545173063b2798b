/**
 * The webhook trigger while n8n cannot write its execution (regular mode, SQLite), side by side
 * with n8n's own Webhook node (Respond: Immediately) on the same n8n, both fed the same signed
 * events by a sender that retries every non-2xx answer up to 5 times, then delivers every event
 * once more. Faults, a few seconds each: a temporary SQLite trigger that aborts every insert
 * into execution_entity; another connection holding SQLite's write lock (BEGIN IMMEDIATE).
 *
 * n8n 2.x answers a delivery that starts a run only after it has inserted the execution, so the
 * trigger must lose nothing and run nothing twice. n8n 1.123.81 answers every onReceived webhook
 * before it creates the execution (its webhook-helpers.js ~371), whatever the node does: there
 * the trigger must lose no more events than n8n's Webhook node.
 */

import {
	type FaultFigures,
	figures,
	makeEvents,
	printTable,
	type Receiver,
	Sender,
	settle,
	sqlite,
	triggerReceiver,
	untilServed,
	webhookReceiver,
} from '../faults';
import { check, type E2eContext, expect, expectEqual, log, onN8n1, triggerWebhookId } from '../lib';

const EVENTS = 10;
/** How long each fault lasts at least (then until every event's first attempt was answered). */
const FAULT_MS = 5000;

export default async function suite({ stack, workflows }: E2eContext): Promise<void> {
	const trigger = workflows.DsE2eFaultTrig01;
	const hook = workflows.DsE2eFaultHook01;
	expect(trigger && hook, 'a fault workflow fixture is missing');
	const hookPath = (hook.nodes[0].parameters as { path: string }).path;
	const receivers: Receiver[] = [
		triggerReceiver(trigger.id, [stack.webhookUrl(triggerWebhookId(trigger), 'webhook')]),
		webhookReceiver(hook.id, [`${stack.n8nUrl}/webhook/${hookPath}`]),
	];
	for (const r of receivers) await untilServed(r.urls[0], 15_000);

	/** everyMs: deliveries start this often while the fault is on (0: all at once). */
	const faults: Array<{
		name: string;
		label: string;
		everyMs: number;
		start: () => Promise<() => Promise<void>>;
	}> = [
		{
			name: 'execution insert aborted (SQLite trigger)',
			label: 'insert',
			everyMs: 300,
			start: async () => {
				await sqlite(
					stack,
					"CREATE TRIGGER fault_refuse_execution BEFORE INSERT ON execution_entity BEGIN SELECT RAISE(ABORT, 'fault test: execution insert refused'); END;",
				);
				return async () =>
					void (await sqlite(stack, 'DROP TRIGGER IF EXISTS fault_refuse_execution;'));
			},
		},
		{
			name: 'SQLite write lock held by another connection',
			label: 'lock',
			// n8n's SQLite connection waits up to 1 s for the lock (sqlite3's default busy timeout).
			everyMs: 0,
			start: async () => {
				const lock = await sqlite(stack, '', true);
				return lock.release;
			},
		},
	];

	const rows: FaultFigures[] = [];
	for (const fault of faults) {
		await check(
			`regular mode, ${fault.name} for at least ${FAULT_MS / 1000} s: ${onN8n1 ? "this trigger loses no more events than n8n's Webhook node" : 'this trigger loses 0 events and runs 0 twice'} (sender retries non-2xx 5 times, then delivers each event once more)`,
			async () => {
				const events = makeEvents(fault.label, EVENTS);
				const sender = new Sender(stack.sandbox.webhookSecret);
				const stop = await fault.start();
				const ended = sender.endFault(receivers, events, FAULT_MS, stop);
				try {
					await sender.sendAll(receivers, events, fault.everyMs);
				} finally {
					await ended;
				}
				await settle(stack, receivers);
				await sender.onceMore(receivers, events);
				await settle(stack, receivers);
				const [mine, yardstick] = await Promise.all(
					receivers.map(async (r) => await figures(stack, sender, fault.name, r, events)),
				);
				rows.push(mine, yardstick);
				printTable(fault.name, [mine, yardstick]);
				if (mine.lostIds.length) log(`  lost by this trigger: ${mine.lostIds.join(', ')}`);
				// The fault reached n8n: its own Webhook node was refused or lost something.
				expect(
					Object.keys(yardstick.answers).some((s) => s !== '200') || yardstick.lost > 0,
					`the fault did not reach n8n (the Webhook node saw only 200 and lost nothing): ${JSON.stringify(yardstick.answers)}`,
				);
				if (onN8n1) {
					expect(
						mine.lost <= yardstick.lost,
						`this trigger lost ${mine.lost} events, n8n's Webhook node ${yardstick.lost}`,
					);
				} else {
					expectEqual(mine.lost, 0, 'events this trigger answered 2xx without an execution');
					expectEqual(mine.twice, 0, 'executions beyond one per event id');
					expectEqual(mine.refused, 0, 'events never answered 2xx (after the closing delivery)');
				}
			},
		);
	}
	if (rows.length) printTable(`regular mode, n8n ${stack.line.version}`, rows);
}
