/**
 * The node's editor methods run in n8n-core's real LoadOptionsContext (what the editor's
 * backend uses), with the credential applied by the credential type's own block.
 */
import type { INodeParameters } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import * as envelope from '../../nodes/DocumentSigning/actions/envelope/Envelope.resource';
import { ARTICLE_EXACT_VALUE } from '../../nodes/DocumentSigning/actions/shared/estamp';
import { ESTAMP_STATE_CODES, getArticles } from '../../nodes/shared/api/estamp';
import { type Harness, startHarness } from '../harness';
import { loadOptionsContext } from '../harness/load-options';
import { makePdf, seedEnvelope } from './helpers';

/** The id as the envelope list shows it. */
const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 12)}…` : id);

describe('envelope editor methods', () => {
	let h: Harness;
	const methods = new DocumentSigning().methods;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const context = (parameters: INodeParameters, apiKey?: string) =>
		loadOptionsContext(h, parameters, apiKey);

	describe('searchEnvelopes (envelope picker)', () => {
		it("finds envelopes by title with the service's search, and lists all without a filter", async () => {
			const lease = await seedEnvelope(h, { title: 'Lease for flat 4B' });
			await seedEnvelope(h, { title: 'Invoice 7' });
			const params = { resource: 'envelope', operation: 'getStatus' };

			const found = await methods.listSearch.searchEnvelopes.call(context(params), 'lease');
			expect(found.results).toEqual([
				{ name: `Lease for flat 4B (${shortId(lease.id as string)})`, value: lease.id },
			]);
			const log = await h.requests();
			expect(log[log.length - 1]).toMatchObject({
				method: 'GET',
				path: '/api/v1/envelopes',
				query: { search: 'lease' },
			});

			const all = await methods.listSearch.searchEnvelopes.call(context(params));
			expect(all.results.map((r) => r.name.replace(/ \(.*\)$/, '')).sort()).toEqual([
				'Invoice 7',
				'Lease for flat 4B',
			]);
			expect(all.paginationToken).toBeUndefined();
		});

		it('pages with the pagination token', async () => {
			for (let n = 0; n < 55; n++)
				await h.api('POST', '/envelopes', { fileName: 'f.pdf', title: `Doc ${n}` });
			const params = { resource: 'envelope', operation: 'getStatus' };
			const first = await methods.listSearch.searchEnvelopes.call(context(params));
			expect(first.results).toHaveLength(50);
			expect(first.paginationToken).toBe('2');
			const second = await methods.listSearch.searchEnvelopes.call(
				context(params),
				undefined,
				first.paginationToken,
			);
			expect(second.results).toHaveLength(5);
			expect(second.paginationToken).toBeUndefined();
		});

		it("shows only the key's workspace", async () => {
			await seedEnvelope(h, { title: 'Org contract' }, { apiKey: h.sandbox.orgApiKey });
			await seedEnvelope(h, { title: 'Personal contract' });
			const params = { resource: 'envelope', operation: 'getStatus' };
			const org = await methods.listSearch.searchEnvelopes.call(
				context(params, h.sandbox.orgApiKey),
				'contract',
			);
			expect(org.results.map((r) => r.name.replace(/ \(.*\)$/, ''))).toEqual(['Org contract']);
		});

		it('names an entry by title and a short id, without the status (the name is saved with the workflow)', async () => {
			const untitled = await seedEnvelope(h, { title: '' });
			const params = { resource: 'envelope', operation: 'getStatus' };
			const { results } = await methods.listSearch.searchEnvelopes.call(context(params));
			const id = untitled.id as string;
			expect(id.length).toBeGreaterThan(12);
			expect(results).toEqual([{ name: `(untitled) (${id.slice(0, 12)}…)`, value: id }]);
			expect(results[0].name).not.toContain('draft');
		});

		it('a bad key is an UNAUTHORIZED error without the key', async () => {
			const params = { resource: 'envelope', operation: 'getStatus' };
			await expect(
				methods.listSearch.searchEnvelopes.call(context(params, 'service_bad')),
			).rejects.toThrow('UNAUTHORIZED');
		});
	});

	describe('searchDraftEnvelopes (picker of Send and Add Recipients)', () => {
		it('lists only drafts, asking the service for status=draft, and still searches by title', async () => {
			const draft = await seedEnvelope(h, { title: 'Draft lease' });
			const sent = await seedEnvelope(h, { title: 'Sent lease' }, { upload: await makePdf() });
			await h.api('POST', `/envelopes/${sent.id as string}/send`, {});
			const params = { resource: 'envelope', operation: 'send' };

			const drafts = await methods.listSearch.searchDraftEnvelopes.call(context(params), 'lease');
			expect(drafts.results.map((r) => r.value)).toEqual([draft.id]);
			const log = await h.requests();
			expect(log[log.length - 1]).toMatchObject({
				method: 'GET',
				path: '/api/v1/envelopes',
				query: { status: 'draft', search: 'lease' },
			});

			// the picker of other operations still lists both
			const all = await methods.listSearch.searchEnvelopes.call(
				context({ ...params, operation: 'getStatus' }),
				'lease',
			);
			expect(all.results.map((r) => r.value).sort()).toEqual([draft.id, sent.id].sort());
		});

		it('is the list of Send and Add Recipients; the other operations list every envelope', () => {
			const pickers = new DocumentSigning().description.properties.filter(
				(p) => p.name === 'envelopeId',
			);
			const listMethod = (operation: string) => {
				const picker = pickers.find((p) => p.displayOptions?.show?.operation?.includes(operation));
				return picker?.modes?.find((m) => m.name === 'list')?.typeOptions?.searchListMethod;
			};
			expect(listMethod('send')).toBe('searchDraftEnvelopes');
			expect(listMethod('addRecipients')).toBe('searchDraftEnvelopes');
			for (const operation of ['getStatus', 'downloadFile', 'getFields', 'checkEstamp']) {
				expect(listMethod(operation)).toBe('searchEnvelopes');
			}
		});
	});

	describe('getEstampArticles (article picker)', () => {
		it('offers the 120 KA catalog values in alphabetical order, then the typed path', async () => {
			const options = await methods.loadOptions.getEstampArticles.call(
				context({ estampState: 'KA' }),
			);
			const catalog = getArticles('KA')!;
			expect(catalog).toHaveLength(120);
			const listed = options.slice(0, -1).map((o) => o.value as string);
			expect([...listed].sort()).toEqual([...catalog].sort());
			expect(listed).toEqual([...listed].sort((a, b) => a.localeCompare(b)));
			expect(listed).not.toEqual(catalog); // the catalog itself keeps the specification's order
			expect(options[options.length - 1].value).toBe(ARTICLE_EXACT_VALUE);
			expect(options.map((o) => o.value)).toContain('Affidavit');
			// no request: the catalog is bundled
			expect(await h.requests()).toEqual([]);
		});

		it.each(ESTAMP_STATE_CODES.filter((code) => code !== 'KA'))(
			'%s: only the typed path',
			async (state) => {
				const options = await methods.loadOptions.getEstampArticles.call(
					context({ estampState: state }),
				);
				expect(options).toEqual([
					expect.objectContaining({ value: ARTICLE_EXACT_VALUE, name: 'Type the Exact Value' }),
				]);
			},
		);
	});

	it('the node offers every envelope operation with the fixed values, each one it can run', () => {
		const description = new DocumentSigning().description;
		const operation = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('envelope'),
		);
		const offered = (operation?.options as Array<{ value: string }>).map((o) => o.value).sort();
		// what the router runs for each value: the resource's module of that name
		const runnable = Object.entries(envelope)
			.filter(([, module]) => typeof (module as { execute?: unknown }).execute === 'function')
			.map(([name]) => name)
			.sort();
		expect(runnable).toEqual(offered);
		expect(offered).toEqual([
			'addRecipients',
			'checkEstamp',
			'create',
			'downloadFile',
			'getFields',
			'getMany',
			'getStatus',
			'send',
		]);
	});
});
