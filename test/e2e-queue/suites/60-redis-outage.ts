/**
 * Redis stopped for 30 s while signed deliveries keep arriving at the webhook process, then
 * started again. Counts the events answered 200 that never became an execution, and what
 * became of n8n's processes (n8n exits a process that cannot reach Redis for
 * QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD, 10 s by default); the processes that exited are
 * started again, as a supervisor would. Events refused during the outage (connection
 * refused or non-2xx) are delivered again afterwards, as the service retries: each of them
 * then starts one execution. docs/scaling.md says what this means for a user.
 */
import axios from 'axios';
import { createHmac, randomBytes } from 'crypto';

import { sleep, waitFor } from '../../../scripts/lib/stack';
import { check, expect, expectEqual, log, triggerWebhookId } from '../../e2e/lib';
import { executionWithData, finished, listExecutions, type QueueContext } from '../lib';

const OUTAGE_MS = 30_000;
const BEFORE_MS = 8_000;
const AFTER_MS = 10_000;
/** One delivery every this many ms. */
const EVERY_MS = 250;

interface Sent {
	id: string;
	body: string;
	phase: 'before' | 'outage' | 'after';
	status: number | string;
	started: boolean;
}

export default async function suite({ queue, stack, workflows }: QueueContext): Promise<void> {
	const outage = workflows.DsQueueOutage001;
	expect(outage, 'the outage workflow fixture is missing');
	const url = queue.webhookUrl(triggerWebhookId(outage), 'webhook');
	const sign = (body: string) => createHmac('sha256', stack.sandbox.webhookSecret).update(body).digest('hex');
	const tag = randomBytes(3).toString('hex');
	const deliver = async (body: string) =>
		await axios
			.post(url, body, { headers: { 'Content-Type': 'application/json', 'X-Service-Signature': sign(body) }, validateStatus: () => true, timeout: 20_000 })
			.then((a) => ({ status: a.status as number | string, started: a.data?.started === true, reason: a.data?.reason as string | undefined }))
			.catch((error: { code?: string; message: string }) => ({ status: error.code ?? error.message, started: false, reason: undefined }));
	await waitFor('the outage trigger to be served', async () => (await deliver('{}')).status !== 404, 30_000);

	await check('queue mode: Redis stopped for 30 s while signed deliveries arrive: the events answered 200 without an execution are counted; none runs twice; refused ones start once when delivered again', async () => {
		const sent: Sent[] = [];
		let phase: Sent['phase'] = 'before';
		let n = 0;
		let sending = true;
		const inFlight: Array<Promise<void>> = [];
		const sender = (async () => {
			while (sending) {
				const id = `evt_outage_${tag}_${++n}`;
				const body = JSON.stringify({ id, event: 'document.sent', createdAt: new Date().toISOString(), data: { envelopeId: `env_${id}`, title: 'Outage', status: 'pending', recipients: [], occurredAt: new Date().toISOString() } });
				const at = phase;
				inFlight.push(deliver(body).then((a) => void sent.push({ id, body, phase: at, status: a.status, started: a.started })));
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
			for (const name of queue.exitedN8nProcesses()) exitedAt[name] ??= Math.round((Date.now() - t0) / 1000);
			await sleep(500);
		}
		await queue.restartRedis();
		phase = 'after';
		log(`  Redis started again after ${Math.round((Date.now() - t0) / 1000)} s; n8n processes that exited meanwhile (s into the outage): ${JSON.stringify(exitedAt)}`);
		// What a supervisor (systemd, Docker's restart policy, Kubernetes) would do.
		const exited = queue.exitedN8nProcesses();
		if (exited.includes('n8n')) await queue.restart('n8n');
		await Promise.all(exited.filter((name) => name !== 'n8n').map(async (name) => await queue.restart(name)));
		log(`  started again: ${exited.join(', ') || 'none'} (${Math.round((Date.now() - t0) / 1000)} s after Redis stopped)`);
		await sleep(AFTER_MS);
		sending = false;
		await sender;
		await Promise.all(inFlight);

		const byPhase = (p: Sent['phase']) => sent.filter((s) => s.phase === p);
		const describe = (list: Sent[]) => {
			const counts: Record<string, number> = {};
			for (const s of list) counts[String(s.status)] = (counts[String(s.status)] ?? 0) + 1;
			return JSON.stringify(counts);
		};
		log(`  figures: answers before ${describe(byPhase('before'))}, during the outage ${describe(byPhase('outage'))}, after ${describe(byPhase('after'))}`);

		// Executions per event id, once n8n has settled.
		const perId = new Map<string, number>();
		const statuses: Record<string, number> = {};
		const read = async () => {
			perId.clear();
			for (const key of Object.keys(statuses)) delete statuses[key];
			for (const e of await listExecutions(stack, outage.id)) {
				const full = await executionWithData(stack, e.id);
				const id = String(full.data?.resultData.runData['Document Signing Trigger']?.[0]?.data?.main?.[0]?.[0]?.json.id ?? '');
				const error = full.data?.resultData.error?.message;
				const what = `${e.status}${id ? '' : ' without trigger data'}${error ? ` (${error.slice(0, 80)})` : ''}`;
				statuses[what] = (statuses[what] ?? 0) + 1;
				if (id) perId.set(id, (perId.get(id) ?? 0) + 1);
			}
		};
		const accepted = sent.filter((s) => s.status === 200 && s.started);
		await waitFor('the accepted events to settle', async () => {
			const list = await listExecutions(stack, outage.id);
			return list.length >= accepted.length && list.every(finished);
		}, 60_000, 1000).catch(() => undefined);
		await read();
		const lost = accepted.filter((s) => !perId.has(s.id));
		log(`  figures: ${sent.length} deliveries, ${accepted.length} answered 200 and started, ${perId.size} with an execution, lost (answered 200, no execution): ${lost.length} (${describe(lost.map((s) => ({ ...s, status: s.phase })))}); execution statuses ${JSON.stringify(statuses)}`);

		// The service delivers again what was not answered 2xx: 10 at a time, each again after a non-2xx answer, 1 s apart.
		const refused = sent.filter((s) => typeof s.status !== 'number' || s.status >= 300);
		const againById = new Map<string, Awaited<ReturnType<typeof deliver>>>();
		const queueOfRefused = [...refused];
		await Promise.all(
			Array.from({ length: 10 }, async () => {
				for (let next = queueOfRefused.shift(); next; next = queueOfRefused.shift()) {
					let answer = await deliver(next.body);
					for (let attempt = 1; attempt < 10 && (typeof answer.status !== 'number' || answer.status >= 300); attempt++) {
						await sleep(1000);
						answer = await deliver(next.body);
					}
					againById.set(next.id, answer);
				}
			}),
		);
		const again = [...againById.values()];
		const againCounts: Record<string, number> = {};
		for (const a of again) againCounts[`${a.status} ${a.started ? 'started' : (a.reason ?? '')}`] = (againCounts[`${a.status} ${a.started ? 'started' : (a.reason ?? '')}`] ?? 0) + 1;
		log(`  figures: the ${refused.length} refused events delivered again: ${JSON.stringify(againCounts)}`);
		// A lost event delivered again: the trigger remembers its id.
		const lostAgain = lost.length > 0 ? await deliver(lost[0].body) : undefined;
		if (lostAgain) log(`  figures: a lost event delivered again is answered ${lostAgain.status} ${lostAgain.reason ?? (lostAgain.started ? 'started' : '')}`);
		const startedAgain = refused.filter((r) => againById.get(r.id)?.started === true);
		await waitFor('the redelivered events to run', async () => {
			const list = await listExecutions(stack, outage.id);
			return list.length >= accepted.length + startedAgain.length && list.every(finished);
		}, 60_000, 1000).catch(() => undefined);
		await sleep(2000);
		await read();
		const lostAtEnd = sent.filter((s) => !perId.has(s.id));
		const firstAnswer = (list: Sent[]) => describe(list.map((s) => ({ ...s, status: `${s.phase} ${s.status}` })));
		log(`  figures: at the end ${perId.size} of ${sent.length} events have an execution; without one (every event was answered 2xx in the end): ${lostAtEnd.length}, by first answer ${firstAnswer(lostAtEnd)}; executions ${JSON.stringify(statuses)}`);
		expectEqual(again.filter((a) => a.status !== 200).length, 0, 'refused events not answered 200 when delivered again');
		expectEqual([...perId.entries()].filter(([, count]) => count > 1).map(([id]) => id), [], 'events with more than one execution');
		expectEqual(startedAgain.filter((s) => !perId.has(s.id)).map((s) => s.id), [], 'events started on redelivery without an execution');
		expectEqual(queue.exitedN8nProcesses(), [], 'n8n processes not running at the end');
	});
}
