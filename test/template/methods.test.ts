/** The template picker's list search runs in n8n-core's real LoadOptionsContext against the sandbox. */
import type { INodeParameters } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { type Harness, startHarness } from '../harness';
import { loadOptionsContext } from '../harness/load-options';
import { seedTemplate } from './helpers';

/** The id as the list shows it. */
const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 12)}…` : id);

describe('template editor methods', () => {
	let h: Harness;
	const { listSearch } = new DocumentSigning().methods;
	const parameters: INodeParameters = { resource: 'template', operation: 'get' };

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it('searchTemplates lists active templates by name and short id, searched by the service', async () => {
		const lease = await seedTemplate(h, { name: 'Lease' }, { upload: false });
		await seedTemplate(h, { name: 'NDA' }, { upload: false });
		const old = await seedTemplate(h, { name: 'Old lease' }, { upload: false });
		await h.api('PATCH', `/templates/${String(old.id)}`, { status: 'archived' });
		const context = loadOptionsContext(h, parameters);

		const all = await listSearch.searchTemplates.call(context);
		expect(all.results.map((r) => r.name).sort()).toEqual(
			['Lease', 'NDA'].map((n) => expect.stringMatching(new RegExp(`^${n} \\(`))),
		);
		const found = await listSearch.searchTemplates.call(context, 'lea');
		expect(found.results).toEqual([
			{ name: `Lease (${shortId(lease.id as string)})`, value: lease.id },
		]);
		const requests = await h.requests();
		expect(requests.at(-1)?.query).toMatchObject({ status: 'active', search: 'lea' });

		const archived = await listSearch.searchArchivedTemplates.call(context);
		expect(archived.results.map((r) => r.value)).toEqual([old.id]);
	});

	it('pages through more than one page', async () => {
		for (let n = 0; n < 55; n++) await seedTemplate(h, { name: `T${n}` }, { upload: false });
		const context = loadOptionsContext(h, parameters);
		const first = await listSearch.searchTemplates.call(context);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('2');
		const second = await listSearch.searchTemplates.call(
			context,
			undefined,
			first.paginationToken as string,
		);
		expect(second.results).toHaveLength(5);
		expect(second.paginationToken).toBeUndefined();
	});

	it("an organization key lists only the organization's templates", async () => {
		await seedTemplate(h, { name: 'Personal' }, { upload: false });
		await seedTemplate(h, { name: 'Org' }, { apiKey: h.sandbox.orgApiKey, upload: false });
		const result = await listSearch.searchTemplates.call(
			loadOptionsContext(h, parameters, h.sandbox.orgApiKey),
		);
		expect(result.results.map((r) => r.name)).toEqual([expect.stringMatching(/^Org \(/)]);
	});
});
