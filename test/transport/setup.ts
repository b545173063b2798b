import type { IDataObject } from 'n8n-workflow';

import {
	chain,
	type Harness,
	type HarnessCredentials,
	type RunResult,
	type SeedItem,
	seedNode,
	startHarness,
} from '../harness';
import { PROBE_TYPE, probeNode, TransportProbe } from './probe';

/** The retry waits of probe runs (Retry-After is kept). */
export const PROBE_WAITS = { baseDelayMs: 20, maxDelayMs: 200 };

/**
 * Starts a harness with the probe node for the test file and resets the sandbox before each
 * test. Retry waits are shortened (Retry-After is kept); `h().retryPolicy` changes them for a test.
 */
export function useProbeHarness(): {
	h: () => Harness;
	probe: (
		call: string,
		args: IDataObject | string,
		input?: SeedItem[],
		credentials?: Partial<HarnessCredentials>,
	) => Promise<RunResult>;
} {
	let harness: Harness;
	beforeAll(async () => {
		harness = await startHarness({
			nodeTypes: { [PROBE_TYPE]: new TransportProbe() },
			retry: PROBE_WAITS,
		});
	});
	afterAll(async () => await harness.close());
	beforeEach(async () => await harness.reset());

	return {
		h: () => harness,
		probe: async (call, args, input, credentials) =>
			await harness.run({
				nodes: [seedNode(), probeNode(call, args)],
				connections: chain('Seed', 'Probe'),
				input,
				credentials,
			}),
	};
}

/** The error a run stopped on, as the NodeApiError fields tests look at. */
export function errorOf(result: RunResult) {
	const error = result.error as unknown as {
		message: string;
		description?: string;
		httpCode?: string;
		context: IDataObject;
	};
	if (!error) throw new Error(`expected an error, got ${JSON.stringify(result.items('Probe'))}`);
	return error;
}
