/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * The trigger's contract with n8n (nodes/DocumentSigningTrigger/n8nContract.ts):
 * - an ordinary copy, log or clone of a started delivery's result confirms nothing: a copy of
 *   the event arriving afterwards still waits for n8n's answer instead of being called a
 *   duplicate (only n8n's 2xx on the response confirms);
 * - the memory written into the static data is read back by another writer (another process
 *   of n8n sharing the database, or this trigger after a restart);
 * - every line the contract cites still reads so in the installed n8n of both lines.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { startedResult } from '../../nodes/DocumentSigningTrigger/answer';
import { claimEvent, keptId, rememberedIds } from '../../nodes/DocumentSigningTrigger/memory';
import { N8N_CONTRACT } from '../../nodes/DocumentSigningTrigger/n8nContract';

let keys = 0;
const claim = async (store: IDataObject, id: string, key = `contract:${++keys}`) =>
	await claimEvent({
		key,
		store,
		id,
		createdAtMs: Date.now(),
		forgetBeforeMs: Date.now() - 3_600_000,
		waitMs: 50,
	});

const COPIES: Array<[string, (result: IWebhookResponseData) => unknown]> = [
	['a spread', (result) => ({ ...result })],
	['JSON.stringify', (result) => JSON.stringify(result)],
	['structuredClone', (result) => structuredClone(result)],
	["n8n-workflow's deepCopy", (result) => deepCopy(result)],
	['Object.keys', (result) => Object.keys(result).map((k) => result[k as 'workflowData'])],
	['Object.assign', (result) => Object.assign({}, result)],
];

describe('the n8n contract: what confirms an event id', () => {
	it.each(COPIES)(
		'%s of the result neither reads the body nor confirms the id',
		async (_, copy) => {
			const key = `contract:${++keys}`;
			const first = await claim({}, 'evt_copied', key);
			if (first.outcome !== 'new') throw new Error(first.outcome);
			const result = startedResult([[{ json: {} }]], { received: true }, first);
			copy(result);
			// The body was not read: another delivery's write does not carry the id as being
			// answered (saved, it would count as taken in every process before the execution exists).
			const other: IDataObject = {};
			const second = await claim(other, 'evt_other', key);
			if (second.outcome !== 'new') throw new Error(second.outcome);
			expect(rememberedIds(other).map(([k]) => k)).toEqual([keptId('evt_other')]);
			// A copy of the event arriving now: the first is still being taken, not yet seen.
			expect((await claim({}, 'evt_copied', key)).outcome).toBe('busy');
			first.settle(true);
			second.settle(true);
			expect((await claim({}, 'evt_copied', key)).outcome).toBe('duplicate');
		},
	);

	it("n8n's read of the body by name gives the body and writes the memory again, confirming nothing", async () => {
		const key = `contract:${++keys}`;
		const store: IDataObject = {};
		const first = await claim(store, 'evt_read', key);
		if (first.outcome !== 'new') throw new Error(first.outcome);
		const result = startedResult([[{ json: {} }]], { received: true }, first);
		delete store.seenEventIds;
		expect(result.webhookResponse).toEqual({ received: true });
		expect(rememberedIds(store).map(([k]) => k)).toEqual([keptId('evt_read')]);
		expect((await claim({}, 'evt_read', key)).outcome).toBe('busy');
		first.settle(false);
		expect((await claim({}, 'evt_read', key)).outcome).toBe('new');
	});
});

describe('the n8n contract: static data shared through the database', () => {
	it("another writer's ids are read from the static data, its later ones too, and a write carries them all", async () => {
		// Two triggers' memories stand for two n8n processes; `stored` for the database row.
		let stored: IDataObject = {};
		const load = () => deepCopy(stored);
		for (const id of ['evt_a1', 'evt_a2']) {
			const store = load();
			const c = await claim(store, id, 'process-a');
			if (c.outcome !== 'new') throw new Error(c.outcome);
			c.settle(true);
			stored = store;
		}
		expect((await claim(load(), 'evt_a2', 'process-b')).outcome).toBe('duplicate');
		const store = load();
		const c = await claim(store, 'evt_a3', 'process-a');
		if (c.outcome !== 'new') throw new Error(c.outcome);
		c.settle(true);
		stored = store;
		expect((await claim(load(), 'evt_a3', 'process-b')).outcome).toBe('duplicate');
		expect((await claim(load(), 'evt_a1', 'process-b')).outcome).toBe('duplicate');
		// Process b's write carries a's ids too: the last write wins in n8n.
		const fromB = load();
		const d = await claim(fromB, 'evt_b1', 'process-b');
		if (d.outcome !== 'new') throw new Error(d.outcome);
		expect(rememberedIds(fromB).map(([k]) => k)).toEqual(
			['evt_a1', 'evt_a2', 'evt_a3', 'evt_b1'].map(keptId),
		);
		d.settle(true);
	});
});

describe('the n8n contract: saves that land out of step', () => {
	it('a write at the answer carries the ids other deliveries are being answered for', async () => {
		// n8n saves each delivery's static data before it answers it: after a burst the save
		// that lands last must hold every id, though none of them is answered yet.
		const stored: IDataObject = {};
		const key = `contract:${++keys}`;
		const stores = ['evt_burst_1', 'evt_burst_2', 'evt_burst_3'].map(() => deepCopy(stored));
		const claims = await Promise.all(
			stores.map(async (store, n) => await claim(store, `evt_burst_${n + 1}`, key)),
		);
		for (const c of claims) if (c.outcome === 'new') c.answering();
		expect(rememberedIds(stores[2]).map(([k]) => k)).toEqual(
			['evt_burst_1', 'evt_burst_2', 'evt_burst_3'].map(keptId),
		);
		// Not seen in this process until answered 2xx: a copy still waits.
		expect((await claim({}, 'evt_burst_1', key)).outcome).toBe('busy');
		for (const c of claims) if (c.outcome === 'new') c.settle(true);
	});
});

const INSTALLED: Record<string, string> = {
	'2.41.1': join(__dirname, '../../.e2e/n8n/node_modules'),
	'1.123.81': join(__dirname, '../../.e2e/n8n-1.123.81/node_modules'),
};

/**
 * Another n8n (the canary's, .github/workflows/n8n-canary.yml): every text the contract cites
 * in 2.41.1 is still in the same file, at whatever line. Missing text says where to read again.
 */
const OTHER_ROOT = process.env.N8N_CONTRACT_ROOT;
(OTHER_ROOT ? describe : describe.skip)('the n8n contract in the n8n of N8N_CONTRACT_ROOT', () => {
	const root = OTHER_ROOT ?? '';
	const cited = N8N_CONTRACT.flatMap((entry) =>
		entry.readAt.filter((at) => at.n8n === '2.41.1').map((at) => [entry.id, at] as const),
	);
	it('is an installed n8n', () => {
		const { version } = JSON.parse(readFileSync(join(root, 'n8n/package.json'), 'utf8')) as {
			version: string;
		};
		expect(version).toMatch(/^\d+\.\d+\.\d+$/);
	});
	it.each(cited)('%s: %j is still in that file', (_, at) => {
		const file = join(root, at.file);
		expect(existsSync(file) ? readFileSync(file, 'utf8') : `(no file ${at.file})`).toContain(
			at.text,
		);
	});
});

describe.each(Object.entries(INSTALLED))('the n8n contract, read in n8n %s', (version, root) => {
	const installed = existsSync(join(root, 'n8n/package.json'));
	(installed ? it : it.skip)('is the installed n8n', () => {
		expect(JSON.parse(readFileSync(join(root, 'n8n/package.json'), 'utf8')).version).toBe(version);
	});
	const cited = N8N_CONTRACT.flatMap((entry) =>
		entry.readAt.filter((at) => at.n8n === version).map((at) => [entry.id, at] as const),
	);
	(installed ? it.each(cited) : it.skip.each(cited))('%s: %j', (_, at) => {
		const lines = readFileSync(join(root, at.file), 'utf8').split('\n');
		expect(lines[at.line - 1]).toContain(at.text);
	});
});
