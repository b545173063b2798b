/**
 * The webhook process's database pool starved, side by side with n8n's own Webhook node
 * (Respond: Immediately) on the same process: a webhook process with a pool of 2 connections,
 * every execution insert held 300 ms by PostgreSQL (a trigger on execution_entity sleeping),
 * and EVENTS signed events to each receiver at once, from a sender that retries every non-2xx
 * answer up to 5 times, then delivers every event once more. n8n then answers with 500s and
 * "timeout exceeded when trying to connect" while it waits for a connection.
 * For every event answered 2xx, its execution and its outcome: an event answered 2xx whose
 * execution did not run is looked up in the database (its execution's status, or none);
 * this trigger must have none answered 2xx without an execution, and none run twice (one
 * process). The Webhook node's figures are printed beside it.
 */
import axios from 'axios';

import { waitFor } from '../../../scripts/lib/stack';
import {
	figures,
	makeEvents,
	printTable,
	type Receiver,
	Sender,
	settle,
	triggerReceiver,
	webhookReceiver,
} from '../../e2e/faults';
import { check, expect, expectEqual, log, triggerWebhookId } from '../../e2e/lib';
import type { QueueContext } from '../lib';

const EVENTS = 40;
const POOL_SIZE = 2;
const INSERT_HOLD_S = 0.3;

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const trigger = workflows.DsQueueFaultTrg1;
	const hook = workflows.DsQueueFaultHok1;
	expect(trigger && hook, 'a fault workflow fixture is missing');
	const hookPath = (hook.nodes[0].parameters as { path: string }).path;

	await check(
		`queue mode, the webhook process's database pool starved (${POOL_SIZE} connections, inserts held ${INSERT_HOLD_S * 1000} ms, ${EVENTS} events at once to each receiver): this trigger answers 2xx only for events with an execution, and runs none twice`,
		async () => {
			const fault = `database pool of ${POOL_SIZE}, inserts held ${INSERT_HOLD_S * 1000} ms`;
			const { origin } = await queue.startExtraWebhookProcess({
				DB_POSTGRESDB_POOL_SIZE: String(POOL_SIZE),
			});
			const receivers: Receiver[] = [
				triggerReceiver(trigger.id, [`${origin}/webhook/${triggerWebhookId(trigger)}/webhook`]),
				webhookReceiver(hook.id, [`${origin}/webhook/${hookPath}`]),
			];
			for (const r of receivers)
				await waitFor(
					`${r.urls[0]} to be served`,
					async () =>
						(await axios.post(r.urls[0], '{}', { validateStatus: () => true })).status !== 404,
					30_000,
				);
			const events = makeEvents('starved', EVENTS);
			const sender = new Sender(stack.sandbox.webhookSecret);
			await queue.sql(`CREATE OR REPLACE FUNCTION fault_hold_execution() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(${INSERT_HOLD_S}); RETURN NEW; END $$;
			CREATE TRIGGER fault_hold_execution BEFORE INSERT ON execution_entity FOR EACH ROW EXECUTE FUNCTION fault_hold_execution();`);
			try {
				await sender.sendAll(receivers, events, 0);
			} finally {
				await queue.sql('DROP TRIGGER IF EXISTS fault_hold_execution ON execution_entity;');
			}
			await settle(stack, receivers, 60_000);
			await sender.onceMore(receivers, events);
			await settle(stack, receivers, 60_000);
			const [mine, yardstick] = await Promise.all(
				receivers.map(async (r) => await figures(stack, sender, fault, r, events)),
			);
			printTable(fault, [mine, yardstick]);
			for (const [r, f] of [
				[receivers[0], mine],
				[receivers[1], yardstick],
			] as const)
				for (const id of f.lostIds) log(`  ${r.name}: ${id} answered 2xx, ${await held(id)}`);
			expect(
				Object.keys(yardstick.answers).some((s) => s !== '200') ||
					Object.keys(mine.answers).some((s) => s !== '200'),
				`the pool was not starved (every answer 200): ${JSON.stringify(mine.answers)}`,
			);
			expectEqual(mine.falseAcks, 0, 'events this trigger answered 2xx with no execution in n8n');
			expectEqual(mine.twice, 0, 'executions beyond one per event id');
			expectEqual(mine.refused, 0, 'events never answered 2xx (after the closing delivery)');
		},
	);

	/** The executions whose stored data names the event id, with their status; or that none does. */
	async function held(id: string): Promise<string> {
		const rows = await queue.sql(
			`SELECT e.id || ' ' || e.status FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE d.data LIKE '%${id}%'`,
		);
		const found = rows.split('\n').filter(Boolean);
		return found.length ? `executions (id status): ${found.join(', ')}` : 'no execution holds it';
	}
}
