/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * What a workflow is told in a real n8n: failures leave on the error output, and Stop
 * stops a batch (nothing new reaches the service after it, nothing reported done).
 */
import axios from 'axios';

import { waitFor } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	type Execution,
	executions,
	expect,
	expectEqual,
	log,
} from '../lib';

const ERROR_OUTPUT = 'DsE2eErrorOut001';
const STOP_BATCH = 'DsE2eStopBatch01';

type Item = { json: Record<string, any>; pairedItem?: { item: number } | Array<{ item: number }> };
const pairedOf = (item: Item) =>
	Array.isArray(item.pairedItem) ? item.pairedItem[0]?.item : item.pairedItem?.item;

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
}: E2eContext): Promise<void> {
	expect(
		workflows[ERROR_OUTPUT] && workflows[STOP_BATCH],
		'a workflow fixture of suite 33 is missing',
	);

	await check(
		'On Error "Continue (using error output)": validation, 404, 500, malformed and reset failures on the error output, successes on output 0, paired',
		async () => {
			const draft = async () => {
				const created = await service.post('/envelopes', {
					fileName: 'a.pdf',
					title: 'Error output',
					recipients: [{ name: 'Vikram Shah', email: 'vikram@example.com', role: 'signer' }],
				});
				expectEqual(created.status, 201, 'seeding a draft');
				return created.data.id as string;
			};
			const [good1, good2, failing, malformed, reset] = [
				await draft(),
				await draft(),
				await draft(),
				await draft(),
				await draft(),
			];
			const rows = [
				{ row: 'good', envelopeId: good1, email: 'asha@example.com' },
				{ row: 'validation', envelopeId: good1, email: 'asha@' },
				{ row: '404', envelopeId: 'env_does_not_exist', email: 'asha@example.com' },
				{ row: '500', envelopeId: failing, email: 'asha@example.com' },
				{ row: 'malformed', envelopeId: malformed, email: 'asha@example.com' },
				{ row: 'reset', envelopeId: reset, email: 'asha@example.com' },
				{ row: 'good', envelopeId: good2, email: 'asha@example.com' },
			];
			const faults = await sandbox.post('/faults', {
				failures: [{ status: 500, path: `/envelopes/${failing}/` }],
				malformedJson: { path: `/envelopes/${malformed}/` },
				connectionReset: { path: `/envelopes/${reset}/` },
			});
			expectEqual(faults.status, 200, 'faults set');
			const known = (await executions(stack, workflows[ERROR_OUTPUT].id)).length;
			try {
				const started = await axios.post(
					`${stack.n8nUrl}/webhook/e2e-error-output`,
					{ rows },
					{ validateStatus: () => true, timeout: 30_000 },
				);
				expectEqual(started.status, 200, 'webhook answered');
				const execution = await waitFor(
					'the error-output run to finish',
					async () => {
						const list = await executions(stack, workflows[ERROR_OUTPUT].id);
						const run = list[known];
						return run && !['running', 'new', 'waiting'].includes(run.status) ? run : undefined;
					},
					60_000,
					500,
				);
				expectEqual(
					execution.status,
					'success',
					`run status (${execution.data?.resultData.error?.message ?? ''})`,
				);
				const runData = execution.data!.resultData.runData as Record<string, any>;
				const main = runData['Add Recipient'][0].data.main as Item[][];
				const ok = main[0] ?? [];
				const failed = main[1] ?? [];
				expectEqual(ok.map(pairedOf), [0, 6], 'items on output 0 (paired to their input)');
				expectEqual(
					failed.map(pairedOf),
					[1, 2, 3, 4, 5],
					'items on the error output (paired to their input)',
				);
				expect(
					ok.every((item) => item.json.error === undefined),
					'an item on output 0 carries an error',
				);
				// n8n puts the input's fields beside the error: the row names which input it was.
				expectEqual(
					failed.map((item) => item.json.row),
					['validation', '404', '500', 'malformed', 'reset'],
					'rows of the error items',
				);
				const errors = Object.fromEntries(
					failed.map((item) => [item.json.row, item.json.error as Record<string, any>]),
				);
				expect(
					String(errors.validation?.message).includes('Recipient 1 > Email'),
					`validation message: ${JSON.stringify(errors.validation)}`,
				);
				expect(
					Array.isArray(errors.validation?.fieldErrors) &&
						errors.validation.fieldErrors[0].startsWith('Recipient 1 > Email'),
					`field errors: ${JSON.stringify(errors.validation)}`,
				);
				expectEqual(
					[errors['404']?.code, errors['404']?.httpCode, typeof errors['404']?.requestId],
					['NOT_FOUND', '404', 'string'],
					'the 404 error',
				);
				expectEqual(
					[errors['500']?.httpCode, typeof errors['500']?.requestId],
					['500', 'string'],
					'the 500 error',
				);
				expectEqual(errors.malformed?.code, 'MALFORMED_RESPONSE', 'the malformed answer');
				log(`connection reset on the error output: ${JSON.stringify(errors.reset).slice(0, 400)}`);
				expectEqual(errors.reset?.code, 'ECONNRESET', 'the connection reset');
				expect(
					String(errors.reset?.description).includes('may have reached the service'),
					'the reset POST is not said to have maybe arrived',
				);
				const marked = (runData['Mark Sent'][0].data.main[0] as Item[]).map(
					(item) => item.json.envelopeId ?? item.json.id,
				);
				expectEqual(marked.length, 2, 'items that reached "Mark Sent"');
				const handled = runData['Handle Failure'][0].data.main[0] as Item[];
				expectEqual(handled.length, 5, 'items that reached "Handle Failure"');
			} finally {
				await sandbox.post('/faults', {});
			}
		},
	);

	await check(
		"Stop: a 500-item create at 100 requests per second, stopped after 2 s through n8n's stop endpoint: no request after the stop, the run ends as stopped",
		async () => {
			expectEqual(
				(await sandbox.post('/faults', { rateLimitPerSecond: 100 })).status,
				200,
				'rate limit set',
			);
			try {
				// One API round trip, measured: what a request in flight at the stop may still take.
				const probeStart = Date.now();
				await service.get('/envelopes', { params: { limit: 1 } });
				const roundTripMs = Date.now() - probeStart;
				const before = ((await sandbox.get('/requests')).data.items as unknown[]).length;

				const run = await stack.rest.post(`/workflows/${STOP_BATCH}/run`, {
					triggerToStartFrom: { name: 'Start' },
				});
				expectEqual(
					run.status,
					200,
					`manual run answered (${JSON.stringify(run.data).slice(0, 300)})`,
				);
				const executionId = String(run.data.data.executionId);
				await new Promise((resolve) => setTimeout(resolve, 2000));

				const stopAskedAt = Date.now();
				const stop = await stack.rest.post(`/executions/${executionId}/stop`, {});
				const stopAnsweredAt = Date.now();
				expectEqual(stop.status, 200, `stop answered (${JSON.stringify(stop.data).slice(0, 300)})`);
				const execution = await waitFor(
					'the stopped run to end',
					async () => {
						const response = await stack.api.get(`/executions/${executionId}`, {
							params: { includeData: true },
						});
						return response.status === 200 && !['running', 'new'].includes(response.data.status)
							? (response.data as Execution)
							: undefined;
					},
					60_000,
					50,
				);
				const endedAt = Date.now();
				// Whatever was in flight has arrived by now.
				await new Promise((resolve) => setTimeout(resolve, 1000));
				const requests = (
					(await sandbox.get('/requests')).data.items as Array<{
						method: string;
						path: string;
						time: string;
						status: number | null;
					}>
				).slice(before);
				const creates = requests.filter(
					(r) => r.method === 'POST' && r.path === '/api/v1/envelopes',
				);
				const lastStart = Math.max(...creates.map((r) => Date.parse(r.time)));
				const late = creates.filter((r) => Date.parse(r.time) > stopAnsweredAt + roundTripMs);
				log(
					`stop: ${creates.length} of 500 creates reached the service (${creates.filter((r) => r.status === 201).length} created, ${creates.filter((r) => r.status === 429).length} answered 429); ` +
						`stop asked at +0 ms, answered +${stopAnsweredAt - stopAskedAt} ms, last create arrived ${lastStart - stopAskedAt} ms, run seen ended +${endedAt - stopAskedAt} ms (round trip ${roundTripMs} ms); status ${execution.status}`,
				);
				expectEqual(
					late.map((r) => r.time),
					[],
					'creates that arrived after the stop and one round trip',
				);
				expect(
					creates.length > 0 && creates.length < 500,
					`creates that reached the service: ${creates.length}`,
				);
				expect(execution.status !== 'success', `the stopped run ended as ${execution.status}`);
				expectEqual(execution.status, 'canceled', 'status of the stopped run');
				const out = (execution.data?.resultData.runData['Create Envelope']?.[0]?.data?.main?.[0] ??
					[]) as Item[];
				expect(out.length < 500, `the stopped node reported ${out.length} items done`);
			} finally {
				await sandbox.post('/faults', {});
			}
		},
	);
}
