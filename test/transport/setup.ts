import type { IDataObject } from 'n8n-workflow';

import { RETRY_POLICY } from '../../nodes/shared/transport';
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

const DEFAULT_POLICY = { ...RETRY_POLICY };

/**
 * Starts a harness with the probe node for the test file, resets the sandbox before each
 * test and restores the retry policy after it. Waits are shortened (Retry-After is kept).
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
		harness = await startHarness({ nodeTypes: { [PROBE_TYPE]: new TransportProbe() } });
	});
	afterAll(async () => await harness.close());
	beforeEach(async () => {
		Object.assign(RETRY_POLICY, DEFAULT_POLICY, { baseDelayMs: 20, maxDelayMs: 200 });
		await harness.reset();
	});
	afterEach(() => Object.assign(RETRY_POLICY, DEFAULT_POLICY));

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
