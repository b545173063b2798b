/* eslint-disable @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** A signing workflow run in a real n8n (Retry On Fail over cut answers: one envelope per item) and the low credit alert example. */
import axios from 'axios';

import { waitFor } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	type Execution,
	expect,
	expectEqual,
	makePdf,
	output,
} from '../lib';

export const EXAMPLE_CREDITS = 'DsExampleCredit1';
const RUN_WORKFLOW = 'DsE2eSignWflow01';

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
	examples,
}: E2eContext): Promise<void> {
	expect(workflows[RUN_WORKFLOW], 'the signing workflow fixture is missing');
	expect(examples[EXAMPLE_CREDITS], 'the low credit alert example is missing');

	await check(
		'signing workflow run in n8n: 2 buyers, every answer of the first try cut, Retry On Fail -> exactly one envelope per buyer',
		async () => {
			const template = await service.post('/templates', {
				name: 'Sale deed (e2e)',
				fileName: 'sale-deed.pdf',
				recipients: [
					{ id: 'client', name: 'Client', role: 'signer' },
					{ id: 'legal', name: 'Legal', role: 'approver' },
				],
			});
			expectEqual(
				template.status,
				201,
				`template create (${JSON.stringify(template.data).slice(0, 200)})`,
			);
			const upload = await axios.put(template.data.upload.url, await makePdf('Sale deed'), {
				headers: { 'content-type': 'application/pdf' },
				validateStatus: () => true,
			});
			expect(upload.status < 300, `template upload answered ${upload.status}`);
			const created = await service.post('/workflows', {
				name: 'Property sale (e2e)',
				config: {
					documents: [{ templateId: template.data.id, label: 'Sale deed', required: true }],
					participants: [
						{ key: 'client', label: 'Buyer', order: 1, role: 'signer' },
						{ key: 'legal', label: 'Legal', order: 2, role: 'approver' },
					],
					execution: { expiresInDays: 7 },
				},
			});
			const workflowId = created.data.definition?.id as string;
			expect(workflowId, `workflow create (${JSON.stringify(created.data).slice(0, 200)})`);
			expectEqual((await service.post(`/workflows/${workflowId}/publish`)).status, 200, 'publish');

			// 2 items x 4 attempts each: the node's first try fails after the service ran every request.
			const runsPath = `/workflows/${workflowId}/runs`;
			expectEqual(
				(await sandbox.post('/faults', { malformedJson: { path: runsPath, count: 8 } })).status,
				200,
				'fault set',
			);
			try {
				const buyers = [
					{ name: 'Asha Rao', email: 'asha@example.com' },
					{ name: 'Ravi Kumar', email: 'ravi@example.com' },
				];
				const response = await axios.post(
					`${stack.n8nUrl}/webhook/e2e-signing-workflow`,
					{ workflowId, buyers },
					{ validateStatus: () => true, timeout: 120_000 },
				);
				expectEqual(
					response.status,
					200,
					`webhook answer (${JSON.stringify(response.data).slice(0, 300)})`,
				);
				const items = response.data as any[];
				expectEqual(
					items.map((i) => [i.envelope?.title, i.envelope?.status, i.approval?.status]),
					[
						['Sale to Asha Rao', 'pending', 'not_required'],
						['Sale to Ravi Kumar', 'pending', 'not_required'],
					],
					'run outputs',
				);
				expect(
					items.every((i) => String(i.run?.idempotencyKey).startsWith(`n8n:${RUN_WORKFLOW}:`)),
					'automatic idempotency keys',
				);

				const log = (await sandbox.get('/requests')).data.items as Array<{
					method: string;
					path: string;
					fault?: string | null;
				}>;
				const posts = log.filter((r) => r.method === 'POST' && r.path.endsWith(runsPath));
				expectEqual(posts.filter((r) => r.fault === 'malformedJson').length, 8, 'cut answers');
				expect(
					posts.length >= 10,
					`run requests (${posts.length}): 8 cut, then the retried node's 2`,
				);

				const envelopes = await service.get('/envelopes', {
					params: { search: 'Sale to', limit: 100 },
				});
				expectEqual(
					envelopes.data.items.map((e: any) => e.title).sort(),
					['Sale to Asha Rao', 'Sale to Ravi Kumar'],
					'envelopes in the service (one per buyer)',
				);
			} finally {
				await sandbox.post('/faults', {});
			}
		},
	);

	await check(
		'example "low credit alert": enough credits ends at Enough Credits; 5 credits stop with a "Low credits" error',
		async () => {
			const example = examples[EXAMPLE_CREDITS];
			const runOnce = async (balance: number): Promise<Execution> => {
				expectEqual(
					(await sandbox.post('/credits', { workspace: 'personal', balance })).status,
					200,
					'balance set',
				);
				const run = await stack.rest.post(`/workflows/${example.id}/run`, {
					triggerToStartFrom: { name: 'Every Morning' },
				});
				expectEqual(
					run.status,
					200,
					`manual run answered (${JSON.stringify(run.data).slice(0, 300)})`,
				);
				const executionId = String(run.data.data.executionId);
				return await waitFor(
					'the example to finish',
					async () => {
						const execution = (
							await stack.api.get(`/executions/${executionId}`, { params: { includeData: true } })
						).data as Execution;
						return ['running', 'new', 'waiting'].includes(execution.status) ? undefined : execution;
					},
					60_000,
					500,
				);
			};

			const enough = await runOnce(50);
			expectEqual(
				enough.status,
				'success',
				`run with 50 credits (${enough.data?.resultData.error?.message ?? ''})`,
			);
			expectEqual(
				output(enough, 'Enough Credits').json,
				{ context: 'personal', balance: 50, currency: 'credits' },
				'balance passed on',
			);

			const low = await runOnce(5);
			expectEqual(low.status, 'error', 'run with 5 credits');
			expectEqual(
				low.data?.resultData.error?.message,
				'Low credits: 5 credits left (personal balance). Top up before the next signing batch.',
				'the alert text',
			);
		},
	);
}
