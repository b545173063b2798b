/**
 * runParameters.ts reads `{{ $json.x }}` from the item itself instead of asking n8n. This
 * runs the cases of test/parameter-probe.ts through both, in one execution of n8n-core's
 * engine in-process (the harness, with the source), and fails on any difference: value,
 * type or error. e2e suite 80 runs the same cases in a real n8n of each line.
 */
import { readingOncePerRun } from '../../nodes/shared/api/runParameters';
import { chain, type Harness, seedNode, startHarness } from '../harness';
import {
	CASES,
	COMPARISONS,
	ParameterProbe,
	probeItems,
	probeParameters,
	PROBE_TYPE,
	VALUES,
} from '../parameter-probe';

let h: Harness;
beforeAll(async () => {
	h = await startHarness({ nodeTypes: { [PROBE_TYPE]: new ParameterProbe(readingOncePerRun) } });
});
afterAll(async () => await h.close());

it(`${Object.keys(CASES).length} expressions over ${VALUES.length} values of every type: the shortcut gives what n8n gives`, async () => {
	const result = await h.run({
		nodes: [
			seedNode(),
			{
				id: 'params',
				name: 'Params',
				type: PROBE_TYPE,
				typeVersion: 1,
				position: [200, 0],
				parameters: probeParameters(),
			},
		],
		connections: chain('Seed', 'Params'),
		input: probeItems().map(({ json }) => ({ json })),
	});
	expect(result.error).toBeUndefined();
	const [{ json }] = result.items('Params');
	expect(json.compared).toBe(COMPARISONS);
	expect(json.differences).toEqual([]);
});
