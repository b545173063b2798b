/**
 * What a poll costs in requests (Recipient Acted at 1,000 open envelopes), a refused page
 * size remembered between polls (both modes, the variant sandbox's largest page is 50), and
 * Download Signed PDF saying why a non-completed envelope has no file.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { startPollRunner } from '../harness/poll';
import { makePdf } from '../envelope/helpers';
import { act, draft, listRequests, sent, SIGNERS } from './helpers';

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

async function poller(parameters: INodeParameters = {}) {
	return await startPollRunner({
		credentials: {
			baseUrl: h.sandbox.baseUrl,
			apiKey: h.sandbox.apiKey,
			webhookSecret: h.sandbox.webhookSecret,
		},
		parameters,
	});
}

async function setVariant(on: boolean): Promise<void> {
	await fetch(`${h.sandbox.origin}/__sandbox/variant`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ on }),
	});
}

/** The API requests since `from`, as "METHOD path" with the envelope id generalised. */
async function requestsSince(from: number): Promise<string[]> {
	return (await h.requests())
		.slice(from)
		.map((r) => `${r.method} ${r.path.replace(/env_[\w-]+/, '{id}')}`);
}

describe('Status Trigger: what a poll costs', () => {
	it('Recipient Acted at 1,000 open envelopes: list pages plus one status read per changed envelope', async () => {
		const OPEN = 1000;
		const CHANGING = 5;
		const changing = [];
		for (let i = 0; i < CHANGING; i++) changing.push(await sent(h, `Changing ${i + 1}`));
		// seeded 50 at a time with one file: neither their order nor their PDF matters here
		const pdf = await makePdf(1);
		for (let i = changing.length; i < OPEN; i += 50) {
			const batch = Array.from({ length: Math.min(50, OPEN - i) }, (_, k) => i + k + 1);
			await Promise.all(batch.map(async (n) => await draft(h, `Open ${n}`, SIGNERS, pdf)));
		}
		const p = await poller({ event: 'recipientActed' });

		let from = (await h.requests()).length;
		expect(await p.poll()).toBeNull();
		const baseline = await requestsSince(from);

		from = (await h.requests()).length;
		expect(await p.poll()).toBeNull();
		const quiet = await requestsSince(from);

		for (const envelope of changing) await act(envelope.actionUrls[0]);
		from = (await h.requests()).length;
		const result = await p.poll();
		const busy = await requestsSince(from);

		const pages = Math.ceil(OPEN / 100);
		expect(result!.items).toHaveLength(CHANGING);
		expect(busy.filter((r) => r === 'GET /api/v1/envelopes')).toHaveLength(pages);
		expect(busy.filter((r) => r === 'GET /api/v1/envelopes/{id}/status')).toHaveLength(CHANGING);
		expect(busy).toHaveLength(pages + CHANGING);
		expect(quiet).toHaveLength(pages);
		// Nobody had acted before the first poll: it reads no envelope in detail.
		expect(baseline).toHaveLength(pages);
		const memory = JSON.stringify(p.liveStaticData()).length;
		// The figures docs/operations.md gives.
		// eslint-disable-next-line no-console -- the figure docs/operations.md gives
		console.log(
			`poll cost at ${OPEN} open envelopes: baseline ${baseline.length}, quiet ${quiet.length}, ${CHANGING} changed ${busy.length} requests; memory ${memory} bytes`,
		);
	}, 120_000);
});

describe('Status Trigger: a refused page size is remembered between polls', () => {
	afterEach(async () => await setVariant(false));

	it.each([
		['Envelope Reached a Status', { statuses: ['pending'] }],
		['Recipient Acted', { event: 'recipientActed' }],
	])(
		'%s: the first poll asks 100, is refused and asks 50; later polls ask 50 only',
		async (_mode, parameters) => {
			await setVariant(true);
			await sent(h, 'Open');
			const p = await poller(parameters as INodeParameters);
			let from = (await h.requests()).length;
			await p.poll();
			const first = (await h.requests())
				.slice(from)
				.filter((r) => r.path.endsWith('/envelopes'))
				.map((r) => [r.query.limit, r.status]);
			expect(first).toEqual([
				['100', 400],
				['50', 200],
			]);
			from = (await h.requests()).length;
			await p.poll();
			p.restart();
			await p.poll();
			const later = (await listRequests(h, from)).map((q) => (q as IDataObject).limit);
			expect(later).toEqual(['50', '50']);
		},
	);
});

describe('Status Trigger: Download Signed PDF on a status without a signed PDF', () => {
	it('says why no file came', async () => {
		const p = await poller({ statuses: ['pending'], downloadSignedPdf: true });
		await p.poll();
		const envelope = await sent(h, 'Not signed yet');
		const result = await p.poll();
		expect(result!.items[0].binary).toBeUndefined();
		expect(result!.items[0].json).toMatchObject({
			envelopeId: envelope.id,
			signedPdf: null,
			signedPdfSkipped:
				'The envelope is pending: only a completed envelope has a signed PDF, so no file is attached',
		});
	});
});
