/**
 * n8n 2.41's poll scheduler hands an emitting poll's items to a new execution and commits the
 * node's memory with that execution, without waiting for it (trigger-execution-context.factory.js
 * __emit; poll-trigger-task-handler.js returns "dispatched"). A poll that starts before that
 * commit reads the memory from before the last emitting poll. On n8n 2.41.1 (e2e suite 95 with
 * signed PDFs) such polls started the previous execution's envelopes again. Here each poll gets
 * the memory n8n would hand it at that moment.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { DocumentSigningStatusTrigger } from '../../nodes/DocumentSigningStatusTrigger/DocumentSigningStatusTrigger.node';
import { STATUS_POLL } from '../../nodes/DocumentSigningStatusTrigger/pollPolicy';
import { type Harness, startHarness } from '../harness';
import { completedEnvelopes } from './helpers';
import { scheduledPolls } from './scheduler';
import { type ServiceClock, type ServiceClockModule, useServiceClock } from './service-clock';

jest.mock('../../nodes/DocumentSigningStatusTrigger/pollClock', () =>
	jest.requireActual<ServiceClockModule>('./service-clock').pollClockModule(),
);

let h: Harness;
let clock: ServiceClock;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => {
	await h.reset();
	clock = useServiceClock(h.sandbox.state, 700);
});

const node = new DocumentSigningStatusTrigger();
const out = (r: INodeExecutionData[][] | null) => (r?.[0] ?? []).map((i) => i.json.envelopeId);

/** A trigger past its baseline with 30 completed envelopes to start, and its first emitting poll. */
async function firstEmittingPoll() {
	const p = scheduledPolls({
		credentials: {
			baseUrl: h.sandbox.baseUrl,
			apiKey: h.sandbox.apiKey,
			webhookSecret: h.sandbox.webhookSecret,
		},
		parameters: { statuses: ['completed'] },
		clock,
		timeoutMs: 15_000,
	});
	expect((await p.tick()).kind).toBe('empty');
	const ids = await completedEnvelopes(h, 30, 'Lag');
	const before = p.committed();
	const after: IDataObject = deepCopy(before);
	const first = (await node.poll!.call(p.contextOf(after))) as INodeExecutionData[][] | null;
	expect(out(first)).toEqual(ids);
	const poll = async (memory: IDataObject) =>
		(await node.poll!.call(p.contextOf(deepCopy(memory)))) as INodeExecutionData[][] | null;
	return { ids, before, after, poll };
}

it('a poll that starts before n8n has committed the last emitting poll starts none of its envelopes again', async () => {
	const { before, poll } = await firstEmittingPoll();
	clock.pass(10_000);
	expect(out(await poll(before))).toEqual([]);
}, 60_000);

it('once n8n has committed it, the next poll goes on from there: only what is new', async () => {
	const { before, after, poll } = await firstEmittingPoll();
	clock.pass(10_000);
	expect(await poll(before)).toBeNull();
	const later = await completedEnvelopes(h, 3, 'After');
	clock.pass(10_000);
	expect(out(await poll(after))).toEqual(later);
}, 60_000);

it('a commit n8n never makes: after the wait the envelopes start again, repeated rather than lost', async () => {
	const { ids, before, poll } = await firstEmittingPoll();
	clock.pass(10_000);
	expect(await poll(before)).toBeNull();
	clock.pass(STATUS_POLL.commitWaitMs);
	expect(out(await poll(before))).toEqual(ids);
}, 60_000);
