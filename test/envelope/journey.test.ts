/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Whole journeys as n8n workflows of several Document Signing nodes, against the sandbox:
 * create with upload -> send -> recipients sign through their links -> status -> signed PDF,
 * and the same with e-stamping, whose certificate must be page 1 of the downloaded PDF.
 */
import axios from 'axios';
import { inflateSync } from 'zlib';
import type { IDataObject, INode, NodeParameterValueType } from 'n8n-workflow';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFPage } from 'pdf-lib';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { adminPost } from '../sandbox-admin';
import { actionUrl } from '../sandbox/envelopes';
import {
	APPROVER,
	estampParams,
	makePdf,
	type Params,
	pdfItem,
	recipientFields,
	SIGNER,
	waitFor,
} from './helpers';

/** The text drawn on a page (pdf-lib writes it as hex strings in the content stream). */
function pageText(page: PDFPage): string {
	const contents = page.node.get(PDFName.of('Contents'));
	const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
	let text = '';
	for (const ref of refs) {
		const stream = page.doc.context.lookup(ref);
		if (!(stream instanceof PDFRawStream)) continue;
		const filter = stream.dict.get(PDFName.of('Filter'));
		const bytes =
			filter === PDFName.of('FlateDecode')
				? inflateSync(stream.contents)
				: Buffer.from(stream.contents);
		const raw = bytes.toString('latin1');
		for (const match of raw.matchAll(/<([0-9A-Fa-f\s]+)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
			text += match[1]
				? Buffer.from(match[1].replace(/\s/g, ''), 'hex').toString('latin1')
				: match[2];
			text += '\n';
		}
	}
	return text;
}

const node = (name: string, parameters: Params): INode =>
	actionNode({ resource: 'envelope', ...parameters } as Record<string, NodeParameterValueType>, {
		name,
	});

const fromPrevious = (expression: string) => ({ __rl: true, mode: 'id', value: expression });

describe('envelope journeys', () => {
	let h: Harness;
	let pdf: Buffer;

	beforeAll(async () => {
		h = await startHarness();
		pdf = await makePdf(2, 'Rental agreement');
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	/** Every signer and approver acts through their own link (as a browser form would POST). */
	async function signAll(envelopeId: string): Promise<void> {
		const envelope = h.sandbox.state.envelopes.get(envelopeId)!;
		const acting = [...envelope.recipients]
			.filter((r) => r.role !== 'cc')
			.sort((a, b) => a.order - b.order);
		for (const recipient of acting) {
			const response = await axios.post(actionUrl(h.sandbox.state, recipient), {});
			expect(response.status).toBe(200);
		}
	}

	async function statusAndDownload(envelopeId: string) {
		const result = await h.run({
			nodes: [
				seedNode(),
				node('Status', {
					operation: 'getStatus',
					envelopeId: fromPrevious('={{ $json.envelopeId }}'),
					output: 'raw',
				}),
				node('Download', {
					operation: 'downloadFile',
					envelopeId: fromPrevious('={{ $json.envelopeId }}'),
				}),
			],
			connections: chain('Seed', 'Status', 'Download'),
			input: [{ json: { envelopeId } }],
		});
		expect(result.error).toBeUndefined();
		return {
			status: result.items('Status')[0].json,
			download: result.items('Download')[0],
			bytes: await result.binary('Download', 0, 'data'),
		};
	}

	it('create with upload -> send -> sign via action links -> completed at 100% -> signed PDF', async () => {
		const sendRun = await h.run({
			nodes: [
				seedNode(),
				node('Create', {
					operation: 'create',
					title: 'Rental agreement',
					recipients: recipientFields([
						{ ...SIGNER, order: 1 },
						{ ...APPROVER, order: 2 },
					]),
					signingSettings: { mode: 'sequential', redirectUrl: 'https://example.com/thanks' },
				}),
				node('Send', { operation: 'send', envelopeId: fromPrevious('={{ $json.id }}') }),
			],
			connections: chain('Seed', 'Create', 'Send'),
			input: [pdfItem(pdf, {}, 'rental.pdf')],
		});
		expect(sendRun.error).toBeUndefined();
		const sent = sendRun.items('Send')[0].json;
		const envelopeId = sent.envelopeId as string;
		expect(sent).toMatchObject({ status: 'pending', estamp: { enabled: false } });

		// the links in the send output are the recipients' own
		const links = (sent.recipients as IDataObject[]).map((r) => r.actionUrl as string);
		for (const link of links) expect((await axios.post(link, {})).status).toBe(200);

		const { status, download, bytes } = await statusAndDownload(envelopeId);
		expect(status).toMatchObject({
			envelopeId,
			status: 'completed',
			completedCount: 2,
			percentage: 100,
		});
		expect(
			(status.recipients as IDataObject[]).every(
				(r) => r.status === 'signed' || r.status === 'approved',
			),
		).toBe(true);
		expect(download.json).toMatchObject({
			envelopeId,
			fileName: 'rental.pdf',
			envelopeStatus: 'completed',
			signed: true,
		});
		expect(download.binary?.data.mimeType).toBe('application/pdf');

		const signed = await PDFDocument.load(bytes);
		expect(signed.getPageCount()).toBe(2);
		expect(signed.getSubject()).toBe('signed-by:Asha Rao');
		expect(bytes.equals(pdf)).toBe(false);
	});

	it('e-stamped: send answers 202, the stamp completes, signing finishes, and the certificate is page 1', async () => {
		// the provider accepts at once and waits for a status check to finish
		await adminPost(h.sandbox, 'estamp', {
			acceptAfterMs: 0,
			completeAfterMs: null,
			checkAfterMs: 0,
		});

		const sendRun = await h.run({
			nodes: [
				seedNode(),
				node('Create', {
					operation: 'create',
					title: 'Stamped lease',
					recipients: recipientFields([SIGNER]),
					...estampParams({
						estampArticle:
							'Lease of Immovable Property - Not exceeding 1 year in case of Residential property',
						estampAmount: '500',
					}),
				}),
				node('Send', {
					operation: 'send',
					envelopeId: fromPrevious('={{ $json.id }}'),
					output: 'raw',
				}),
			],
			connections: chain('Seed', 'Create', 'Send'),
			input: [pdfItem(pdf)],
		});
		expect(sendRun.error).toBeUndefined();
		const sent = sendRun.items('Send')[0].json;
		const envelopeId = sent.envelopeId as string;
		expect(sent).toMatchObject({
			status: 'estamping',
			estamp: { enabled: true, status: 'queued' },
		});
		expect(sent.recipients).toBeUndefined();

		await waitFor(async () => {
			const s = await h.api<IDataObject>('GET', `/envelopes/${envelopeId}/status`);
			return (s.estamp as IDataObject)?.status === 'pending';
		});
		// ask for the provider check through the node; the sandbox completes the stamp on it
		const check = await h.run({
			nodes: [
				seedNode(),
				node('Check', {
					operation: 'checkEstamp',
					envelopeId: fromPrevious('={{ $json.envelopeId }}'),
				}),
			],
			connections: chain('Seed', 'Check'),
			input: [{ json: { envelopeId } }],
		});
		expect(check.items('Check')[0].json).toMatchObject({ queued: true });
		await waitFor(async () => {
			const s = await h.api<IDataObject>('GET', `/envelopes/${envelopeId}/status`);
			return s.status === 'pending' && (s.estamp as IDataObject).status === 'completed';
		});

		await signAll(envelopeId);
		const { status, bytes } = await statusAndDownload(envelopeId);
		expect(status).toMatchObject({
			status: 'completed',
			percentage: 100,
			estamp: { enabled: true, status: 'completed' },
		});
		const certificateId = (status.estamp as IDataObject).certificateId as string;
		expect(certificateId).toBeTruthy();

		const doc = await PDFDocument.load(bytes);
		expect(doc.getPageCount()).toBe(3); // certificate + the two pages
		const first = pageText(doc.getPage(0));
		expect(first).toContain('E-STAMP CERTIFICATE');
		expect(first).toContain(`Certificate No.: ${certificateId}`);
		expect(first).toContain('State: KA');
		expect(pageText(doc.getPage(1))).toContain('Rental agreement - page 1');
		expect(pageText(doc.getPage(2))).toContain('Rental agreement - page 2');
	});

	it('e-stamp provider failure shows in Get Status as estamp_failed with the error', async () => {
		await adminPost(h.sandbox, 'estamp', { acceptAfterMs: 0, completeAfterMs: 0 });
		const run = await h.run({
			nodes: [
				seedNode(),
				node('Create', {
					operation: 'create',
					recipients: recipientFields([SIGNER]),
					// the sandbox's documented trigger for a provider failure
					...estampParams({
						estampFirstPartyName: 'Provider Failure',
						estampFirstPartyEmail: 'pf@example.com',
						estampFirstPartyAddress: 'Somewhere',
					}),
				}),
				node('Send', { operation: 'send', envelopeId: fromPrevious('={{ $json.id }}') }),
			],
			connections: chain('Seed', 'Create', 'Send'),
			input: [pdfItem(pdf)],
		});
		const envelopeId = run.items('Send')[0].json.envelopeId as string;
		await waitFor(
			async () =>
				(await h.api<IDataObject>('GET', `/envelopes/${envelopeId}/status`)).status ===
				'estamp_failed',
		);

		const status = await h.run({
			nodes: [
				seedNode(),
				node('Status', {
					operation: 'getStatus',
					envelopeId: fromPrevious('={{ $json.envelopeId }}'),
				}),
			],
			connections: chain('Seed', 'Status'),
			input: [{ json: { envelopeId } }],
		});
		expect(status.items('Status')[0].json).toMatchObject({
			status: 'estamp_failed',
			estamp: { status: 'failed', lastError: expect.stringContaining('rejected') },
		});
	});
});
