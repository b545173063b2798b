/* eslint-disable @n8n/community-nodes/no-restricted-globals -- local tooling: checks n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * The webhook process's database pool starved, side by side with n8n's own Webhook node
 * (Respond: Immediately), alone and followed by a node with a credential, on the same process:
 * a webhook process with a pool of 2 connections that waits at most 2 s for one, every
 * execution insert held 500 ms by PostgreSQL (a trigger on execution_entity sleeping), and
 * EVENTS signed events at once to each receiver, from a sender that retries every non-2xx
 * answer up to 5 times, then delivers every event once more. n8n then answers with 500s and
 * "timeout exceeded when trying to connect" while it waits for a connection.
 * For every event answered 2xx whose execution did not run: its answers, its executions in the
 * database (status, n8n's error, each node's output). n8n 2.41.1 checks a workflow's
 * credentials before it runs it (credentials-permission-checker.js check(), a database read,
 * skipped for a workflow without credentials); when that read fails, n8n records an execution
 * that failed before it started (or ran no node), without the payload, and still answers the
 * delivery 2xx (workflow-runner.js run(); n8nContract.ts credential-check-failure-answered). That hits this trigger (it has a credential) and the Webhook node
 * with a credential node alike, not the Webhook node alone: counted as failed by n8n. What this
 * trigger must never do: answer 2xx with no execution at all, or run an event twice (one process).
 */

import {
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
import { check, expect, expectEqual, log, results, triggerWebhookId } from '../../e2e/lib';
import type { QueueContext } from '../lib';

const EVENTS = 40;
const POOL_SIZE = 2;
/** How long a request waits for a connection before n8n gives up on it (n8n's default: 20 s). */
const CONNECT_WAIT_MS = 2000;
const INSERT_HOLD_S = 0.5;
const TITLE = `queue mode, the webhook process's database pool starved (${POOL_SIZE} connections waited for at most ${CONNECT_WAIT_MS / 1000} s, inserts held ${INSERT_HOLD_S * 1000} ms, ${EVENTS} events at once to each receiver): this trigger answers 2xx only for events with an execution, and runs none twice`;

/**
 * Runs when E2E_ONLY names it (it takes about 3 minutes, which `npm run e2e:queue`'s place in CI
 * has not got); counted as skipped otherwise.
 */
const asked = (process.env.E2E_ONLY ?? '')
	.split(',')
	.some((text) => text !== '' && '67-db-starvation.ts'.includes(text));

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	if (!asked) {
		results.push({ name: TITLE, ok: false, skipped: 'runs with E2E_ONLY=67- (3 minutes)' });
		log(`SKIPPED ${TITLE}: runs with E2E_ONLY=67-`);
		return;
	}
	const trigger = workflows.DsQueueFaultTrg1;
	const hook = workflows.DsQueueFaultHok1;
	const hookWithCredential = workflows.DsQueueFaultHok2;
	expect(trigger && hook && hookWithCredential, 'a fault workflow fixture is missing');
	const pathOf = (w: typeof hook) => (w.nodes[0].parameters as { path: string }).path;

	await check(TITLE, async () => {
		const fault = `database pool of ${POOL_SIZE}, inserts held ${INSERT_HOLD_S * 1000} ms`;
		const { origin } = await queue.startExtraWebhookProcess({
			DB_POSTGRESDB_POOL_SIZE: String(POOL_SIZE),
			DB_POSTGRESDB_CONNECTION_TIMEOUT: String(CONNECT_WAIT_MS),
		});
		const receivers: Receiver[] = [
			triggerReceiver(trigger.id, [`${origin}/webhook/${triggerWebhookId(trigger)}/webhook`]),
			webhookReceiver(hook.id, [`${origin}/webhook/${pathOf(hook)}`]),
			webhookReceiver(
				hookWithCredential.id,
				[`${origin}/webhook/${pathOf(hookWithCredential)}`],
				"n8n's Webhook node + a node with a credential",
			),
		];
		for (const r of receivers) await untilServed(r.urls[0]);
		const events = makeEvents('starved', EVENTS);
		const since = new Date(Date.now() - 1000).toISOString();
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
		const rows = await Promise.all(
			receivers.map(async (r) => await figures(stack, sender, fault, r, events)),
		);
		printTable(fault, rows);
		for (const [n, r] of receivers.entries())
			for (const id of rows[n].lostIds.slice(0, 5))
				log(
					`  ${r.name}: ${id} answered ${JSON.stringify(
						sender.answers
							.get(r.name)
							?.get(id)
							?.map((a) => `${a.status}${a.said ? ` ${a.said}` : ''}`),
					)}, ${await held(r.workflowId, id)}`,
				);
		// From n8n's database: events answered 2xx that no execution holds, against this burst's
		// executions that hold no event (n8n recorded them without the payload).
		const falseAcks = await Promise.all(
			receivers.map(async (r, n) => {
				const { noneHeld, payloadless } = await withoutExecution(
					r.workflowId,
					rows[n].lostIds,
					events[0].id.slice(0, events[0].id.lastIndexOf('_') + 1),
					since,
				);
				log(
					`  ${r.name}: ${rows[n].lost} answered 2xx without a run; ${noneHeld} held by no execution, ${payloadless} executions of this burst hold no event`,
				);
				return Math.max(0, noneHeld - payloadless);
			}),
		);
		const [mine] = rows;
		expect(
			rows.some((f) => Object.keys(f.answers).some((s) => s !== '200')),
			`the pool was not starved (every answer 200): ${JSON.stringify(mine.answers)}`,
		);
		expectEqual(falseAcks[0], 0, 'events this trigger answered 2xx with no execution in n8n');
		expectEqual(mine.twice, 0, 'executions beyond one per event id');
		expectEqual(mine.refused, 0, 'events never answered 2xx (after the closing delivery)');
	});

	/** `prefix`: what every id of the burst starts with; `since`: when the burst began. */
	async function withoutExecution(
		workflowId: string,
		lostIds: string[],
		prefix: string,
		since: string,
	) {
		const count = async (where: string) =>
			Number(
				await queue.sql(
					`SELECT count(*) FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${workflowId}' AND ${where}`,
				),
			);
		let noneHeld = 0;
		for (const id of lostIds) if ((await holding(workflowId, id)).length === 0) noneHeld++;
		const payloadless = await count(
			`e."createdAt" >= '${since}' AND (d.data IS NULL OR d.data NOT LIKE '%${prefix}%')`,
		);
		return { noneHeld, payloadless };
	}

	/** The receiver's executions whose stored data names the event id (quoted, so evt_1 is not evt_12): "id status" each. */
	async function holding(workflowId: string, id: string): Promise<string[]> {
		const rows = await queue.sql(
			`SELECT e.id || ' ' || e.status FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${workflowId}' AND d.data LIKE '%"${id}"%' ORDER BY e.id`,
		);
		return rows.split('\n').filter(Boolean);
	}

	/** Those executions, each with its status, n8n's error when it failed, and each node's output. */
	async function held(workflowId: string, id: string): Promise<string> {
		const found = [];
		for (const row of await holding(workflowId, id)) {
			const [executionId, status] = row.split(' ');
			const response = await stack.api.get(`/executions/${executionId}`, {
				params: { includeData: true },
			});
			const error = (response.data?.data?.resultData?.error?.message as string | undefined) ?? '';
			type Runs = Array<{ data?: { main?: Array<Array<{ json?: { id?: unknown } }>> } }>;
			const runData = (response.data?.data?.resultData?.runData ?? {}) as Record<string, Runs>;
			const seen = JSON.stringify(
				Object.fromEntries(
					Object.entries(runData).map(([node, runs]) => [
						node,
						runs[0]?.data?.main?.[0]?.[0]?.json?.id,
					]),
				),
			);
			found.push(
				`${executionId} ${status}${error ? ` (${error.slice(0, 160)})` : ''}, output per node ${seen}`,
			);
		}
		return found.length ? `executions: ${found.join(', ')}` : 'no execution holds it';
	}
}
