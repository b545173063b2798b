/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The status trigger against a service that lists envelopes in another order than the one
 * assumed (here: newest created first): once a page shows it, every poll reads every page,
 * and an old envelope completed late still starts once.
 */
import express from 'express';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { POLL_NODE_NAME, startPollRunner } from '../harness/poll';
import { complete, listRequests, sent } from './helpers';
import { type PollPolicyModule, setPollPolicy } from './poll-policy';

jest.mock('../../nodes/DocumentSigningStatusTrigger/pollPolicy', () =>
	jest.requireActual<PollPolicyModule>('./poll-policy').pollPolicyModule(),
);

let h: Harness;
let proxy: Server;
let proxyBase = '';

/** GET /envelopes of the sandbox, re-sorted by creation (newest first) and paged again. */
async function startReorderingProxy(): Promise<void> {
	const app = express();
	app.get('/api/v1/envelopes', async (req, res) => {
		const all: IDataObject[] = [];
		for (let page = 1; ; page++) {
			const query = new URLSearchParams({
				status: String(req.query.status ?? ''),
				page: String(page),
				limit: '100',
			});
			const response = await fetch(`${h.sandbox.baseUrl}/envelopes?${query}`, {
				headers: { authorization: String(req.headers.authorization) },
			});
			const body = (await response.json()) as {
				items: IDataObject[];
				pageInfo: { hasNext: boolean };
			};
			all.push(...body.items);
			if (!body.pageInfo.hasNext) break;
		}
		all.sort(
			(a, b) =>
				String(b.createdAt).localeCompare(String(a.createdAt)) ||
				String(b.id).localeCompare(String(a.id)),
		);
		const page = Number(req.query.page);
		const limit = Number(req.query.limit);
		const totalPages = Math.ceil(all.length / limit);
		res.json({
			items: all.slice((page - 1) * limit, page * limit),
			pageInfo: {
				page,
				limit,
				total: all.length,
				totalPages,
				hasNext: page < totalPages,
				hasPrevious: page > 1,
			},
		});
	});
	proxy = await new Promise((resolve) => {
		const server = app.listen(0, '127.0.0.1', () => resolve(server));
	});
	proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`;
}

beforeAll(async () => {
	h = await startHarness();
	await startReorderingProxy();
});
afterAll(async () => {
	await new Promise((resolve) => proxy.close(resolve));
	await h.close();
	setPollPolicy();
});

it('reads every page once the list shows another order, so an old envelope completed late starts once', async () => {
	setPollPolicy({ pageSize: 1 });
	const oldest = await sent(h, 'Created first, signed last');
	const middle = await sent(h, 'Created second, signed second');
	const newest = await sent(h, 'Created last, signed first');
	await complete(newest);
	h.sandbox.state.advanceClock(10 * 60);
	await complete(middle);

	const p = await startPollRunner({
		credentials: {
			baseUrl: proxyBase,
			apiKey: h.sandbox.apiKey,
			webhookSecret: h.sandbox.webhookSecret,
		},
		parameters: { statuses: ['completed'] },
	});
	// Page 1 holds the envelope completed first, page 2 one completed later: not the assumed order.
	expect(await p.poll()).toBeNull();
	const memory = (p.liveStaticData()[`node:${POLL_NODE_NAME}`] as IDataObject).statuses as Record<
		string,
		IDataObject
	>;
	expect(memory.completed.readAll).toBe(true);

	// Minutes later the oldest envelope is completed: it sits on the last page, behind a
	// first page whose only envelope is older than the cursor.
	h.sandbox.state.advanceClock(5 * 60);
	await complete(oldest);
	const logStart = (await h.requests()).length;
	const result = await p.poll();
	expect(result!.items.map((item) => item.json.envelopeId)).toEqual([oldest.id]);
	// One sandbox read per page the trigger asked for: all three.
	expect((await listRequests(h, logStart)).length).toBe(3);
	expect(await p.poll()).toBeNull();
});
