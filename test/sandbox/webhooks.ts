/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Webhook events: every event is recorded, then POSTed to each matching subscription as
 * JSON {id, event, createdAt, data} with `X-Service-Signature` = HMAC-SHA256 of the exact
 * body bytes, hex in the default mode, base64 in the variant mode (V8). Non-2xx answers and connection errors are
 * retried with a doubling backoff; deliveries to one subscription go out in event order.
 */
import { createHmac } from 'crypto';
import { GUESSED_SIGNATURE } from './guesses';
import { SIGNATURE_HEADER } from './spec/limits';
import { choicesOf } from './variant';
import type { SandboxState, WebhookDelivery, WebhookEvent, WebhookSubscription } from './state';

export function signBody(
	secret: string,
	body: string | Buffer,
	encoding: 'hex' | 'base64' = GUESSED_SIGNATURE.encoding,
): string {
	return createHmac(GUESSED_SIGNATURE.algorithm, secret).update(body).digest(encoding);
}

/** One promise chain per subscription keeps deliveries in order. */
const queues = new WeakMap<WebhookSubscription, Promise<void>>();

export function emitEvent(
	state: SandboxState,
	event: string,
	data: Record<string, unknown>,
): WebhookEvent {
	const record: WebhookEvent = { id: state.newId('evt'), event, createdAt: state.nowIso(), data };
	state.events.push(record);
	for (const sub of state.webhooks) {
		if (sub.events.length > 0 && !sub.events.includes(event)) continue;
		const body = JSON.stringify(record);
		const delivery: WebhookDelivery = {
			id: state.newId('dlv'),
			subscriptionId: sub.id,
			url: sub.url,
			eventId: record.id,
			event,
			body,
			signature: signBody(state.webhookSecret, body, choicesOf(state).signatureEncoding),
			attempts: [],
			delivered: false,
			finished: false,
		};
		state.deliveries.push(delivery);
		const previous = queues.get(sub) ?? Promise.resolve();
		queues.set(
			sub,
			previous.then(() => deliver(state, delivery, state.generation)),
		);
	}
	return record;
}

async function deliver(
	state: SandboxState,
	delivery: WebhookDelivery,
	generation: number,
): Promise<void> {
	const policy = state.webhookRetry;
	for (let attempt = 1; attempt <= policy.attempts; attempt++) {
		if (generation !== state.generation) return; // reset in between
		let status: number | null = null;
		let error: string | null = null;
		try {
			const response = await fetch(delivery.url, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'User-Agent': 'document-signing-sandbox-webhooks',
					[SIGNATURE_HEADER]: delivery.signature,
				},
				body: delivery.body,
				signal: AbortSignal.timeout(policy.timeoutMs),
			});
			status = response.status;
			await response.arrayBuffer().catch(() => undefined);
			if (status < 200 || status > 299) error = `HTTP ${status}`;
		} catch (e) {
			error = (e as Error).cause
				? String(((e as Error).cause as Error).message ?? (e as Error).cause)
				: (e as Error).message;
		}
		delivery.attempts.push({ at: new Date().toISOString(), status, error });
		if (!error) {
			delivery.delivered = true;
			break;
		}
		if (attempt < policy.attempts) {
			await new Promise((resolve) => setTimeout(resolve, policy.backoffMs * 2 ** (attempt - 1)));
		}
	}
	delivery.finished = true;
}
