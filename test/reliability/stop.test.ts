/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code: runs under jest and is not published (package.json "files" is dist/ only); it prints the times it measures */
/**
 * n8n's Stop through n8n-core's own WorkflowExecute: the harness cancels the execution's
 * promise as n8n's Stop does, which aborts the AbortController whose signal the node reads
 * (getExecutionCancelSignal). After it no request starts, waits end, and the items not
 * done are not reported as done. Times are printed, not asserted.
 */
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { seedEnvelope } from '../envelope/helpers';

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
	// n8n's first run in a process starts its expression engine: not part of what is measured.
	await statusBatch(1, 0, 60_000);
});
afterAll(async () => await h.close());
afterEach(async () => {
	await h.fault({});
	await h.reset();
});

/** Gets the status of one draft for `count` items, at `perSecond` requests per second. */
async function statusBatch(
	count: number,
	perSecond: number,
	stopAfterMs: number | undefined,
	faults?: IDataObject,
	stopAfterRequests?: number,
) {
	const id = (await seedEnvelope(h)).id as string;
	if (faults) await h.fault(faults);
	const before = (await h.requests()).length;
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode({
				resource: 'envelope',
				operation: 'getStatus',
				envelopeId: { __rl: true, mode: 'id', value: id },
				batching: { maxRequestsPerSecond: perSecond },
			} as Record<string, NodeParameterValueType>),
		],
		connections: chain('Seed', 'Document Signing'),
		input: Array.from({ length: count }, (_, n) => ({ json: { n } as IDataObject })),
		stopAfterMs,
		stopWhen:
			stopAfterRequests === undefined
				? undefined
				: async () => (await h.requests()).length - before >= stopAfterRequests,
	});
	const log = await h.requests();
	return { result, requests: log.slice(before), loggedAtEnd: log.length };
}

it('a paced batch stopped after 20 answers: nothing new reaches the service once the run has ended, and no item is reported done', async () => {
	const { result, requests, loggedAtEnd } = await statusBatch(300, 50, undefined, undefined, 20);
	const stoppedAt = result.stoppedAt as number;
	const settledAt = result.settledAt as number;
	// Any request still to come would arrive within this time (real time: proving none comes needs it).
	await new Promise((resolve) => setTimeout(resolve, 1000));
	const after = (await h.requests()).length;
	const started = requests.map((r) => Date.parse(r.time));
	// The sandbox runs in this process: under load its log stamps a request when the shared
	// event loop gets to it, so start times are printed here and compared in the end-to-end
	// suite (33-error-output), where n8n and the sandbox are separate processes.
	console.log(
		`stop: ${requests.length} of 300 requests; execution settled ${settledAt - stoppedAt} ms after the stop; ` +
			`last request stamped ${Math.max(...started) - stoppedAt} ms after it`,
	);
	expect(requests.length).toBeGreaterThanOrEqual(20);
	expect(requests.length).toBeLessThan(300);
	// Requests aborted in flight are logged when their socket closes, which may come after.
	console.log(`stop: ${after - loggedAtEnd} request(s) logged after the run ended`);
	expect(after - (loggedAtEnd - requests.length)).toBeLessThan(300);
	expect(result.run.status).toBe('canceled');
	// Nothing came out as done: no output items, and the error says what was cut short.
	expect(result.items('Document Signing')).toEqual([]);
	const error = result.runData['Document Signing']?.[0]?.error;
	if (error) expect(error.message).toMatch(/^The execution was stopped: \d+ of 300 items done/);
});

it('a retry wait of two minutes ends at the stop (the test would time out otherwise)', async () => {
	h.retryPolicy({ baseDelayMs: 120_000, maxDelayMs: 120_000 });
	const { result, requests } = await statusBatch(3, 0, 500, { failures: [{ status: 500 }] });
	console.log(
		`retry wait: settled ${(result.settledAt as number) - (result.stoppedAt as number)} ms after the stop`,
	);
	expect(requests.length).toBe(3); // each item's first attempt; no second after the stop
	expect(result.run.status).toBe('canceled');
	expect(result.items('Document Signing')).toEqual([]);
});

it('a request in flight is aborted: the service holds it open, the stop ends it', async () => {
	h.retryPolicy({ timeoutMs: 120_000 });
	const { result, requests } = await statusBatch(2, 0, 500, { timeout: {} });
	console.log(
		`in flight: settled ${(result.settledAt as number) - (result.stoppedAt as number)} ms after the stop`,
	);
	expect(result.run.status).toBe('canceled');
	expect(result.items('Document Signing')).toEqual([]);
	expect(requests.length).toBeLessThanOrEqual(2);
});
