import type { IDataObject } from 'n8n-workflow';

import { DEFAULTS } from '../../nodes/shared/api/assumptions';
import { returnAllOrLimit } from '../../nodes/shared/http/pagination';
import { useProbeHarness } from './setup';

describe('pagination over page, limit and pageInfo.hasNext', () => {
	const { h, probe } = useProbeHarness();

	const TOTAL = 2 * DEFAULTS.maxLimit + 17;

	async function seedEnvelopes(count: number): Promise<string[]> {
		const ids: string[] = [];
		for (let i = 0; i < count; i++) {
			const created = await h().api<IDataObject>('POST', '/envelopes', {
				fileName: `doc-${i}.pdf`,
				title: `Doc ${i}`,
			});
			ids.push(created.id as string);
		}
		return ids;
	}

	const listRequests = async () =>
		(await h().requests()).filter(
			(entry) => entry.method === 'GET' && entry.path === '/api/v1/envelopes',
		);

	it('returnAll reads every page at the largest page size', async () => {
		const ids = await seedEnvelopes(TOTAL);
		const result = await probe('allItems', { endpoint: '/envelopes', returnAll: true });

		expect(result.error).toBeUndefined();
		const json = result.items('Probe')[0].json;
		expect(json.count).toBe(TOTAL);
		expect(new Set(json.ids as string[])).toEqual(new Set(ids));
		const pages = await listRequests();
		expect(pages.map((entry) => entry.query)).toEqual([
			{ page: '1', limit: String(DEFAULTS.maxLimit) },
			{ page: '2', limit: String(DEFAULTS.maxLimit) },
			{ page: '3', limit: String(DEFAULTS.maxLimit) },
		]);
	});

	it('a limit smaller than a page needs one request and returns exactly the limit', async () => {
		await seedEnvelopes(12);
		const result = await probe('allItems', { endpoint: '/envelopes', returnAll: false, limit: 5 });

		expect(result.items('Probe')[0].json.count).toBe(5);
		expect((await listRequests()).map((entry) => entry.query)).toEqual([{ page: '1', limit: '5' }]);
	});

	it('a limit above the page size stops as soon as it is reached', async () => {
		await seedEnvelopes(TOTAL);
		const wanted = DEFAULTS.maxLimit + 30;
		const result = await probe('allItems', {
			endpoint: '/envelopes',
			returnAll: false,
			limit: wanted,
		});

		expect(result.items('Probe')[0].json.count).toBe(wanted);
		expect((await listRequests()).map((entry) => entry.query.page)).toEqual(['1', '2']);
	});

	it('fewer items than the limit: stops when hasNext is false; filters are passed on', async () => {
		await seedEnvelopes(3);
		const result = await probe('allItems', {
			endpoint: '/envelopes',
			qs: { status: 'draft' },
			returnAll: false,
			limit: 50,
		});

		expect(result.items('Probe')[0].json.count).toBe(3);
		expect((await listRequests()).map((entry) => entry.query)).toEqual([
			{ status: 'draft', page: '1', limit: '50' },
		]);
	});

	it('returnAllOrLimit gives the standard Return All and Limit parameters', () => {
		const [returnAll, limit] = returnAllOrLimit({
			show: { resource: ['envelope'], operation: ['getMany'] },
		});
		expect(returnAll).toMatchObject({
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		});
		expect(limit).toMatchObject({
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: {
				show: { resource: ['envelope'], operation: ['getMany'], returnAll: [false] },
			},
		});
	});
});
