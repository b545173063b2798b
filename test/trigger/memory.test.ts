/**
 * The trigger's memory of event ids (nodes/DocumentSigningTrigger/memory.ts) when several n8n
 * processes share one workflow's static data (queue mode with several webhook processes, or
 * main and a webhook process): each request loads the stored value, n8n saves it whole and the
 * last save wins. Two memories with different keys stand for two processes, `db` for the
 * database row. Whatever the stored value says was taken counts as taken in every process.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { deepCopy, sleep } from 'n8n-workflow';

import {
	type Claim,
	claimEvent,
	keptId,
	rememberedIds,
	SEEN_EVENTS_LIMIT,
} from '../../nodes/DocumentSigningTrigger/memory';

const NOW = Date.now();
let processes = 0;

/** A database row and n8n processes that load from it and save into it. */
function cluster() {
	let row: IDataObject = {};
	const load = () => deepCopy(row);
	const save = (store: IDataObject) => (row = deepCopy(store));
	const process = () => {
		const key = `memory-test:${++processes}`;
		/** One delivery: claimed on a fresh load; n8n reads the body, saves (if `saved`) and answers 2xx. */
		const claim = async (id: string, createdAtMs = NOW, forgetBeforeMs = NOW - 3_600_000) =>
			await claimEvent({ key, store: load(), id, createdAtMs, forgetBeforeMs, waitMs: 20 });
		const start = async (id: string) => {
			const store = load();
			const c = await claimEvent({
				key,
				store,
				id,
				createdAtMs: NOW,
				forgetBeforeMs: NOW - 3_600_000,
				waitMs: 20,
			});
			if (c.outcome !== 'new') throw new Error(`${id}: ${c.outcome}`);
			return { store, ...c };
		};
		const deliver = async (id: string) => {
			const d = await start(id);
			d.answering();
			save(d.store);
			d.settle(true);
		};
		return { claim, start, deliver };
	};
	return { load, save, process, stored: () => rememberedIds(row).map(([k]) => k) };
}

describe('the memory of event ids across processes sharing static data', () => {
	it('an id the stored value holds is a duplicate in another process, whatever order the writer settled in', async () => {
		const db = cluster();
		const a = db.process();
		const b = db.process();
		// b takes X; its answer is slow. a reads the stored value while X is still in flight.
		const x = await b.start('evt_x');
		x.answering();
		db.save(x.store);
		expect((await a.claim('evt_x')).outcome).toBe('duplicate');
		// b takes W while X is in flight, and answers W before X.
		const w = await b.start('evt_w');
		w.answering();
		w.settle(true);
		x.settle(true);
		// b's next save (a third event) is the one a loads next: W must be known there.
		await b.deliver('evt_v');
		expect(db.stored()).toEqual(expect.arrayContaining(['evt_x', 'evt_w', 'evt_v'].map(keptId)));
		expect((await a.claim('evt_w')).outcome).toBe('duplicate');
		expect((await a.claim('evt_v')).outcome).toBe('duplicate');
	});

	it("an older save landing after a newer one (n8n's last write wins) loses nothing another process has read", async () => {
		const db = cluster();
		const a = db.process();
		const b = db.process();
		const early = await b.start('evt_1');
		early.answering();
		const earlyStore = early.store;
		early.settle(true);
		const late = await b.start('evt_2');
		late.answering();
		db.save(late.store);
		late.settle(true);
		expect((await a.claim('evt_2')).outcome).toBe('duplicate');
		db.save(earlyStore); // the earlier delivery's save lands last
		await b.deliver('evt_3');
		for (const id of ['evt_1', 'evt_2', 'evt_3'])
			expect([id, (await a.claim(id)).outcome]).toEqual([id, 'duplicate']);
	});

	it("a process's write carries what it read from the other, so the last save holds both", async () => {
		const db = cluster();
		const a = db.process();
		const b = db.process();
		await a.deliver('evt_a1');
		await b.deliver('evt_b1');
		await a.deliver('evt_a2');
		await b.deliver('evt_b2');
		expect(new Set(db.stored())).toEqual(
			new Set(['evt_a1', 'evt_b1', 'evt_a2', 'evt_b2'].map(keptId)),
		);
	});

	it('a restarted process (a new memory) reads every stored id', async () => {
		const db = cluster();
		const before = db.process();
		for (let n = 0; n < 50; n++) await before.deliver(`evt_${n}`);
		const after = db.process();
		for (let n = 0; n < 50; n++)
			expect([n, (await after.claim(`evt_${n}`)).outcome]).toEqual([n, 'duplicate']);
	});

	it('keeps at most SEEN_EVENTS_LIMIT ids in what it writes, in-flight ones included, oldest taken forgotten first', async () => {
		const db = cluster();
		const p = db.process();
		// An earlier version's memory, full: read, then written in the current shape.
		const legacy = Array.from({ length: SEEN_EVENTS_LIMIT }, (_, n) => [`evt_old_${n}`, NOW]);
		db.save({ seenEvents: legacy });
		const inFlight = await Promise.all(['evt_f1', 'evt_f2', 'evt_f3'].map((id) => p.start(id)));
		for (const f of inFlight) f.answering();
		const last = inFlight[2].store;
		expect(last.seenEvents).toBeUndefined();
		const written = rememberedIds(last).map(([k]) => k);
		expect(written).toHaveLength(SEEN_EVENTS_LIMIT);
		expect(new Set(written).size).toBe(SEEN_EVENTS_LIMIT);
		expect(written.slice(-3)).toEqual(['evt_f1', 'evt_f2', 'evt_f3'].map(keptId));
		expect(written[0]).toBe(keptId('evt_old_3'));
		db.save(last);
		for (const f of inFlight) f.settle(true);
		expect((await p.claim('evt_old_3')).outcome).toBe('duplicate');
		expect((await p.claim('evt_f3')).outcome).toBe('duplicate');
		expect((await p.claim('evt_old_2')).outcome).toBe('new');
	});

	it('a stored value with strings that are not whole records is read as far as it is sound', async () => {
		const db = cluster();
		const p = db.process();
		await p.deliver('evt_kept');
		const row = db.load();
		const value = row.seenEventIds as IDataObject;
		// A string too short for its keys, one whose time is not a time, and a key of other characters.
		value.log = ['not a record', '!'.repeat(17), ...(value.log as string[])];
		value.taking = `${value.taking as string}${'?'.repeat(10)}`;
		db.save(row);
		expect(db.stored()).toEqual([keptId('evt_kept')]);
		const q = db.process();
		expect((await q.claim('evt_kept')).outcome).toBe('duplicate');
		// Not the replay window any more (n8n refuses such events before the claim): not merged.
		const r = db.process();
		expect((await r.claim('evt_kept', NOW, NOW + 60_000)).outcome).toBe('new');
	});
});

describe('what the memory stores', () => {
	it('takes about 10 characters an id: 10,000 ids in about 100 KB of static data', async () => {
		const db = cluster();
		const p = db.process();
		const legacy = Array.from({ length: SEEN_EVENTS_LIMIT }, (_, n) => [`evt_full_${n}`, NOW]);
		db.save({ seenEvents: legacy });
		await p.deliver('evt_last');
		const bytes = JSON.stringify(db.load()).length;
		expect(db.stored()).toHaveLength(SEEN_EVENTS_LIMIT);
		expect(bytes).toBeGreaterThan(SEEN_EVENTS_LIMIT * 10);
		expect(bytes).toBeLessThan(SEEN_EVENTS_LIMIT * 10 + 1_000);
	});

	it('reads the format before (23-character records): its ids are duplicates, and the next write is the current format', async () => {
		const db = cluster();
		const hash = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 16);
		const time = Math.floor(NOW / 1000)
			.toString(36)
			.padStart(7, '0');
		const log = ['evt_v3_a', 'evt_v3_b'].map((id) => hash(id) + time).join('');
		db.save({
			seenEventIds: {
				format: 3,
				writer: 'OlderWriter1',
				base: 0,
				log: [log],
				taking: hash('evt_v3_c') + time,
			},
		});
		expect(db.stored()).toEqual(['evt_v3_a', 'evt_v3_b', 'evt_v3_c'].map(keptId));
		const p = db.process();
		for (const id of ['evt_v3_a', 'evt_v3_b', 'evt_v3_c'])
			expect([id, (await p.claim(id)).outcome]).toEqual([id, 'duplicate']);
		await p.deliver('evt_v4');
		expect((db.load().seenEventIds as IDataObject).format).toBe(4);
		expect(new Set(db.stored())).toEqual(
			new Set(['evt_v3_a', 'evt_v3_b', 'evt_v3_c', 'evt_v4'].map(keptId)),
		);
	});

	it('forgets by age a whole string of ids at once, once its newest event is past the window', async () => {
		const db = cluster();
		const p = db.process();
		const hour = 3_600_000;
		for (const [id, at] of [
			['evt_old', NOW - 3 * hour],
			['evt_newer', NOW - 30 * 60_000],
		] as const) {
			const c = await p.claim(id, at, NOW - 4 * hour);
			if (c.outcome !== 'new') throw new Error(c.outcome);
			c.settle(true);
		}
		// One string holds both: evt_old stays while evt_newer is inside the window.
		expect((await p.claim('evt_old', NOW, NOW - 2 * hour)).outcome).toBe('duplicate');
		const fresh = await p.claim('evt_fresh', NOW, NOW - 10 * 60_000);
		if (fresh.outcome !== 'new') throw new Error(fresh.outcome);
		fresh.settle(true);
		expect((await p.claim('evt_newer', NOW, NOW - 10 * 60_000)).outcome).toBe('new');
		expect((await p.claim('evt_old', NOW, NOW - 10 * 60_000)).outcome).toBe('new');
	});
});

describe('copies of one event in one process', () => {
	const copyClaim = async (key: string, id: string) =>
		await claimEvent({
			key,
			store: {},
			id,
			createdAtMs: NOW,
			forgetBeforeMs: NOW - 3_600_000,
			waitMs: 300,
		});

	it('copies begun in one step (n8n resuming several requests from one wake-up): one takes the event, the rest wait for it', async () => {
		const key = `memory-test:${++processes}`;
		const claims = Array.from({ length: 3 }, async () => await copyClaim(key, 'evt_same_step'));
		await sleep(20);
		const taken = await claims[0];
		if (taken.outcome !== 'new') throw new Error(taken.outcome);
		taken.settle(true);
		expect((await Promise.all(claims)).map((c) => c.outcome)).toEqual([
			'new',
			'duplicate',
			'duplicate',
		]);
	});

	it.each([2, 3, 8])(
		'%i copies waiting on a delivery n8n did not answer 2xx: exactly one of them takes the event',
		async (count) => {
			const key = `memory-test:${++processes}`;
			const first = await copyClaim(key, 'evt_refused');
			if (first.outcome !== 'new') throw new Error(first.outcome);
			const outcomes: Claim[] = [];
			const copies = Array.from({ length: count }, async () => {
				const c = await copyClaim(key, 'evt_refused');
				outcomes.push(c);
				return c;
			});
			// n8n answered the first 500 (its execution could not be created): one copy runs.
			first.settle(false);
			await sleep(50);
			expect(outcomes.map((c) => c.outcome)).toEqual(['new']);
			const taken = outcomes[0];
			if (taken.outcome === 'new') taken.settle(true);
			const all = await Promise.all(copies);
			expect(all.filter((c) => c.outcome === 'new')).toHaveLength(1);
			expect(all.filter((c) => c.outcome === 'duplicate')).toHaveLength(count - 1);
		},
	);
});
