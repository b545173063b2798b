import { type Harness, startHarness } from '../harness';
import { estampParams, makePdf, runOp, seedEnvelope, SIGNER } from '../envelope/helpers';

/**
 * Saved workflows of version 1 keep the defaults 1.1 changed (docs/saved-workflows.md):
 * the same parameters, as n8n stores them (defaults left out), run under both versions.
 */
let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

const paths = (requests: Array<{ method: string; path: string }>) =>
	requests.map((r) => `${r.method} ${r.path.replace(/env_[\w-]+/, '{id}')}`);

describe('node versions: what 1.1 changed, and what a saved version 1 keeps', () => {
	it('Download File: version 1 sends the one request it sent; 1.1 reads the status too and says whether the PDF is signed', async () => {
		const { id } = await seedEnvelope(h, {}, { upload: await makePdf() });
		const params = {
			operation: 'downloadFile',
			envelopeId: { __rl: true, mode: 'id', value: id },
			download: false,
		};
		const v1 = await runOp(h, params, undefined, { typeVersion: 1 });
		expect(v1.result.error).toBeUndefined();
		expect(paths(v1.requests)).toEqual(['GET /api/v1/envelopes/{id}/file']);
		expect(v1.items[0].json).not.toHaveProperty('signed');
		const v11 = await runOp(h, params, undefined, { typeVersion: 1.1 });
		expect(v11.result.error).toBeUndefined();
		expect(paths(v11.requests)).toEqual([
			'GET /api/v1/envelopes/{id}/status',
			'GET /api/v1/envelopes/{id}/file',
		]);
		expect(v11.items[0].json.signed).toBe(false);
	});

	it('E-stamp Article: a version 1 workflow that typed the exact value (the list left at its default) still sends it; 1.1 asks for a pick', async () => {
		const estamp = estampParams({ estampArticleValue: 'Affidavit' }) as Record<string, unknown>;
		delete estamp.estampArticle; // left at the default, so n8n did not store it
		const params = {
			operation: 'create',
			pdfSource: 'none',
			fileName: 'lease.pdf',
			title: 'Lease',
			recipients: { recipient: [SIGNER] },
			...estamp,
		};
		const v1 = await runOp(h, params, undefined, { typeVersion: 1 });
		expect(v1.result.error).toBeUndefined();
		const sent = v1.requests.find((r) => r.method === 'POST' && r.path.endsWith('/envelopes')) as
			| { body: { workflow: { estampConfig: { article: string } } } }
			| undefined;
		expect(sent?.body.workflow.estampConfig.article).toBe('Affidavit');
		// 1.1: n8n itself refuses the run, naming the required field, before any request.
		const before = (await h.requests()).length;
		await expect(runOp(h, params, undefined, { typeVersion: 1.1 })).rejects.toThrow(
			/Article Name or ID/,
		);
		expect((await h.requests()).length).toBe(before);
	});
});
