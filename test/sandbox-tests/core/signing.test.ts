/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import axios from 'axios';
import { PDFDocument } from 'pdf-lib';
import { client, draftWithPdf, makePdf, pdfTextOf, signer } from './helpers';
import { useSandbox } from '../../sandbox-fixture';

const sandbox = useSandbox();

const act = (url: string) => axios.post(url, {}, { validateStatus: () => true });

async function sendWith(body: Record<string, unknown>, pdf?: Buffer) {
	const api = client(sandbox);
	const created = await draftWithPdf(api, body, pdf);
	const sent = await api.post(`/envelopes/${created.id}/send`);
	expect(sent.status).toBe(200);
	const byName = Object.fromEntries(sent.data.recipients.map((r: any) => [r.name, r]));
	return { api, id: created.id as string, byName };
}

describe('signing', () => {
	test('GET on the action address shows an HTML page naming the recipient', async () => {
		const { byName } = await sendWith({ recipients: [signer('Ann Lee')] });
		const page = await axios.get(byName['Ann Lee'].actionUrl);
		expect(page.headers['content-type']).toMatch(/text\/html/);
		expect(page.data).toContain('Ann Lee');
		expect(page.data).toContain('<form method="post">');
		expect(
			(await axios.get(`${sandbox.origin}/sign/unknown`, { validateStatus: () => true })).status,
		).toBe(404);
	});

	test('sequential mode: out of turn is refused with 409; in order completes the envelope', async () => {
		const { api, id, byName } = await sendWith({
			recipients: [
				signer('Ann'),
				{ name: 'Boss', email: 'boss@x.io', role: 'approver' },
				signer('Cy'),
				{ name: 'Copy', email: 'copy@x.io', role: 'cc' },
			],
		});
		const early = await act(byName.Cy.actionUrl);
		expect(early.status).toBe(409);
		expect(early.data.code).toBe('INVALID_STATUS');
		expect(early.data.message).toMatch(/turn/i);
		expect(early.data.message).toContain('Ann');

		const cc = await act(byName.Copy.actionUrl);
		expect(cc.status).toBe(409);
		expect(cc.data.message).toMatch(/cc/);

		const ann = await act(byName.Ann.actionUrl);
		expect(ann.status).toBe(200);
		expect(ann.data).toMatchObject({ envelopeId: id, status: 'signed', envelopeStatus: 'pending' });
		expect((await act(byName.Ann.actionUrl)).status).toBe(409); // already signed

		let status = (await api.get(`/envelopes/${id}/status`)).data;
		expect(status).toMatchObject({
			status: 'pending',
			totalRecipients: 4,
			completedCount: 1,
			percentage: 33.33,
		});
		expect(status.recipients[0]).toMatchObject({
			name: 'Ann',
			status: 'signed',
			signedAt: expect.any(String),
		});
		expect(status.recipients[1].signedAt).toBeUndefined();

		expect((await act(byName.Cy.actionUrl)).status).toBe(409); // the approver is next
		expect((await act(byName.Boss.actionUrl)).data.status).toBe('approved');
		const last = await act(byName.Cy.actionUrl);
		expect(last.data.envelopeStatus).toBe('completed');

		status = (await api.get(`/envelopes/${id}/status`)).data;
		expect(status).toMatchObject({ status: 'completed', completedCount: 3, percentage: 100 });
		expect(status.recipients.map((r: any) => r.status)).toEqual([
			'signed',
			'approved',
			'signed',
			'pending',
		]);
		const listed = (await api.get('/envelopes')).data.items[0];
		expect(listed).toMatchObject({ status: 'completed', totalRecipients: 4, completedActions: 3 });
	});

	test('parallel mode: any order', async () => {
		const { api, id, byName } = await sendWith({
			recipients: [signer('Ann'), signer('Bob')],
			workflow: { mode: 'parallel' },
		});
		expect((await act(byName.Bob.actionUrl)).status).toBe(200);
		expect((await act(byName.Ann.actionUrl)).data.envelopeStatus).toBe('completed');
		expect((await api.get(`/envelopes/${id}/status`)).data.percentage).toBe(100);
	});

	test('a draft cannot be signed yet', async () => {
		const api = client(sandbox);
		const created = await draftWithPdf(api, { recipients: [signer('Ann')] });
		const token = sandbox.state.envelopes.get(created.id)!.recipients[0].token;
		const res = await act(`${sandbox.origin}/sign/${token}`);
		expect(res.status).toBe(409);
		expect(res.data.message).toMatch(/draft/);
	});

	test('the completed envelope file is the signed PDF', async () => {
		const original = await makePdf(3);
		const { api, id, byName } = await sendWith(
			{ recipients: [signer('Ann Lee'), signer('Bob Roy')] },
			original,
		);
		await act(byName['Ann Lee'].actionUrl);
		const before = await api.get(`/envelopes/${id}/file`);
		const unsigned = await axios.get(before.data.url, { responseType: 'arraybuffer' });
		expect(Buffer.from(unsigned.data).equals(original)).toBe(true);

		await act(byName['Bob Roy'].actionUrl);
		const file = await api.get(`/envelopes/${id}/file`);
		expect(file.data.fileName).toBe('contract.pdf');
		const signed = Buffer.from(
			(await axios.get(file.data.url, { responseType: 'arraybuffer' })).data,
		);
		expect(signed.equals(original)).toBe(false);
		const doc = await PDFDocument.load(signed);
		expect(doc.getPageCount()).toBe(3);
		expect(doc.getSubject()).toBe('signed-by:Ann Lee, Bob Roy');
		expect(doc.getKeywords()).toContain('signed-by:Ann Lee');
		expect(doc.getKeywords()).toContain(`envelope:${id}`);
		const text = pdfTextOf(signed);
		expect(text).toMatch(/Signed by Ann Lee at \d{4}-/);
		expect(text).toContain('Signed by Bob Roy');
		expect(pdfTextOf(original)).not.toContain('Signed by');
	});

	test('redirectUrl gets envelopeId, signerEmail, role, status and event appended', async () => {
		const { id, byName } = await sendWith({
			recipients: [signer('Ann')],
			workflow: { redirectUrl: 'https://example.com/done?x=1' },
		});
		const res = await act(byName.Ann.actionUrl);
		const url = new URL(res.data.redirectUrl);
		expect(url.origin + url.pathname).toBe('https://example.com/done');
		expect(Object.fromEntries(url.searchParams)).toEqual({
			x: '1',
			envelopeId: id,
			signerEmail: 'ann@example.com',
			role: 'signer',
			status: 'signed',
			event: 'signed',
		});
	});
});
