/**
 * Webhook deliveries as the service makes them, for the suites that deliver to n8n
 * themselves: an event body with a fresh id, and its signature (HMAC-SHA256 of the exact
 * body with the webhook secret, hex, in the X-Service-Signature header).
 */
import { createHmac, randomBytes } from 'crypto';

let delivered = 0;

/** An event about one pending envelope; the id (`evt_<label>_<n>_<random>`) is new each call. */
export function webhookEvent(label: string, kind = 'document.sent'): { id: string; body: string } {
	const n = ++delivered;
	const id = `evt_${label}_${n}_${randomBytes(4).toString('hex')}`;
	const now = new Date().toISOString();
	const body = JSON.stringify({
		id,
		event: kind,
		createdAt: now,
		data: {
			envelopeId: `env_${label}_${n}`,
			title: `Delivery check (${label})`,
			status: 'pending',
			recipients: [],
			occurredAt: now,
		},
	});
	return { id, body };
}

/** The X-Service-Signature of `body` with `secret`. */
export function signature(body: string, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}
