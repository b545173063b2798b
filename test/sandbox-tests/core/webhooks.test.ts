/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { createHmac } from 'crypto';
import { admin, client, draftWithPdf, signer, startReceiver, waitFor } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

async function plainSend() {
	const api = client(sandbox);
	const created = await draftWithPdf(api, { title: 'Lease', recipients: [signer('Ann')] });
	expect((await api.post(`/envelopes/${created.id}/send`)).status).toBe(200);
	return created.id as string;
}

describe('webhooks', () => {
	test('a plain send emits document.sent, signed with hex HMAC-SHA256 of the raw body', async () => {
		const receiver = await startReceiver();
		try {
			const sub = await admin(sandbox).post('/webhooks', {
				url: receiver.url,
				events: ['document.sent'],
			});
			expect(sub.status).toBe(201);
			const id = await plainSend();
			await waitFor(() => receiver.received.length === 1);
			const [delivery] = receiver.received;
			const expected = createHmac('sha256', sandbox.webhookSecret)
				.update(delivery.raw)
				.digest('hex');
			expect(delivery.headers['x-service-signature']).toBe(expected);
			expect(delivery.headers['content-type']).toMatch(/application\/json/);
			expect(delivery.body).toEqual({
				id: expect.any(String),
				event: 'document.sent',
				createdAt: expect.any(String),
				data: {
					envelopeId: id,
					title: 'Lease',
					status: 'pending',
					recipients: [
						{
							id: expect.any(String),
							name: 'Ann',
							email: 'ann@example.com',
							role: 'signer',
							order: 1,
							status: 'pending',
						},
					],
					occurredAt: expect.any(String),
				},
			});
			// A different secret gives a different signature: the check can fail.
			expect(createHmac('sha256', 'other').update(delivery.raw).digest('hex')).not.toBe(expected);
		} finally {
			await receiver.close();
		}
	});

	test('subscriptions filter by event kind', async () => {
		const receiver = await startReceiver();
		try {
			await admin(sandbox).post('/webhooks', {
				url: receiver.url,
				events: ['document.estamp.failed'],
			});
			await plainSend();
			await new Promise((r) => setTimeout(r, 100));
			expect(receiver.hits).toBe(0);
			expect((await admin(sandbox).get('/events')).data.items.map((e: any) => e.event)).toEqual([
				'document.sent',
			]);
		} finally {
			await receiver.close();
		}
	});

	test('a failing receiver is retried with backoff until it answers 2xx; the log shows every attempt', async () => {
		const receiver = await startReceiver({ failFirst: 2 });
		try {
			await admin(sandbox).post('/webhooks', {
				url: receiver.url,
				retry: { attempts: 4, backoffMs: 20 },
			});
			await plainSend();
			await waitFor(() => receiver.received.length === 1);
			expect(receiver.hits).toBe(3);
			const deliveries = (await admin(sandbox).get('/webhooks/deliveries')).data.items;
			expect(deliveries).toHaveLength(1);
			expect(deliveries[0]).toMatchObject({
				event: 'document.sent',
				url: receiver.url,
				delivered: true,
				finished: true,
			});
			expect(deliveries[0].attempts.map((a: any) => a.status)).toEqual([500, 500, 200]);
			// Every retry carries the same body and signature.
			expect(receiver.received[0].raw.toString('utf8')).toBe(deliveries[0].body);
		} finally {
			await receiver.close();
		}
	});

	test('connection errors are retried and end as undelivered after the last attempt', async () => {
		const receiver = await startReceiver();
		const url = receiver.url;
		await receiver.close(); // nothing listens any more
		await admin(sandbox).post('/webhooks', { url, retry: { attempts: 3, backoffMs: 10 } });
		await plainSend();
		const [delivery] = await waitFor(async () => {
			const items = (await admin(sandbox).get('/webhooks/deliveries')).data.items;
			return items.length && items[0].finished ? items : undefined;
		});
		expect(delivery.delivered).toBe(false);
		expect(delivery.attempts).toHaveLength(3);
		expect(
			delivery.attempts.every((a: any) => a.status === null && typeof a.error === 'string'),
		).toBe(true);
	});

	test('invalid subscription body -> VALIDATION_ERROR', async () => {
		const res = await admin(sandbox).post('/webhooks', { url: 'not a url' });
		expect(res.status).toBe(400);
		expect(res.data.code).toBe('VALIDATION_ERROR');
	});
});
