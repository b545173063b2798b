/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: sends deliveries to a local n8n, not published (package.json "files" is dist/ only) */
/**
 * Signed webhook deliveries to a real n8n, as the service sends them: one event per delivery
 * (a new id each), its body HMAC-SHA256-signed in `X-Service-Signature`, `concurrency` in
 * flight at once. The receivers (workflows) the trigger is compared with, and the sender
 * that times each answer.
 */
import axios from 'axios';
import { createHmac, randomBytes } from 'crypto';
import { Agent } from 'http';

import type { WorkflowFixture } from '../../scripts/lib/stack';
import { percentile } from './measure';

export const TRIGGER_NODE = 'n8n-nodes-document-signing.documentSigningTrigger';

/** A receiver of deliveries: a workflow and the path of its webhook. */
export interface Receiver {
	name: string;
	workflow: WorkflowFixture;
	/** The production path after `/webhook/`. */
	path: string;
}

let nodeCounter = 0;
const uuid = (tag: number) =>
	`c4d5e6f7-${String(tag).padStart(4, '0')}-4000-8000-${String(++nodeCounter).padStart(12, '0')}`;

function oneWorkflow(
	id: string,
	name: string,
	nodes: Array<Record<string, unknown>>,
): WorkflowFixture {
	const connections: Record<string, unknown> = {};
	for (let k = 0; k < nodes.length - 1; k++)
		connections[nodes[k].name as string] = {
			main: [[{ node: nodes[k + 1].name, type: 'main', index: 0 }]],
		};
	return { id, name, active: true, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** This package's trigger on `document.sent`, its other settings at their defaults (Deduplicate on), its newest version by default. */
export function triggerReceiver(
	id: string,
	credential: { id: string; name: string },
	parameters: Record<string, unknown> = {},
	typeVersion = 1.1,
): Receiver {
	const webhookId = uuid(1);
	return {
		name: 'this trigger',
		path: `${webhookId}/webhook`,
		workflow: oneWorkflow(id, `Bench: trigger ${id}`, [
			{
				id: uuid(2),
				name: 'Document Signing Trigger',
				type: TRIGGER_NODE,
				typeVersion,
				position: [0, 0],
				webhookId,
				parameters: { events: ['document.sent'], ...parameters },
				credentials: { documentSigningApi: credential },
			},
		]),
	};
}

const webhookNode = (path: string, parameters: Record<string, unknown>) => ({
	id: uuid(3),
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
	webhookId: uuid(4),
	parameters: { httpMethod: 'POST', path, ...parameters },
});

/** What a minimal trigger saves in its static data before each answer: its custom node and receiver name. */
const MINIMAL_SAVES = {
	nothing: {
		type: 'CUSTOM.minimalWebhookTrigger',
		name: (version: number) => `a minimal community trigger, version ${version}`,
	},
	'a small value': {
		type: 'CUSTOM.minimalRememberingTrigger',
		name: () => 'a minimal trigger saving one value per delivery',
	},
	'20 KB': {
		type: 'CUSTOM.minimalLargeRememberingTrigger',
		name: () => 'a minimal trigger saving 20 KB per delivery',
	},
} as const;

/**
 * The least community webhook trigger (minimal-trigger.ts), loaded as a custom node; `saves`:
 * what n8n saves of its static data before each answer (nothing, one small value, or 20 KB).
 */
export function minimalReceiver(
	id: string,
	typeVersion: 1 | 1.1,
	saves: keyof typeof MINIMAL_SAVES = 'nothing',
	credential?: { id: string; name: string },
): Receiver {
	const webhookId = uuid(6);
	const { type, name } = MINIMAL_SAVES[saves];
	return {
		name: name(typeVersion) + (credential ? ', with a credential' : ''),
		path: `${webhookId}/webhook`,
		workflow: oneWorkflow(id, `Bench: minimal trigger ${id}`, [
			{
				id: uuid(7),
				name: 'Minimal Webhook Trigger',
				type,
				typeVersion,
				position: [0, 0],
				webhookId,
				parameters: {},
				...(credential ? { credentials: { documentSigningApi: credential } } : {}),
			},
		]),
	};
}

/** n8n's Webhook node, Respond: Immediately; it checks nothing. */
export function webhookReceiver(id: string): Receiver {
	const path = `bench-hook-${id.toLowerCase()}`;
	return {
		name: "n8n's Webhook node",
		path,
		workflow: oneWorkflow(id, `Bench: Webhook node ${id}`, [
			webhookNode(path, { responseMode: 'onReceived', options: {} }),
		]),
	};
}

/**
 * What a user builds by hand to check the signature: n8n's Webhook node keeping the raw body,
 * then a Code node computing the HMAC-SHA256 of those bytes and comparing it in constant time
 * (throwing on a mismatch). Respond: When Last Node Finishes, so that a forged delivery is
 * refused (500) as the trigger refuses it (401); the Code node runs in n8n's task runner and
 * needs `NODE_FUNCTION_ALLOW_BUILTIN=crypto` (n8n refuses `require('crypto')` otherwise).
 */
export function webhookCodeReceiver(id: string, secret: string): Receiver {
	const path = `bench-hook-code-${id.toLowerCase()}`;
	const code = [
		"const { createHmac, timingSafeEqual } = require('crypto');",
		`const secret = ${JSON.stringify(secret)};`,
		'const items = $input.all();',
		'const out = [];',
		'for (let i = 0; i < items.length; i++) {',
		"\tconst raw = await this.helpers.getBinaryDataBuffer(i, 'data');",
		"\tconst expected = createHmac('sha256', secret).update(raw).digest();",
		"\tconst given = Buffer.from(String(items[i].json.headers['x-service-signature'] ?? ''), 'hex');",
		'\tif (given.length !== expected.length || !timingSafeEqual(given, expected))',
		"\t\tthrow new Error('Signature missing or invalid');",
		'\tout.push({ json: items[i].json.body });',
		'}',
		'return out;',
	].join('\n');
	return {
		name: 'Webhook + Code node checking the HMAC',
		path,
		workflow: oneWorkflow(id, `Bench: Webhook + Code ${id}`, [
			webhookNode(path, {
				responseMode: 'lastNode',
				responseData: 'firstEntryJson',
				options: { rawBody: true },
			}),
			{
				id: uuid(5),
				name: 'Check Signature',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: code },
			},
		]),
	};
}

/** A `document.sent` event with a new id, as the body's exact bytes. */
export function eventBody(tag: string, n: number): string {
	const at = new Date().toISOString();
	const id = `evt_${tag}_${n}`;
	return JSON.stringify({
		id,
		event: 'document.sent',
		createdAt: at,
		data: {
			envelopeId: `env_${tag}_${n}`,
			title: 'Bench delivery',
			status: 'pending',
			recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
			occurredAt: at,
		},
	});
}

export interface Burst {
	/** Deliveries sent. */
	sent: number;
	/** Answered 2xx. */
	ok: number;
	/** Answer statuses (or error codes) other than 2xx, with their counts. */
	other: Record<string, number>;
	/** From the first send to the last answer, ms. */
	wallMs: number;
	/** Each delivery's answer time, ms. */
	answerMs: number[];
}

/**
 * Sends `count` signed deliveries to `url`, `concurrency` at once (a new event id each,
 * signed with `secret`), and times each answer.
 */
export async function sendBurst(
	url: string,
	secret: string,
	count: number,
	concurrency: number,
): Promise<Burst> {
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const tag = randomBytes(4).toString('hex');
	const answerMs: number[] = [];
	const other: Record<string, number> = {};
	let ok = 0;
	let next = 0;
	const t0 = performance.now();
	await Promise.all(
		Array.from({ length: Math.min(concurrency, count) }, async () => {
			while (next < count) {
				const body = eventBody(tag, next++);
				const signature = createHmac('sha256', secret).update(body).digest('hex');
				const t = performance.now();
				const status = await axios
					.post(url, body, {
						headers: { 'content-type': 'application/json', 'x-service-signature': signature },
						httpAgent: agent,
						validateStatus: () => true,
						timeout: 60_000,
					})
					.then((a) => String(a.status))
					.catch((error: { code?: string; message: string }) => error.code ?? error.message);
				answerMs.push(performance.now() - t);
				if (/^2\d\d$/.test(status)) ok++;
				else other[status] = (other[status] ?? 0) + 1;
			}
		}),
	);
	const wallMs = performance.now() - t0;
	agent.destroy();
	return { sent: count, ok, other, wallMs, answerMs };
}

/** Deliveries per second, p50 and p95 answer time of bursts taken together. */
export function summary(bursts: Burst[]): {
	perSecond: number;
	p50: number;
	p95: number;
	sent: number;
	ok: number;
	other: Record<string, number>;
} {
	const all = bursts.flatMap((b) => b.answerMs);
	const other: Record<string, number> = {};
	for (const b of bursts)
		for (const [k, v] of Object.entries(b.other)) other[k] = (other[k] ?? 0) + v;
	const sent = bursts.reduce((s, b) => s + b.sent, 0);
	const ms = bursts.reduce((s, b) => s + b.wallMs, 0);
	return {
		perSecond: (sent * 1000) / ms,
		p50: percentile(all, 50),
		p95: percentile(all, 95),
		sent,
		ok: bursts.reduce((s, b) => s + b.ok, 0),
		other,
	};
}
