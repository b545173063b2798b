/**
 * The credential's webhook secret for a delivery, read through n8n's getCredentials as
 * seldom as the guarantee allows. Each read decrypts the credential and, in n8n 2.x, builds
 * and disposes an expression isolate for its defaults (n8n/dist/credentials-helper.js line
 * 397 in 2.41.1: a new Workflow and `acquireIsolate` per call): about 11 ms of n8n's main
 * thread, a sixth of a signed delivery's cost there.
 *
 * - A secret read is kept for its node (workflow, node, credential) for SECRET_KEPT_MS.
 * - A delivery the kept secret refuses reads the credential again and, when the secret
 *   changed, is judged with the new one: a changed secret takes effect with its first
 *   delivery, and the secret before it is accepted at most SECRET_KEPT_MS after the change.
 * - No secret is never kept: with Accept Unsigned, setting a secret closes the node at the
 *   next delivery.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import type { Verdict } from './verdict';

export const SECRET_KEPT_MS = 10_000;
/** Kept secrets at most (one per trigger node in this process); the oldest goes first. */
const MAX_KEPT = 1000;

const kept = new Map<string, { secret: string; until: number }>();

/** Which node's secret: none when n8n gives no credential id (nothing is kept then). */
function keyOf(context: IWebhookFunctions): string | undefined {
	const node = context.getNode();
	const credentialId = node.credentials?.documentSigningApi?.id;
	if (!credentialId) return undefined;
	return JSON.stringify([context.getWorkflow().id ?? '', node.name, credentialId]);
}

async function readSecret(context: IWebhookFunctions): Promise<string> {
	const credentials = await context.getCredentials('documentSigningApi');
	return typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
}

function keep(key: string | undefined, secret: string, nowMs: number): void {
	if (key === undefined) return;
	kept.delete(key); // re-inserted last: the map's order is the order of reads
	if (secret === '') return;
	kept.set(key, { secret, until: nowMs + SECRET_KEPT_MS });
	for (const [old, entry] of kept) {
		if (kept.size <= MAX_KEPT && entry.until > nowMs) break;
		kept.delete(old);
	}
}

/** The verdict on a delivery, judged with the node's secret (kept, or read when needed). */
export async function judgedWithSecret(
	context: IWebhookFunctions,
	nowMs: number,
	judge: (secret: string) => Verdict,
): Promise<Verdict> {
	const key = keyOf(context);
	const held = key === undefined ? undefined : kept.get(key);
	let first: Verdict | undefined;
	if (held && held.until > nowMs) {
		first = judge(held.secret);
		if (first.action !== 'refuse') return first;
	}
	const secret = await readSecret(context);
	keep(key, secret, nowMs);
	if (first && held?.secret === secret) return first;
	return judge(secret);
}

/** Forgets every kept secret (tests). */
export function forgetKeptSecrets(): void {
	kept.clear();
}
