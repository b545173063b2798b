/**
 * nodes/shared/api/runParameters.ts reads `{{ $json.x }}` from the item itself instead of asking
 * n8n: in this n8n (each line), the probe of test/parameter-probe.ts reads every case over
 * every value through the installed package's shortcut and through n8n's own
 * `getNodeParameter`, and any difference (value, type or error) fails the check.
 */
import {
	CASES,
	COMPARISONS,
	type ProbeAnswer,
	probeParameters,
	PROBE_TYPE,
	VALUES,
	VALUES_TYPE,
} from '../../parameter-probe';
import { CUSTOM } from '../custom-nodes';
import { check, type E2eContext, expect, expectEqual, output, runManually } from '../lib';

/** Differences printed in full; the rest are counted. */
const SHOWN = 30;

export default async function suite({ stack }: E2eContext): Promise<void> {
	await check(
		`n8n ${stack.line.version}: ${Object.keys(CASES).length} expressions over ${VALUES.length} values of every type read through the shortcut give what n8n's getNodeParameter gives`,
		async () => {
			const node = (name: string, type: string, x: number, parameters = {}) => ({
				id: `probe-${x}`,
				name,
				type,
				typeVersion: 1,
				position: [x * 220, 0],
				parameters,
			});
			const created = await stack.api.post('/workflows', {
				name: 'E2E: runParameters against getNodeParameter',
				nodes: [
					node('Start', 'n8n-nodes-base.manualTrigger', 0),
					node('Values', `${CUSTOM}.${VALUES_TYPE}`, 1),
					node('Params', `${CUSTOM}.${PROBE_TYPE}`, 2, probeParameters()),
				],
				connections: {
					Start: { main: [[{ node: 'Values', type: 'main', index: 0 }]] },
					Values: { main: [[{ node: 'Params', type: 'main', index: 0 }]] },
				},
				settings: {},
			});
			expect(
				created.status === 200,
				`creating the workflow: ${created.status} ${JSON.stringify(created.data).slice(0, 300)}`,
			);
			const { execution } = await runManually(stack, created.data.id as string, 'Start');
			expectEqual(
				execution.status,
				'success',
				`probe run status (${execution.data?.resultData.error?.message ?? ''})`,
			);
			const answer = output(execution, 'Params').json as ProbeAnswer;
			const { differences } = answer;
			expect(
				differences.length === 0,
				`${differences.length} of ${answer.compared} readings differ:\n${differences
					.slice(0, SHOWN)
					.map((d) => JSON.stringify(d))
					.join(
						'\n',
					)}${differences.length > SHOWN ? `\n(${differences.length - SHOWN} more)` : ''}`,
			);
			expectEqual(answer.compared, COMPARISONS, 'readings compared');
		},
	);
}
