/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- local tooling: starts n8n, sends deliveries signed with a made-up secret and prints the figures; not published (package.json "files" is dist/ only) */
/**
 * Signed deliveries, one receiver after another in one n8n 2.41.1 (regular mode, SQLite):
 * this trigger at version 1.1 (Deduplicate on, and off), a minimal community trigger (minimal-trigger.ts: what n8n
 * costs any webhook node that is not its own), n8n's Webhook node, and Webhook + Code
 * checking the HMAC; the trigger again with PREFILL ids (10,000) already remembered in its
 * static data; and the minimal trigger saving one small value before each answer, without and
 * with a credential, and saving 20 KB with a credential (what the size of a save costs).
 * COUNT deliveries (60) at 1 and at 8 at once, after 5 to warm up.
 *   E2E_STACK=<name> COUNT=60 RECEIVERS=0,3 npx ts-node --transpile-only test/bench/profile-deliveries.ts
 * RECEIVERS picks receivers by their place in the list (0: the trigger), in its order, a
 * receiver again when named twice; BENCH_N8N_ENV and BENCH_N8N_ARGS as for `npm run bench`.
 */
import { promises as fs } from 'fs';
import type { IDataObject } from 'n8n-workflow';

import { claimEvent } from '../../nodes/DocumentSigningTrigger/memory';

import { Stack, stopOnExit } from '../../scripts/lib/stack';
import { deliveryEnv, minimalTriggerFolder } from './delivery-scenario';
import { benchN8nEnv } from './measure';
import {
	minimalReceiver,
	type Receiver,
	sendBurst,
	summary,
	triggerReceiver,
	webhookCodeReceiver,
	webhookReceiver,
} from './deliveries';

/** Ids the last receiver's trigger starts with in its static data (PREFILL, 10,000). */
const REMEMBERED = Number(process.env.PREFILL ?? 10_000);

/**
 * The receiver with `count` ids already in its trigger's static data, written by the
 * trigger's own memory (nodes/DocumentSigningTrigger/memory.ts) as n8n would have saved them.
 */
async function remembering(receiver: Receiver, count: number): Promise<Receiver> {
	const store: IDataObject = {};
	const now = Date.now();
	for (let n = 0; n < count; n++) {
		const at = now - (count - n) * 100;
		const claim = await claimEvent({
			key: `prefill:${receiver.workflow.id}`,
			store,
			id: `evt_prefill_${n}_${now}`,
			createdAtMs: at,
			forgetBeforeMs: at - 3_600_000,
			waitMs: 0,
		});
		if (claim.outcome !== 'new') throw new Error(`prefill ${n}: ${claim.outcome}`);
		claim.answering();
		claim.settle(true);
	}
	const node = receiver.workflow.nodes[0] as { name: string };
	return {
		...receiver,
		name: `${receiver.name}, ${count} ids remembered`,
		workflow: {
			...receiver.workflow,
			staticData: { [`node:${node.name}`]: JSON.parse(JSON.stringify(store)) },
		},
	};
}

async function main(): Promise<void> {
	const log = (l: string) => console.log(`[${new Date().toISOString()}] ${l}`);
	const folder = await minimalTriggerFolder();
	const stack = new Stack({
		name: process.env.E2E_STACK ?? 'deliveries',
		fresh: true,
		log,
		n8nEnv: { ...deliveryEnv(folder), ...benchN8nEnv() },
		n8nNodeArgs: process.env.BENCH_N8N_ARGS ? process.env.BENCH_N8N_ARGS.split(' ') : undefined,
	});
	stack.cleanups.push(async () => await fs.rm(folder, { recursive: true, force: true }));
	const stopAndExit = stopOnExit(stack, log);
	const cred = { id: 'benchCred000001', name: 'Document Signing bench' };
	const count = Number(process.env.COUNT ?? 60);
	// The senders sign with it; the trigger's credential and the Code node check it.
	const secret = 'whsec_bench_deliveries_5f1e2d3c4b5a69788796a5b4c3d2e1f0';
	const receivers = [
		triggerReceiver('benchTrig000001', cred, {}, 1.1),
		{
			...triggerReceiver('benchTrig000002', cred, { deduplicate: false }, 1.1),
			name: 'this trigger, Deduplicate off',
		},
		minimalReceiver('benchMini000002', 1.1),
		webhookReceiver('benchHook000001'),
		webhookCodeReceiver('benchCode000001', secret),
		await remembering(triggerReceiver('benchTrig000003', cred, {}, 1.1), REMEMBERED),
		minimalReceiver('benchMini000003', 1.1, 'a small value'),
		minimalReceiver('benchMini000004', 1.1, 'a small value', cred),
		minimalReceiver('benchMini000005', 1.1, '20 KB', cred),
	];
	try {
		await stack.start({
			credentials: (sandbox) => [
				{
					id: cred.id,
					name: cred.name,
					type: 'documentSigningApi',
					data: {
						baseUrl: sandbox.baseUrl,
						apiKey: sandbox.apiKey,
						webhookSecret: secret,
					},
				},
			],
			workflows: receivers.map((r) => r.workflow),
		});
		// In the order given, a receiver again when named twice (the first one warms n8n up).
		const picked = process.env.RECEIVERS?.split(',').map((n) => receivers[Number(n)]);
		for (const r of picked ?? receivers) {
			const url = `${stack.n8nUrl}/webhook/${r.path}`;
			await sendBurst(url, secret, 5, 1); // warm-up
			for (const c of [1, 8]) {
				const s = summary([await sendBurst(url, secret, count, c)]);
				log(
					`ROW | ${r.name} | ${c} | ${s.perSecond.toFixed(1)}/s | p50 ${s.p50.toFixed(0)} ms | p95 ${s.p95.toFixed(0)} ms | ok ${s.ok}/${s.sent} ${JSON.stringify(s.other)}`,
				);
			}
		}
	} catch (e) {
		log(`failed: ${(e as Error).stack}`);
	}
	await stack.stop();
	await stopAndExit(0);
}

void main();
