/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and sends deliveries, not published (package.json "files" is dist/ only) */
/**
 * Signed deliveries to the trigger, side by side in one n8n: `npm run bench` (regular mode)
 * and `npm run bench:queue` (the webhook process), 1, 8 and 25 at once, twice: under n8n's
 * defaults (16-18, 19-21), and with n8n taking expression isolates lazily (22-24, 25-27;
 * LAZY_ISOLATES). Receivers: this trigger (Deduplicate on, its defaults), n8n's Webhook node
 * (Respond: Immediately, checks nothing), Webhook + Code checking the HMAC (what a user builds
 * by hand), a minimal community trigger (minimal-trigger.ts: what n8n costs any webhook
 * node that is not its own), that trigger saving one small value of its static data before
 * each answer (the floor of any memory of deliveries kept where n8n lets a webhook node keep
 * one), and the same with a credential (n8n checks it before every run). The figure is ms
 * per delivery (wall time / deliveries; the inverse of deliveries per second), median of as
 * many bursts of COUNT as there are receivers.
 * Targets: with lazy isolates, the trigger's row is held to 1.25 x the Webhook node's (0.8 x
 * its deliveries per second) and 1.0 x Webhook + Code's, its p95 answer time to 1.5 x the
 * Webhook node's. Under n8n's defaults, n8n 2.41.1 builds a V8 isolate for every delivery to
 * a webhook node other than its own Webhook node (live-webhooks.js webhookPhaseNeedsIsolate):
 * no community node can come near the Webhook node there, so the trigger is held to the
 * minimal community trigger, which pays the same (1.25 x its ms per delivery, p95 1.5 x), and
 * the Webhook node's and Webhook + Code's rows show the gap.
 */
import { promises as fs, readFileSync } from 'fs';
import os from 'os';
import path from 'path';
import ts from 'typescript';

import {
	type Burst,
	minimalReceiver,
	type Receiver,
	sendBurst,
	summary,
	triggerReceiver,
	webhookCodeReceiver,
	webhookReceiver,
} from './deliveries';
import { untilServed } from '../e2e/faults';
import { median, type Row } from './verdict';

export const DELIVERY_CONCURRENCY = [1, 8, 25] as const;
/** What n8n is told for scenarios 22-27: take an isolate only when an expression is evaluated. */
export const LAZY_ISOLATES = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };

/** What the trigger's rows are held to: the Webhook node (and Webhook + Code), or the minimal trigger. */
export type HeldTo = 'webhook' | 'minimal';

/**
 * Deliveries per burst, and bursts per receiver and concurrency (their median is the figure):
 * by default as many bursts as there are receivers, so that with the turns below each receiver
 * takes each place in the round once, and two disturbed bursts (a checkpoint, a stall of a
 * neighbour) cannot move the median.
 */
const COUNT = Number(process.env.BENCH_DELIVERIES ?? 100);
const runsFor = (receivers: number) => Number(process.env.BENCH_DELIVERY_RUNS ?? receivers);
/** Deliveries each receiver gets first, 8 at once, unmeasured. */
const WARM_UP = Number(process.env.BENCH_DELIVERY_WARM_UP ?? 200);

/** The folder n8n loads the minimal trigger from (N8N_CUSTOM_EXTENSIONS), transpiled to JavaScript. */
export async function minimalTriggerFolder(): Promise<string> {
	const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'n8n-bench-nodes-'));
	const source = readFileSync(path.join(__dirname, 'minimal-trigger.ts'), 'utf8');
	const js = ts.transpileModule(source, {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
	}).outputText;
	// n8n takes the class named as the file (n8n-core directory-loader.js): one file per class.
	for (const name of [
		'MinimalWebhookTrigger',
		'MinimalRememberingTrigger',
		'MinimalLargeRememberingTrigger',
	])
		await fs.writeFile(path.join(folder, `${name}.node.js`), js);
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
	/** The minimal trigger saving one small value before each answer: the floor of a memory kept in static data. */
	floor: Receiver;
	/**
	 * That floor with the trigger's credential, which n8n checks with database reads before every
	 * run of a workflow with one (credentials-permission-checker.js): the floor of a webhook node
	 * that keeps its secret in a credential, as the trigger does.
	 */
	floorWithCredential: Receiver;
}

/** The six receivers; the trigger and the floor with a credential use `credential` (its webhook secret: `secret`). */
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
		floor: minimalReceiver(`${prefix}Mini02`, 1.1, 'a small value'),
		floorWithCredential: minimalReceiver(`${prefix}Mini03`, 1.1, 'a small value', credential),
	};
}

interface Measured {
	msPerDelivery: number;
	runs: number[];
	p95: number;
	failed: number;
	other: Record<string, number>;
}

function measured(bursts: Burst[]): Measured {
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
 * Bursts of COUNT for each receiver, `concurrency` at once, as many as there are receivers
 * (runsFor). The receivers take turns, one burst each per round, starting one place later each
 * round: none is always the first after a restart or always the one after the heaviest.
 */
async function measureInTurns(
	all: Receiver[],
	url: (r: Receiver) => string,
	secret: string,
	concurrency: number,
): Promise<Map<Receiver, Measured>> {
	const bursts = new Map<Receiver, Burst[]>(all.map((r) => [r, []]));
	for (let round = 0; round < runsFor(all.length); round++)
		for (let k = 0; k < all.length; k++) {
			const r = all[(round + k) % all.length];
			bursts.get(r)!.push(await sendBurst(url(r), secret, COUNT, concurrency));
		}
	return new Map(all.map((r) => [r, measured(bursts.get(r)!)]));
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
	heldTo: HeldTo,
	log: (line: string) => void,
): Promise<Row[]> {
	const url = (r: Receiver) => `${origin}/webhook/${r.path}`;
	const all = Object.values(receivers);
	for (const r of all) {
		await untilServed(url(r)); // a restarted n8n answers 404 until it has registered them
		// n8n (and each node's code) runs slower for its first few hundred deliveries, while V8
		// compiles the hot paths: every receiver is measured warm, as a busy n8n is.
		await sendBurst(url(r), secret, WARM_UP, 8);
	}
	const rows: Row[] = [];
	for (const [n, concurrency] of DELIVERY_CONCURRENCY.entries()) {
		const scenario = String(first + n);
		const figures = await measureInTurns(all, url, secret, concurrency);
		for (const r of all) {
			const m = figures.get(r)!;
			log(
				`  ${scenario} ${r.name}, ${concurrency} at once: ${m.msPerDelivery.toFixed(1)} ms per delivery (${(1000 / m.msPerDelivery).toFixed(1)}/s), p95 ${m.p95.toFixed(0)} ms, ${m.failed} not 2xx ${JSON.stringify(m.other)}`,
			);
		}
		const target = targetOf(figures, receivers, heldTo);
		for (const r of all) {
			const m = figures.get(r)!;
			const mine = r === receivers.trigger;
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
				requests: COUNT * m.runs.length,
				...(mine ? { ...target, p95Ms: m.p95 } : {}),
				note: `${(1000 / m.msPerDelivery).toFixed(1)} deliveries/s, p95 ${m.p95.toFixed(0)} ms${mine ? ` (bound ${target.p95LimitMs.toFixed(0)} ms)` : ''}`,
			});
		}
	}
	return rows;
}

/** The trigger's limit (ms per delivery), what it comes from, and its p95 bound. */
function targetOf(
	figures: Map<Receiver, Measured>,
	receivers: DeliveryReceivers,
	heldTo: HeldTo,
): { limit: number; limitAgainst: string; p95LimitMs: number } {
	if (heldTo === 'minimal') {
		const minimal = figures.get(receivers.minimal)!;
		return {
			limit: 1.25 * minimal.msPerDelivery,
			limitAgainst:
				"1.25 x the minimal community trigger (n8n's isolate per delivery for any node but its Webhook node)",
			p95LimitMs: 1.5 * minimal.p95,
		};
	}
	const hook = figures.get(receivers.webhook)!;
	const code = figures.get(receivers.code)!;
	const limit = Math.min(1.25 * hook.msPerDelivery, code.msPerDelivery);
	return {
		limit,
		limitAgainst:
			limit === code.msPerDelivery
				? 'Webhook + Code'
				: "1.25 x n8n's Webhook node (0.8 x its deliveries/s)",
		p95LimitMs: 1.5 * hook.p95,
	};
}
