/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: a small HTTP service, not published */
/**
 * A service that pages by its own smaller size without refusing the asked `limit` (its
 * pages are shorter than asked while `hasNext` is true). With `pageInfo.limit` the node
 * reads on by that size and misses nothing; without it the read fails and says so, never
 * silently short. Served over real HTTP by a tiny express app (the sandbox refuses a large
 * limit instead).
 */
import express from 'express';
import type { Server } from 'http';
import type { AddressInfo } from 'net';

import { useProbeHarness } from './setup';

const TOTAL = 23;
const SERVED = 10;

function startService(
	withLimit: boolean,
): Promise<{ server: Server; baseUrl: string; asked: string[] }> {
	const app = express();
	const asked: string[] = [];
	app.get('/api/v1/things', (req, res) => {
		asked.push(`${String(req.query.page)}:${String(req.query.limit)}`);
		const page = Number(req.query.page ?? 1);
		const items = Array.from({ length: TOTAL }, (_, n) => ({ id: `t${n + 1}` })).slice(
			(page - 1) * SERVED,
			page * SERVED,
		);
		const pageInfo: Record<string, unknown> = {
			page,
			total: TOTAL,
			hasNext: page * SERVED < TOTAL,
		};
		if (withLimit) pageInfo.limit = SERVED;
		res.json({ items, pageInfo });
	});
	return new Promise((resolve) => {
		const server = app.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			resolve({ server, baseUrl: `http://127.0.0.1:${port}/api/v1`, asked });
		});
	});
}

describe('pages shorter than asked while more follow', () => {
	const { probe } = useProbeHarness();

	it("with pageInfo.limit: later pages are read by the service's size, every item once", async () => {
		const service = await startService(true);
		try {
			const result = await probe('allItems', { endpoint: '/things', returnAll: true }, undefined, {
				baseUrl: service.baseUrl,
			});
			expect(result.error).toBeUndefined();
			const json = result.items('Probe')[0].json;
			expect(json.ids).toEqual(Array.from({ length: TOTAL }, (_, n) => `t${n + 1}`));
			expect(service.asked).toEqual(['1:100', '2:10', '3:10']);
		} finally {
			service.server.close();
		}
	});

	it('without pageInfo.limit: the read fails, naming the assumption and what to set', async () => {
		const service = await startService(false);
		try {
			const result = await probe('allItems', { endpoint: '/things', returnAll: true }, undefined, {
				baseUrl: service.baseUrl,
			});
			const error = result.error as (Error & { description?: string }) | undefined;
			expect(error?.message).toContain(
				'Page 1 of GET /things held 10 items of the 100 asked while the service says more follow',
			);
			expect(error?.description).toContain('List paging');
			expect(error?.description).toContain('set Limit');
			expect(service.asked).toEqual(['1:100']);
		} finally {
			service.server.close();
		}
	});
});
