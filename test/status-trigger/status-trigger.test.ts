/**
 * The Document Signing Status Trigger polled as an active n8n workflow polls it (n8n-core's
 * PollContext and WorkflowExecute, test/harness/poll.ts) against the sandbox over HTTP.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { POLL_NODE_NAME, startPollRunner } from '../harness/poll';
import { type RetryPolicyModule, setRetryPolicy } from '../retry-policy';
import { act, complete, completedEnvelopes, listRequests, sent } from './helpers';
import { type PollPolicyModule, setPollPolicy } from './poll-policy';

jest.mock('../../nodes/shared/pacing/retry', () =>
	jest.requireActual<RetryPolicyModule>('../retry-policy').retryModule(),
);
jest.mock('../../nodes/DocumentSigningStatusTrigger/pollPolicy', () =>
	jest.requireActual<PollPolicyModule>('./poll-policy').pollPolicyModule(),
);

let h: Harness;

beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => {
	await h.reset();
	setPollPolicy();
});

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

/** Envelope ids emitted by one poll (none when the poll returned nothing). */
async function pollIds(p: Awaited<ReturnType<typeof poller>>): Promise<string[]> {
	const result = await p.poll();
	return result ? result.items.map((item) => item.json.envelopeId as string) : [];
}

describe('Document Signing Status Trigger', () => {
	it('does not start for envelopes completed before the first poll, then starts once for each new one', async () => {
		const before = await completedEnvelopes(h, 2, 'Before');
		const p = await poller();
		const logStart = (await h.requests()).length;

		expect(await pollIds(p)).toEqual([]);
		// The first poll of a final status reads one page: it only needs the newest change.
		expect(await listRequests(h, logStart)).toEqual([
			{ status: 'completed', page: '1', limit: '100' },
		]);
		expect(await pollIds(p)).toEqual([]);

		const [after] = await completedEnvelopes(h, 1, 'After');
		const result = await p.poll();
		expect(result!.items).toHaveLength(1);
		expect(result!.items[0].json).toMatchObject({
			envelopeId: after,
			id: after,
			status: 'completed',
			statusName: 'Completed',
			totalRecipients: 2,
			completedActions: 2,
		});
		expect(before).not.toContain(after);
		expect(await pollIds(p)).toEqual([]);
	});

	it('starts exactly once per envelope across several polls with completions in between', async () => {
		const p = await poller();
		await p.poll();
		const completed: string[] = [];
		const started: string[] = [];
		for (let round = 0; round < 4; round++) {
			completed.push(...(await completedEnvelopes(h, round + 1, `Round ${round}`)));
			started.push(...(await pollIds(p)));
			started.push(...(await pollIds(p)));
		}
		expect(started.sort()).toEqual(completed.sort());
		expect(new Set(started).size).toBe(10);
	});

	it('reads every page when more than a page completed between two polls, and no more', async () => {
		setPollPolicy({ pageSize: 3 });
		const old = await completedEnvelopes(h, 4, 'Ancient');
		// Minutes apart: older than the overlap a poll reads again (STATUS_POLL.overlapMs).
		h.sandbox.state.advanceClock(5 * 60);
		old.push(...(await completedEnvelopes(h, 1, 'Old')));
		const p = await poller();
		await p.poll();
		h.sandbox.state.advanceClock(5 * 60);
		const fresh = await completedEnvelopes(h, 8, 'Fresh');
		const logStart = (await h.requests()).length;

		const started = await pollIds(p);
		expect(started.sort()).toEqual([...fresh].sort());
		// 8 new, 1 old, 4 ancient in pages of 3: pages 1-3 hold the new ones and the old one,
		// page 4 passes the cursor and its overlap; page 5 is not read.
		const pages = (await listRequests(h, logStart)).map((q) => Number(q.page));
		expect(pages).toEqual([1, 2, 3, 4]);
		expect(started.some((id) => old.includes(id))).toBe(false);
		expect(await pollIds(p)).toEqual([]);
	});

	it('starts once per envelope and status for several statuses; a signature on a pending envelope is not new', async () => {
		const p = await poller({ statuses: ['pending', 'completed'] });
		const waiting = await sent(h, 'Waiting before');
		expect(await pollIds(p)).toEqual([]);

		const a = await sent(h, 'A');
		const b = await sent(h, 'B');
		await complete(b);
		const first = await p.poll();
		expect(first!.items.map((i) => [i.json.envelopeId, i.json.status]).sort()).toEqual(
			[
				[a.id, 'pending'],
				[b.id, 'completed'],
			].sort(),
		);

		// One of two signers signs: updatedAt moves, the status stays pending.
		await act(a.actionUrls[0]);
		await act(waiting.actionUrls[0]);
		expect(await pollIds(p)).toEqual([]);

		await act(a.actionUrls[1]);
		const second = await p.poll();
		expect(second!.items.map((i) => [i.json.envelopeId, i.json.status])).toEqual([
			[a.id, 'completed'],
		]);
		expect(await pollIds(p)).toEqual([]);
	});

	it('attaches the signed PDF to completed envelopes when asked', async () => {
		const p = await poller({
			statuses: ['pending', 'completed'],
			downloadSignedPdf: true,
			binaryPropertyName: 'signed',
		});
		await p.poll();
		const pending = await sent(h, 'Still pending');
		const done = await complete(await sent(h, 'Signed contract'));
		const result = await p.poll();
		const byId = Object.fromEntries(
			result!.items.map((item) => [item.json.envelopeId as string, item]),
		);

		expect(byId[pending.id].binary).toBeUndefined();
		const item = byId[done];
		expect(item.binary?.signed).toMatchObject({ mimeType: 'application/pdf' });
		const bytes = Buffer.from(item.binary!.signed.data, 'base64');
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(item.json.signedPdf).toEqual({
			fileName: expect.stringMatching(/\.pdf$/),
			size: bytes.length,
		});
		const files = (await h.requests()).filter((r) => r.path.endsWith(`/envelopes/${done}/file`));
		expect(files).toHaveLength(1);
	});

	it('a download failing after every retry leaves the memory as it was: the next poll starts the same envelope', async () => {
		const policy = setRetryPolicy({ baseDelayMs: 5, maxDelayMs: 20 });
		try {
			const p = await poller({ downloadSignedPdf: true });
			await p.poll();
			const [done] = await completedEnvelopes(h, 1, 'Download fails for a while');
			const tries = policy.maxRetries + 1;
			await h.fault({ failures: [{ status: 500, path: `/envelopes/${done}/file`, count: tries }] });
			await expect(p.poll()).rejects.toThrow();
			await h.fault({});
			const result = await p.poll();
			expect(result!.items.map((item) => item.json.envelopeId)).toEqual([done]);
			expect(result!.items[0].binary?.data?.mimeType).toBe('application/pdf');
			expect(await pollIds(p)).toEqual([]);
		} finally {
			setRetryPolicy();
		}
	});

	it('a file the service refuses (4xx) starts its envelope without the PDF and with the reason; the others get theirs', async () => {
		const p = await poller({ downloadSignedPdf: true });
		await p.poll();
		const [refused, fine] = await completedEnvelopes(h, 2, 'One file refused');
		await h.fault({ failures: [{ status: 404, path: `/envelopes/${refused}/file`, count: 100 }] });
		const result = await p.poll();
		await h.fault({});
		const byId = Object.fromEntries(
			result!.items.map((item) => [item.json.envelopeId as string, item]),
		);
		expect(Object.keys(byId).sort()).toEqual([refused, fine].sort());
		expect(byId[refused].binary).toBeUndefined();
		expect(byId[refused].json).toMatchObject({
			signedPdf: null,
			signedPdfError: { httpCode: '404', message: expect.any(String) },
		});
		expect(byId[fine].binary?.data?.mimeType).toBe('application/pdf');
		// Started once: the refused file does not bring the envelope back.
		expect(await pollIds(p)).toEqual([]);
	});

	it('a poll due while the previous one still runs skips, so the two cannot start one envelope twice', async () => {
		const p = await poller();
		await p.poll();
		await completedEnvelopes(h, 3, 'Overlap');
		const [first, second] = await Promise.all([p.poll(), p.poll()]);
		expect([first?.items.length ?? 0, second?.items.length ?? 0].sort()).toEqual([0, 3]);
		expect(await pollIds(p)).toEqual([]);
	});

	it('keeps its memory bounded: a final status keeps only ids near the cursor, others the newest ones', async () => {
		setPollPolicy({ seenLimit: 5 });
		const p = await poller({ statuses: ['pending', 'completed'] });
		await p.poll();
		await completedEnvelopes(h, 3, 'Early');
		for (let i = 0; i < 8; i++) await sent(h, `Pending ${i}`);
		h.sandbox.state.advanceClock(5 * 60);
		const late = await completedEnvelopes(h, 2, 'Late');
		const latePending = await sent(h, 'Pending late');
		expect((await pollIds(p)).length).toBe(14);

		const stored = p.storedStaticData();
		const memory = stored[`node:${POLL_NODE_NAME}`] as IDataObject;
		const statuses = memory.statuses as Record<
			string,
			{ cursor: number; seen: Record<string, number> }
		>;
		// 5 minutes later: the early ones are older than the overlap, so completed ones are
		// forgotten and pending ones kept up to the limit (newest first).
		expect(Object.keys(statuses.completed.seen).sort()).toEqual([...late].sort());
		expect(Object.keys(statuses.pending.seen)).toHaveLength(5);
		expect(statuses.pending.seen).toHaveProperty(latePending.id);
		expect(JSON.stringify(memory).length).toBeLessThan(2000);
		expect(await pollIds(p)).toEqual([]);
	});

	it('after an n8n restart, continues from the stored memory without repeats', async () => {
		const p = await poller();
		await p.poll();
		const first = await completedEnvelopes(h, 2, 'First');
		expect((await pollIds(p)).sort()).toEqual([...first].sort());
		p.restart();
		expect(await pollIds(p)).toEqual([]);
		const second = await completedEnvelopes(h, 1, 'Second');
		expect(await pollIds(p)).toEqual(second);
	});

	it('in manual mode returns the newest envelope of each status as sample data and changes no memory', async () => {
		await completedEnvelopes(h, 2, 'Sample');
		const [newest] = await completedEnvelopes(h, 1, 'Newest');
		const p = await poller();
		const run = await p.manual();
		expect(run.items.map((i) => i.json.envelopeId)).toEqual([newest]);
		expect(p.storedStaticData()).toEqual({});
		expect(p.liveStaticData()).toEqual({});

		// The first scheduled poll after the test run still takes its baseline.
		expect(await pollIds(p)).toEqual([]);
	});

	it('refuses an empty status choice before any request', async () => {
		const p = await poller({ statuses: [] });
		const logStart = (await h.requests()).length;
		await expect(p.poll()).rejects.toThrow('Trigger on Status: choose one or more statuses');
		expect(await listRequests(h, logStart)).toEqual([]);
	});
});
