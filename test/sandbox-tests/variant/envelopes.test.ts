/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * V4 statuses, V5 event kinds, V8 signature encoding, V9 append or replace, V11 the
 * send-document answer, V13 list order, V14 articles of states without a catalog: both modes.
 */
import { createHmac } from 'crypto';
import { useSandbox } from '../../sandbox-fixture';
import {
	act,
	admin,
	client,
	documentBody,
	draftWithPdf,
	estampConfig,
	MODES,
	signer,
	startReceiver,
	templateWithPdf,
	waitFor,
} from './helpers';

describe.each(MODES)('%s mode', (_mode, variant) => {
	const sandbox = useSandbox({ variant });
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	beforeAll(async () => {
		receiver = await startReceiver();
	});
	afterAll(() => receiver.close());
	beforeEach(async () => {
		receiver.received.length = 0;
		await admin(sandbox).post('/webhooks', { url: receiver.url });
	});
	const kindsFor = (id: string) =>
		receiver.received.filter((r) => r.body.data.envelopeId === id).map((r) => r.body.event);

	test('V4: statuses of the list filter, the failed e-stamp, and the admin status route', async () => {
		const api = client(sandbox);
		for (const status of ['draft', 'pending', 'estamping', 'completed']) {
			expect((await api.get('/envelopes', { params: { status } })).status).toBe(200);
		}
		for (const status of ['declined', 'expired', 'voided', 'estamp_error']) {
			expect((await api.get('/envelopes', { params: { status } })).status).toBe(
				variant ? 200 : 400,
			);
		}
		expect((await api.get('/envelopes', { params: { status: 'estamp_failed' } })).status).toBe(
			variant ? 400 : 200,
		);

		const failing = await draftWithPdf(api, {
			recipients: [signer('Ann')],
			workflow: { estampEnabled: true, estampConfig: estampConfig('Provider Failure') },
		});
		expect((await api.post(`/envelopes/${failing.id}/send`, {})).status).toBe(202);
		const failedStatus = variant ? 'estamp_error' : 'estamp_failed';
		await waitFor(
			async () => (await api.get(`/envelopes/${failing.id}/status`)).data.status === failedStatus,
		);
		expect((await api.get(`/envelopes/${failing.id}/status`)).data.estamp.status).toBe('failed');
		expect(
			(await api.get('/envelopes', { params: { status: failedStatus } })).data.items.map(
				(e: any) => e.id,
			),
		).toEqual([failing.id]);

		const other = (await api.post('/envelopes', { fileName: 'b.pdf' })).data;
		const set = await admin(sandbox).post(`/envelopes/${other.id}/status`, { status: 'voided' });
		expect(set.status).toBe(200);
		expect(set.data).toMatchObject({ envelopeId: other.id, status: 'voided' });
		expect((await api.get(`/envelopes/${other.id}/status`)).data.status).toBe('voided');
		const voided = await api.get('/envelopes', { params: { status: 'voided' } });
		if (variant) expect(voided.data.items.map((e: any) => e.id)).toEqual([other.id]);
		expect(
			(await admin(sandbox).post('/envelopes/env_missing/status', { status: 'voided' })).status,
		).toBe(404);
	});

	test('V5: events of signing and completion; the admin route emits any kind', async () => {
		const api = client(sandbox);
		const draft = await draftWithPdf(api, { recipients: [signer('Ann'), signer('Bob')] });
		const sent = await api.post(`/envelopes/${draft.id}/send`, {});
		for (const r of sent.data.recipients) await act(r.actionUrl);
		const expected = variant
			? [
					'document.sent',
					'document.recipient.signed',
					'document.recipient.signed',
					'document.completed',
				]
			: ['document.sent'];
		await waitFor(() => kindsFor(draft.id).length >= expected.length);
		await new Promise((resolve) => setTimeout(resolve, 100)); // nothing more arrives
		expect(kindsFor(draft.id)).toEqual(expected);
		if (variant) {
			const signed = receiver.received.find(
				(r) => r.body.event === 'document.recipient.signed',
			)!.body;
			expect(signed.data).toMatchObject({ envelopeId: draft.id, status: 'signed', name: 'Ann' });
		}

		const emitted = await admin(sandbox).post(`/envelopes/${draft.id}/events`, {
			event: 'document.viewed',
			data: { by: 'Ann' },
		});
		expect(emitted.status).toBe(201);
		expect(emitted.data).toMatchObject({
			event: 'document.viewed',
			data: { envelopeId: draft.id, by: 'Ann' },
		});
		await waitFor(() => kindsFor(draft.id).includes('document.viewed'));
		const subscribedOnly = await startReceiver();
		try {
			await admin(sandbox).post('/webhooks', {
				url: subscribedOnly.url,
				events: ['document.completed'],
			});
			await admin(sandbox).post(`/envelopes/${draft.id}/events`, { event: 'document.viewed' });
			await admin(sandbox).post(`/envelopes/${draft.id}/events`, { event: 'document.completed' });
			await waitFor(() => subscribedOnly.received.length >= 1);
			expect(subscribedOnly.received.map((r) => r.body.event)).toEqual(['document.completed']);
		} finally {
			await subscribedOnly.close();
		}
		expect((await admin(sandbox).post(`/envelopes/${draft.id}/events`, {})).status).toBe(400);
	});

	test('V8: the signature encoding of X-Service-Signature', async () => {
		const api = client(sandbox);
		const draft = await draftWithPdf(api, { recipients: [signer('Ann')] });
		await api.post(`/envelopes/${draft.id}/send`, {});
		await waitFor(() => receiver.received.length >= 1);
		const { raw, headers } = receiver.received[0];
		const hmac = createHmac('sha256', sandbox.webhookSecret).update(raw);
		expect(headers['x-service-signature']).toBe(hmac.digest(variant ? 'base64' : 'hex'));
	});

	test('V9: append or replace recipients', async () => {
		const api = client(sandbox);
		const draft = (
			await api.post('/envelopes', {
				fileName: 'a.pdf',
				recipients: [signer('Ann'), signer('Bob')],
			})
		).data;
		const byFlag = await api.post(`/envelopes/${draft.id}/recipients`, {
			recipients: [signer('Cy')],
			replace: true,
		});
		expect(byFlag.status).toBe(200);
		expect(byFlag.data.recipients.map((r: any) => r.name)).toEqual(
			variant ? ['Ann', 'Bob', 'Cy'] : ['Cy'],
		);
		const byMode = await api.post(`/envelopes/${draft.id}/recipients`, {
			recipients: [signer('Dee')],
			mode: 'replace',
		});
		expect(byMode.data.recipients.map((r: any) => r.name)).toEqual(
			variant ? ['Dee'] : ['Cy', 'Dee'],
		);
		const plain = await api.post(`/envelopes/${draft.id}/recipients`, {
			recipients: [signer('Eve')],
		});
		expect(plain.data.recipients.map((r: any) => r.name)).toEqual(
			variant ? ['Dee', 'Eve'] : ['Cy', 'Dee', 'Eve'],
		);

		// The spec's count rule in both modes: a replacement counts only the new list.
		const fifteen = Array.from({ length: 15 }, (_, i) => signer(`Signer ${i}`));
		const replacing = variant ? { mode: 'replace' } : { replace: true };
		expect(
			(await api.post(`/envelopes/${draft.id}/recipients`, { recipients: fifteen, ...replacing }))
				.status,
		).toBe(200);
		expect(
			(await api.post(`/envelopes/${draft.id}/recipients`, { recipients: [signer('One more')] }))
				.status,
		).toBe(400);
	});

	test('V11: the answer of POST /documents/{id}/send', async () => {
		const api = client(sandbox);
		const template = await templateWithPdf(api);
		const doc = await api.post(`/templates/${template.id}/documents`, documentBody());
		expect(doc.status).toBe(201);
		const sent = await api.post(`/documents/${doc.data.envelopeId}/send`, {});
		expect(sent.status).toBe(200);
		if (variant) {
			expect(Object.keys(sent.data).sort()).toEqual([
				'envelopeId',
				'recipients',
				'sentAt',
				'status',
			]);
			expect(sent.data).toMatchObject({
				envelopeId: doc.data.envelopeId,
				status: 'pending',
				sentAt: expect.any(String),
			});
			expect(Object.keys(sent.data.recipients[0]).sort()).toEqual([
				'actionUrl',
				'email',
				'id',
				'name',
				'role',
				'status',
			]);
		} else {
			expect(Object.keys(sent.data).sort()).toEqual([
				'envelopeId',
				'message',
				'recipients',
				'status',
				'workflow',
			]);
		}
		// Envelope send is shown by the spec: the same in both modes.
		const draft = await draftWithPdf(api, { recipients: [signer('Ann')] });
		expect(Object.keys((await api.post(`/envelopes/${draft.id}/send`, {})).data).sort()).toEqual([
			'envelopeId',
			'message',
			'recipients',
			'status',
			'workflow',
		]);
	});

	test('V13: envelope list order', async () => {
		const api = client(sandbox);
		const ids: string[] = [];
		for (const name of ['a', 'b', 'c']) {
			ids.push((await api.post('/envelopes', { fileName: `${name}.pdf` })).data.id);
			await admin(sandbox).post('/clock', { advanceSeconds: 1 });
		}
		await api.post(`/envelopes/${ids[0]}/recipients`, { recipients: [signer('Ann')] }); // a changes last
		const listed = (await api.get('/envelopes')).data.items.map((e: any) => e.id);
		expect(listed).toEqual(variant ? ids : [ids[0], ids[2], ids[1]]);
	});

	test('V14: article of a state without a catalog; KA stays exact', async () => {
		const api = client(sandbox);
		const create = (state: string, article: string) =>
			api.post('/envelopes', {
				fileName: 'a.pdf',
				workflow: { estampEnabled: true, estampConfig: { ...estampConfig(), state, article } },
			});
		expect((await create('MH', 'Affidavit')).status).toBe(201);
		for (const article of ['Article 5(b) - Affidavit', 'Affidavit - Art 30']) {
			const answer = await create('MH', article);
			expect(answer.status).toBe(variant ? 201 : 400);
			if (!variant)
				expect(
					answer.data.details.validation.fieldErrors['workflow.estampConfig.article'],
				).toBeDefined();
		}
		expect((await create('MH', ' ')).status).toBe(400);
		expect((await create('KA', 'Affidavit')).status).toBe(201);
		expect((await create('KA', 'affidavit')).status).toBe(400);
		expect((await create('KA', 'Article 4 - Affidavit')).status).toBe(400);
	});
});
