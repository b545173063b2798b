/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and sends deliveries, not published (package.json "files" is dist/ only) */
/**
 * Signed deliveries to the trigger, side by side in one n8n: scenarios 16-18 of `npm run bench`
 * (regular mode) and 19-21 of `npm run bench:queue` (the webhook process), 1, 8 and 25 at once.
 * Receivers: this trigger (Deduplicate on, its defaults), n8n's Webhook node (Respond:
 * Immediately, checks nothing), Webhook + Code checking the HMAC (what a user builds by hand),
 * and a minimal community trigger (minimal-trigger.ts: what n8n costs any webhook node that
 * is not its own). The figure is ms per delivery (wall time / deliveries; the inverse of
 * deliveries per second), median of RUNS bursts of COUNT; the trigger's row is held to
 * 1.25 x the Webhook node's (0.8 x its deliveries per second) and 1.0 x Webhook + Code's, and
 * its p95 answer time to 1.5 x the Webhook node's.
 */
import { promises as fs, readFileSync } from 'fs';
import os from 'os';
import path from 'path';
import ts from 'typescript';

import {
	minimalReceiver,
	type Receiver,
	sendBurst,
	summary,
	triggerReceiver,
	webhookCodeReceiver,
	webhookReceiver,
} from './deliveries';
import { median, type Row } from './verdict';

export const DELIVERY_CONCURRENCY = [1, 8, 25] as const;
/** Deliveries per burst, and bursts per receiver and concurrency (their median is the figure). */
const COUNT = Number(process.env.BENCH_DELIVERIES ?? 100);
const RUNS = Number(process.env.BENCH_DELIVERY_RUNS ?? 3);

/** The folder n8n loads the minimal trigger from (N8N_CUSTOM_EXTENSIONS), transpiled to JavaScript. */
export async function minimalTriggerFolder(): Promise<string> {
	const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'n8n-bench-nodes-'));
	const source = readFileSync(path.join(__dirname, 'minimal-trigger.ts'), 'utf8');
	const js = ts.transpileModule(source, {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
	}).outputText;
	await fs.writeFile(path.join(folder, 'MinimalWebhookTrigger.node.js'), js);
	return folder;
}

/** What n8n needs for the receivers: the minimal trigger's folder, and crypto in the Code node. */
export const deliveryEnv = (folder: string): Record<string, string> => ({
	N8N_CUSTOM_EXTENSIONS: folder,
	NODE_FUNCTION_ALLOW_BUILTIN: 'crypto',
});

export interface DeliveryReceivers {
	trigger: Receiver;
	webhook: Receiver;
	code: Receiver;
	minimal: Receiver;
}

/** The four receivers; the trigger uses `credential`, whose webhook secret is `secret`. */
export function deliveryReceivers(
	credential: { id: string; name: string },
	secret: string,
	prefix: string,
): DeliveryReceivers {
	return {
		trigger: triggerReceiver(`${prefix}Trig01`, credential),
		webhook: webhookReceiver(`${prefix}Hook01`),
		code: webhookCodeReceiver(`${prefix}Code01`, secret),
		minimal: minimalReceiver(`${prefix}Mini01`, 1.1),
	};
}

interface Measured {
	msPerDelivery: number;
	runs: number[];
	p95: number;
	failed: number;
	other: Record<string, number>;
}

async function measure(url: string, secret: string, concurrency: number): Promise<Measured> {
	const bursts = [];
	for (let k = 0; k < RUNS; k++) bursts.push(await sendBurst(url, secret, COUNT, concurrency));
	const runs = bursts.map((b) => b.wallMs / b.sent);
	const s = summary(bursts);
	return {
		msPerDelivery: median(runs),
		runs,
		p95: s.p95,
		failed: s.sent - s.ok,
		other: s.other,
	};
}

/**
 * Measures every receiver at 1, 8 and 25 at once (after a warm-up each), concurrency by
 * concurrency so the receivers of one row run minutes apart at most; the scenarios are
 * `first`, `first + 1` and `first + 2`.
 */
export async function deliveryRows(
	origin: string,
	secret: string,
	receivers: DeliveryReceivers,
	first: number,
	log: (line: string) => void,
): Promise<Row[]> {
	const url = (r: Receiver) => `${origin}/webhook/${r.path}`;
	const all = [receivers.trigger, receivers.webhook, receivers.code, receivers.minimal];
	for (const r of all) await sendBurst(url(r), secret, 10, 1); // a fresh n8n compiles its paths on first use
	const rows: Row[] = [];
	for (const [n, concurrency] of DELIVERY_CONCURRENCY.entries()) {
		const scenario = String(first + n);
		const figures = new Map<Receiver, Measured>();
		for (const r of all) {
			const m = await measure(url(r), secret, concurrency);
			figures.set(r, m);
			log(
				`  ${scenario} ${r.name}, ${concurrency} at once: ${m.msPerDelivery.toFixed(1)} ms per delivery (${(1000 / m.msPerDelivery).toFixed(1)}/s), p95 ${m.p95.toFixed(0)} ms, ${m.failed} not 2xx ${JSON.stringify(m.other)}`,
			);
		}
		const hook = figures.get(receivers.webhook)!;
		const code = figures.get(receivers.code)!;
		for (const r of all) {
			const m = figures.get(r)!;
			const mine = r === receivers.trigger;
			const limit = Math.min(1.25 * hook.msPerDelivery, code.msPerDelivery);
			rows.push({
				scenario,
				contender: `${r.name}, ${concurrency} at once`,
				kind: mine ? 'node' : 'other',
				value: m.msPerDelivery,
				runs: m.runs,
				failed: m.failed,
				duplicates: 0,
				rateLimited: 0,
				serverErrors: 0,
				requests: COUNT * RUNS,
				...(mine
					? {
							limit,
							limitAgainst:
								limit === code.msPerDelivery
									? 'Webhook + Code'
									: "1.25 x n8n's Webhook node (0.8 x its deliveries/s)",
							p95Ms: m.p95,
							p95LimitMs: 1.5 * hook.p95,
						}
					: {}),
				note: `${(1000 / m.msPerDelivery).toFixed(1)} deliveries/s, p95 ${m.p95.toFixed(0)} ms${mine ? ` (bound ${(1.5 * hook.p95).toFixed(0)} ms)` : ''}`,
			});
		}
	}
	return rows;
}
