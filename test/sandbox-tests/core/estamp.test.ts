/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import axios from 'axios';
import { PDFDocument } from 'pdf-lib';
import {
	admin,
	client,
	draftWithPdf,
	estampConfig,
	makePdf,
	pdfTextOf,
	signer,
	startReceiver,
	waitFor,
} from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
});
beforeEach(async () => {
	receiver.received.length = 0;
	await admin(sandbox).post('/webhooks', { url: receiver.url });
});

async function sendEstamp(firstParty?: string, pdf?: Buffer) {
	const api = client(sandbox);
	const created = await draftWithPdf(
		api,
		{
			recipients: [signer('Ann')],
			workflow: { estampEnabled: true, estampConfig: estampConfig(firstParty) },
		},
		pdf,
	);
	const sent = await api.post(`/envelopes/${created.id}/send`, {});
	return { api, id: created.id as string, sent };
}

const eventsFor = (id: string) =>
	receiver.received.map((r) => r.body).filter((e) => e.data.envelopeId === id);

describe('e-stamping', () => {
	test('send answers 202 queued; started, completed, sent follow; certificate is page 1', async () => {
		const original = await makePdf(2);
		const { api, id, sent } = await sendEstamp(undefined, original);
		expect(sent.status).toBe(202);
		expect(sent.data).toEqual({
			success: true,
			estamp: true,
			estampStatus: 'queued',
			message: expect.any(String),
			envelopeId: id,
			status: 'estamping',
		});
		const queued = (await api.get(`/envelopes/${id}/status`)).data;
		expect(queued.status).toBe('estamping');
		expect(queued.estamp).toEqual({
			enabled: true,
			status: 'queued',
			transactionId: expect.any(String),
			reference: expect.any(String),
			certificateId: null,
			initiatedAt: expect.any(String),
			pollAttempts: 0,
			lastError: null,
		});

		await waitFor(() => eventsFor(id).length >= 3);
		const events = eventsFor(id);
		expect(events.map((e) => e.event)).toEqual([
			'document.estamp.started',
			'document.estamp.completed',
			'document.sent',
		]);
		const [started, completed, docSent] = events;
		expect(started.data).toEqual({
			envelopeId: id,
			title: 'contract.pdf',
			status: 'pending',
			transactionId: queued.estamp.transactionId,
			reference: queued.estamp.reference,
			occurredAt: expect.any(String),
		});
		expect(completed.data).toEqual({
			envelopeId: id,
			title: 'contract.pdf',
			status: 'completed',
			transactionId: queued.estamp.transactionId,
			reference: queued.estamp.reference,
			certificateId: expect.stringMatching(/^IN-KA\d+$/),
			documentId: id,
			occurredAt: expect.any(String),
		});
		expect(docSent.data).toMatchObject({
			envelopeId: id,
			status: 'pending',
			recipients: [expect.objectContaining({ name: 'Ann', role: 'signer' })],
		});

		const status = (await api.get(`/envelopes/${id}/status`)).data;
		expect(status.status).toBe('pending');
		expect(status.estamp).toMatchObject({
			status: 'completed',
			certificateId: completed.data.certificateId,
			lastError: null,
		});

		const file = await api.get(`/envelopes/${id}/file`);
		const stamped = Buffer.from(
			(await axios.get(file.data.url, { responseType: 'arraybuffer' })).data,
		);
		const doc = await PDFDocument.load(stamped);
		expect(doc.getPageCount()).toBe(3);
		expect(doc.getSubject()).toBe(`estamp-certificate:${completed.data.certificateId}`);
		const firstPage = await PDFDocument.create();
		const [copied] = await firstPage.copyPages(doc, [0]);
		firstPage.addPage(copied);
		const pageOneText = pdfTextOf(Buffer.from(await firstPage.save({ useObjectStreams: false })));
		expect(pageOneText).toContain('E-STAMP CERTIFICATE');
		expect(pageOneText).toContain(completed.data.certificateId);

		// Signing proceeds on the stamped PDF.
		const token = sandbox.state.envelopes.get(id)!.recipients[0].token;
		await axios.post(`${sandbox.origin}/sign/${token}`);
		const signedFile = await api.get(`/envelopes/${id}/file`);
		const signed = await PDFDocument.load(
			(await axios.get(signedFile.data.url, { responseType: 'arraybuffer' })).data,
		);
		expect(signed.getPageCount()).toBe(3);
		expect(signed.getKeywords()).toContain(`estamp-certificate:${completed.data.certificateId}`);
	});

	test('fields and page-restricted placements move down one page', async () => {
		const { createEnvelopeRecord, sendEnvelope } = await import('../../sandbox/state');
		const pdf = await makePdf(1);
		const { envelope } = createEnvelopeRecord(sandbox.state, sandbox.state.personalWorkspace, {
			fileName: 't.pdf',
			file: pdf,
			recipients: [
				{
					id: 'r1',
					name: 'Ann',
					email: 'a@x.io',
					signaturePlacement: { type: 'text', searchText: 'Sign', pages: [1] },
				},
			],
			workflow: { estampEnabled: true, estampConfig: estampConfig() },
			fields: [
				{
					id: 'f1',
					fieldKey: 'k',
					type: 'text',
					pageNumber: 1,
					x: 1,
					y: 1,
					width: 10,
					height: 10,
					recipientId: 'r1',
				},
			],
		});
		expect(sendEnvelope(sandbox.state, envelope)).toMatchObject({ ok: true, status: 202 });
		await waitFor(() => envelope.status === 'pending');
		expect(
			(await client(sandbox).get(`/envelopes/${envelope.id}/fields`)).data.items[0].pageNumber,
		).toBe(2);
		expect(envelope.recipients[0].signaturePlacement!.pages).toEqual([2]);
	});

	test('provider failure: started then failed; envelope estamp_failed', async () => {
		const { api, id, sent } = await sendEstamp('Provider Failure');
		expect(sent.status).toBe(202);
		await waitFor(() => eventsFor(id).length >= 2);
		await new Promise((r) => setTimeout(r, 100));
		const events = eventsFor(id);
		expect(events.map((e) => e.event)).toEqual([
			'document.estamp.started',
			'document.estamp.failed',
		]);
		expect(events[1].data).toEqual({
			envelopeId: id,
			title: 'contract.pdf',
			status: 'failed',
			transactionId: expect.any(String),
			reference: expect.any(String),
			error: expect.any(String),
			occurredAt: expect.any(String),
		});
		const status = (await api.get(`/envelopes/${id}/status`)).data;
		expect(status.status).toBe('estamp_failed');
		expect(status.estamp).toMatchObject({
			status: 'failed',
			certificateId: null,
			lastError: events[1].data.error,
		});
		expect((await api.post(`/envelopes/${id}/send`)).data.code).toBe('INVALID_STATUS');
	});

	test('completeAfterMs null: stays pending until a manual check; pollAttempts counts checks', async () => {
		await admin(sandbox).post('/estamp', { acceptAfterMs: 0, completeAfterMs: null });
		const { api, id } = await sendEstamp();
		await waitFor(() => eventsFor(id).length >= 1);
		await new Promise((r) => setTimeout(r, 80));
		let status = (await api.get(`/envelopes/${id}/status`)).data;
		expect(status.status).toBe('estamping');
		expect(status.estamp).toMatchObject({ status: 'pending', pollAttempts: 0 });

		const check = await api.post(`/envelopes/${id}/estamp/check`);
		expect(check.status).toBe(200);
		expect(check.data).toEqual({
			envelopeId: id,
			queued: true,
			estampStatus: 'pending',
			message: expect.any(String),
		});
		await waitFor(async () => (await api.get(`/envelopes/${id}/status`)).data.status === 'pending');
		status = (await api.get(`/envelopes/${id}/status`)).data;
		expect(status.estamp).toMatchObject({ status: 'completed', pollAttempts: 1 });
		await waitFor(() => eventsFor(id).length >= 3);
		expect(eventsFor(id).map((e) => e.event)).toEqual([
			'document.estamp.started',
			'document.estamp.completed',
			'document.sent',
		]);

		const again = await api.post(`/envelopes/${id}/estamp/check`);
		expect(again.data).toMatchObject({ queued: false, estampStatus: 'completed' });
	});

	test('the hourly check runs when the sandbox clock passes the hour', async () => {
		await admin(sandbox).post('/estamp', { acceptAfterMs: 0, completeAfterMs: null });
		const { api, id } = await sendEstamp();
		await waitFor(() => eventsFor(id).length >= 1);
		await admin(sandbox).post('/clock', { advanceSeconds: 1800 });
		await new Promise((r) => setTimeout(r, 50));
		expect((await api.get(`/envelopes/${id}/status`)).data.estamp.pollAttempts).toBe(0);
		await admin(sandbox).post('/clock', { advanceSeconds: 1801 });
		await waitFor(async () => (await api.get(`/envelopes/${id}/status`)).data.status === 'pending');
		expect((await api.get(`/envelopes/${id}/status`)).data.estamp).toMatchObject({
			status: 'completed',
			pollAttempts: 1,
		});
	});

	test('check on an envelope without e-stamping; NOT_FOUND', async () => {
		const api = client(sandbox);
		const { id } = (await api.post('/envelopes', { fileName: 'a.pdf' })).data;
		expect((await api.post(`/envelopes/${id}/estamp/check`)).data).toEqual({
			envelopeId: id,
			queued: false,
			estampStatus: null,
			message: expect.any(String),
		});
		expect((await api.post('/envelopes/env_x/estamp/check')).status).toBe(404);
	});

	test('estampEnabled without estampConfig is refused at creation', async () => {
		const res = await client(sandbox).post('/envelopes', {
			fileName: 'a.pdf',
			workflow: { estampEnabled: true },
		});
		expect(res.status).toBe(400);
		expect(res.data.message).toMatch(/^workflow\.estampConfig: /);
	});
});
