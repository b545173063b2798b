/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * Return All on a list that never ends: a small local service that ignores `page` and
 * always says more follow, and one that serves new items forever. The read stops with an
 * error naming the repeated page, or Max Items, instead of filling n8n's memory.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import { DEFAULT_MAX_ITEMS } from '../../nodes/shared/http/pagination';
import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';

let h: Harness;
let server: Server;
let baseUrl: string;
let mode: 'repeat' | 'endless' = 'repeat';
const pages: number[] = [];

beforeAll(async () => {
	h = await startHarness();
	server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const page = Number(url.searchParams.get('page'));
		const limit = Number(url.searchParams.get('limit'));
		pages.push(page);
		// `repeat` ignores the page number; `endless` numbers its items by it.
		const offset = mode === 'repeat' ? 0 : (page - 1) * limit;
		const items = Array.from({ length: limit }, (_, n) => ({
			id: `env_${offset + n}`,
			title: 'Endless',
		}));
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ items, pageInfo: { page: 1, limit, hasNext: true } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	await h.close();
});
beforeEach(() => {
	pages.length = 0;
});

async function getAll(extra: IDataObject = {}) {
	return await h.run({
		nodes: [
			seedNode(),
			actionNode({
				resource: 'envelope',
				operation: 'getMany',
				returnAll: true,
				...extra,
			} as Record<string, NodeParameterValueType>),
		],
		connections: chain('Seed', 'Document Signing'),
		credentials: { baseUrl },
	});
}

it('a service that ignores the page number: stops at the second page, naming both', async () => {
	mode = 'repeat';
	const run = await getAll();
	expect(run.error?.message).toBe(
		'Page 2 of GET /envelopes repeats the items of page 1: the service does not move on to the next page',
	);
	expect(pages).toEqual([1, 2]);
	expect(run.items('Document Signing')).toEqual([]);
});

it('a list that never ends: stops past Max Items (its default), naming the option', async () => {
	mode = 'endless';
	const run = await getAll();
	expect(run.error?.message).toBe(
		`Return All stopped after ${DEFAULT_MAX_ITEMS + 100} items of GET /envelopes: the list passed Max Items (${DEFAULT_MAX_ITEMS})`,
	);
	expect(pages).toHaveLength(DEFAULT_MAX_ITEMS / 100 + 1);
});

it('a smaller Max Items stops sooner', async () => {
	mode = 'endless';
	const run = await getAll({ maxItems: 250 });
	expect(run.error?.message).toBe(
		'Return All stopped after 300 items of GET /envelopes: the list passed Max Items (250)',
	);
	expect(pages).toEqual([1, 2, 3]);
});
