/**
 * The nodes in a real n8n against the variant service (the sandbox's variant mode: another
 * choice wherever the specification is silent, docs/sandbox.md): Run with a key holding
 * only workflows:write, Get Balance through a changed credential path, the Status Trigger
 * on a status the guesses do not hold (declined), the webhook trigger on an unknown event
 * kind. Credentials and workflows are created through n8n's API; the mode is switched
 * back at the end.
 */
import { randomUUID } from 'crypto';

import { waitFor } from '../../../scripts/lib/stack';
import {
	DOMAINS_FIELD,
	check,
	type E2eContext,
	type Execution,
	executions,
	expect,
	expectEqual,
	output,
} from '../lib';

const ACTION = 'n8n-nodes-document-signing.documentSigning';
const STATUS_TRIGGER = 'n8n-nodes-document-signing.documentSigningStatusTrigger';
const WEBHOOK_TRIGGER = 'n8n-nodes-document-signing.documentSigningTrigger';
const START = 'Start';
const NODE = 'Document Signing';

export default async function suite({ stack, sandbox, service }: E2eContext): Promise<void> {
	const base = stack.sandbox;

	/** A credential created through n8n's public API; its id. */
	async function credential(
		name: string,
		data: Record<string, unknown>,
	): Promise<{ id: string; name: string }> {
		const response = await stack.api.post('/credentials', {
			name,
			type: 'documentSigningApi',
			data: {
				baseUrl: base.baseUrl,
				apiKey: base.apiKey,
				webhookSecret: base.webhookSecret,
				...DOMAINS_FIELD,
				...data,
			},
		});
		expect(
			response.status === 200 || response.status === 201,
			`credential "${name}" (${response.status} ${JSON.stringify(response.data).slice(0, 300)})`,
		);
		return { id: String(response.data.id), name };
	}

	async function workflow(
		name: string,
		nodes: Array<Record<string, unknown>>,
		connections: Record<string, unknown> = {},
	): Promise<string> {
		const response = await stack.api.post('/workflows', {
			name,
			nodes,
			connections,
			settings: { executionOrder: 'v1' },
		});
		expect(
			response.status === 200 || response.status === 201,
			`workflow "${name}" (${response.status} ${JSON.stringify(response.data).slice(0, 300)})`,
		);
		return String(response.data.id);
	}

	/** Manual Trigger -> one node (Document Signing unless `type` says) with `parameters`; runs it once, returns the finished execution. */
	async function runAction(
		name: string,
		parameters: Record<string, unknown>,
		cred: { id: string; name: string },
		type: { type: string; typeVersion: number } = { type: ACTION, typeVersion: 1 },
	): Promise<Execution> {
		const id = await workflow(
			name,
			[
				{
					id: randomUUID(),
					name: START,
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: randomUUID(),
					name: NODE,
					...type,
					position: [220, 0],
					parameters,
					credentials: { documentSigningApi: cred },
				},
			],
			{ [START]: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		);
		const run = await stack.rest.post(`/workflows/${id}/run`, {
			triggerToStartFrom: { name: START },
		});
		expectEqual(
			run.status,
			200,
			`manual run of "${name}" (${JSON.stringify(run.data).slice(0, 300)})`,
		);
		const executionId = String(run.data.data.executionId);
		return await waitFor(
			`"${name}" to finish`,
			async () => {
				const execution = (
					await stack.api.get(`/executions/${executionId}`, { params: { includeData: true } })
				).data as Execution;
				return ['running', 'new', 'waiting'].includes(execution.status) ? undefined : execution;
			},
			60_000,
			500,
		);
	}

	const variant = await sandbox.post('/variant', { on: true });
	expectEqual(variant.data, { variant: true }, 'variant mode on');
	try {
		await check(
			'variant: Run with a key holding only workflows:write posts the run (no workflow read) and outputs the answer whole',
			async () => {
				const template = await service.post('/templates', {
					name: 'Variant deed',
					fileName: 'deed.pdf',
					recipients: [{ id: 'client', name: 'Client', role: 'signer' }],
				});
				expectEqual(template.status, 201, 'template create');
				const put = await fetch(template.data.upload.url, {
					method: 'PUT',
					headers: { 'content-type': 'application/pdf' },
					body: new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n')),
				});
				expect(put.ok, `template upload ${put.status}`);
				const created = await service.post('/workflows', {
					name: 'Variant sale',
					config: {
						documents: [{ templateId: template.data.id, label: 'Deed', required: true }],
						participants: [{ key: 'client', label: 'Buyer', order: 1, role: 'signer' }],
					},
				});
				const workflowId = created.data.definition?.id as string;
				expect(
					workflowId,
					`signing workflow create (${JSON.stringify(created.data).slice(0, 200)})`,
				);
				expectEqual(
					(await service.post(`/workflows/${workflowId}/publish`)).status,
					200,
					'publish',
				);
				const key = await sandbox.post('/keys', {
					workspace: 'personal',
					scopes: ['workflows:write'],
				});
				expectEqual(key.status, 201, 'write-only key');
				const writeOnly = await credential('Variant: workflows:write only', {
					apiKey: key.data.apiKey,
				});
				const reads = await service.get(`/workflow-definitions/${workflowId}`, {
					headers: { Authorization: `Bearer ${key.data.apiKey}` },
				});
				expectEqual(reads.status, 403, 'the key cannot read the workflow');

				const execution = await runAction(
					'Variant: run',
					{
						resource: 'workflow',
						operation: 'run',
						workflowId: { __rl: true, mode: 'id', value: workflowId },
						title: 'Variant run',
						recipientsInput: 'fields',
						runRecipients: {
							recipient: [
								{ participantKey: '={{ "client" }}', name: 'Asha Rao', email: 'asha@example.com' },
							],
						},
					},
					writeOnly,
				);
				expectEqual(
					execution.status,
					'success',
					`run execution (${execution.data?.resultData.error?.message ?? ''})`,
				);
				const json = output(execution, NODE).json;
				expectEqual(
					[
						json.workflowId,
						json.version,
						Array.isArray(json.envelopeIds) && json.envelopeIds.length,
					],
					[workflowId, 1, 1],
					'the run answer, whole',
				);
			},
		);

		await check(
			'variant: Get Balance on the guessed path fails naming "Credit Balance Path"; with the credential path set, the answer whole',
			async () => {
				const plain = await credential('Variant: default paths', {});
				const failed = await runAction(
					'Variant: balance (guessed path)',
					{ resource: 'credit', operation: 'getBalance' },
					plain,
				);
				expectEqual(failed.status, 'error', 'balance on the guessed path');
				const message = failed.data?.resultData.error?.message ?? '';
				expect(
					message.includes('Credit Balance Path') && message.includes('/credits/balance'),
					`the error names the path and the setting: ${message}`,
				);

				const wallet = await credential('Variant: wallet path', {
					creditBalancePath: '/credits/wallet',
				});
				const works = await runAction(
					'Variant: balance (wallet path)',
					{ resource: 'credit', operation: 'getBalance' },
					wallet,
				);
				expectEqual(
					works.status,
					'success',
					`balance with the changed path (${works.data?.resultData.error?.message ?? ''})`,
				);
				expectEqual(
					Object.keys(output(works, NODE).json).sort(),
					['available', 'context', 'reserved', 'unit'],
					'the wallet answer, whole',
				);
			},
		);

		await check(
			"n8n's HTTP Request node takes the credential as a predefined credential type (for endpoints the specification names without a path)",
			async () => {
				const cred = await credential('Variant: HTTP Request', {});
				const execution = await runAction(
					'Variant: HTTP Request with the credential',
					{
						method: 'GET',
						url: `${base.baseUrl}/envelopes`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: 'documentSigningApi',
						options: {},
					},
					cred,
					{ type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2 },
				);
				expectEqual(
					execution.status,
					'success',
					`HTTP Request execution (${execution.data?.resultData.error?.message ?? ''})`,
				);
				const json = output(execution, NODE).json;
				expect(
					Array.isArray(json.items) && json.pageInfo,
					`the envelope list answered with the credential's key: ${JSON.stringify(json).slice(0, 200)}`,
				);
				const log = (await sandbox.get('/requests')).data.items as Array<{
					method: string;
					path: string;
					hasAuthorization: boolean;
					status: number;
				}>;
				const last = log.filter((r) => r.method === 'GET' && r.path.endsWith('/envelopes')).at(-1);
				expectEqual(
					[last?.hasAuthorization, last?.status],
					[true, 200],
					'the request carried the Bearer key',
				);
			},
		);

		await check(
			'variant: the Status Trigger starts once for an envelope declined after activation (Other Statuses); the refused page size is lowered',
			async () => {
				const cred = await credential('Variant: status trigger', {});
				const pollTimes = {
					item: ['0', '20', '40'].map((s) => ({
						mode: 'custom',
						cronExpression: `${s} * * * * *`,
					})),
				};
				const trigger = 'Document Signing Status Trigger';
				const id = await workflow('Variant: declined envelopes', [
					{
						id: randomUUID(),
						name: trigger,
						type: STATUS_TRIGGER,
						typeVersion: 1,
						position: [0, 0],
						parameters: { pollTimes, statuses: [], otherStatuses: 'declined' },
						credentials: { documentSigningApi: cred },
					},
				]);
				const before = await service.post('/envelopes', {
					fileName: 'a.pdf',
					title: 'Declined before',
				});
				await sandbox.post(`/envelopes/${before.data.id}/status`, { status: 'declined' });
				const polls = async () =>
					(
						(await sandbox.get('/requests')).data.items as Array<{
							method: string;
							path: string;
							status: number;
							query: Record<string, string>;
						}>
					).filter(
						(r) =>
							r.method === 'GET' &&
							r.path.endsWith('/envelopes') &&
							r.query.status === 'declined' &&
							r.query.page === '1',
					);
				const activated = await stack.api.post(`/workflows/${id}/activate`, {});
				expectEqual(
					activated.status,
					200,
					`activation (${JSON.stringify(activated.data).slice(0, 300)})`,
				);
				try {
					const baseline = await waitFor(
						'the first poll',
						async () =>
							(await polls()).some((r) => r.status === 200) ? (await polls()).length : undefined,
						75_000,
						500,
					);
					const after = await service.post('/envelopes', {
						fileName: 'b.pdf',
						title: 'Declined after',
					});
					await sandbox.post(`/envelopes/${after.data.id}/status`, { status: 'declined' });
					const runs = await waitFor(
						'an execution of the declined envelope',
						async () => {
							const list = (await executions(stack, id)).filter((e) => e.status === 'success');
							return list.length > 0 ? list : undefined;
						},
						75_000,
						500,
					);
					const items = runs.flatMap(
						(e) => e.data?.resultData.runData[trigger]?.[0]?.data?.main?.[0] ?? [],
					);
					expectEqual(
						items.map((i) => [i.json.envelopeId, i.json.status]),
						[[after.data.id, 'declined']],
						'started once, for the envelope declined after activation',
					);
					const limits = (await polls()).map((r) => [r.status, r.query.limit]);
					expectEqual(
						limits.slice(0, 2),
						[
							[400, '100'],
							[200, '50'],
						],
						'the first poll: 100 refused, 50 taken',
					);
					expect(baseline >= 2, 'the baseline poll read the list');
				} finally {
					await stack.api.post(`/workflows/${id}/deactivate`, {});
				}
			},
		);

		await check(
			'variant: the webhook trigger with Any Other Event (base64 signatures) starts on an unknown kind and outputs it whole',
			async () => {
				const cred = await credential('Variant: webhook trigger', {});
				const webhookId = randomUUID();
				const trigger = 'Document Signing Trigger';
				const id = await workflow('Variant: any other event', [
					{
						id: randomUUID(),
						name: trigger,
						type: WEBHOOK_TRIGGER,
						typeVersion: 1,
						position: [0, 0],
						webhookId,
						parameters: { events: ['otherEvents'], options: { encoding: 'base64' } },
						credentials: { documentSigningApi: cred },
					},
				]);
				const activated = await stack.api.post(`/workflows/${id}/activate`, {});
				expectEqual(
					activated.status,
					200,
					`activation (${JSON.stringify(activated.data).slice(0, 300)})`,
				);
				try {
					const url = stack.webhookUrl(webhookId, 'webhook');
					await waitFor(
						'the production webhook to be served',
						async () => (await fetch(url, { method: 'POST' })).status !== 404 || undefined,
						15_000,
					);
					await stack.subscribe(url);
					const envelope = await service.post('/envelopes', {
						fileName: 'c.pdf',
						title: 'Signed by one',
					});
					const emitted = await sandbox.post(`/envelopes/${envelope.data.id}/events`, {
						event: 'document.recipient.signed',
						data: { signer: 'asha@example.com' },
					});
					expectEqual(emitted.status, 201, 'event emitted');
					const runs = await waitFor(
						'the execution of the unknown kind',
						async () => {
							const list = (await executions(stack, id)).filter((e) => e.status === 'success');
							return list.length > 0 ? list : undefined;
						},
						30_000,
						500,
					);
					const json = output(runs[0], trigger).json;
					expectEqual(
						[json.event, json.verified, json.data?.envelopeId, json.data?.signer],
						['document.recipient.signed', true, envelope.data.id, 'asha@example.com'],
						'the event, whole',
					);
				} finally {
					await stack.api.post(`/workflows/${id}/deactivate`, {});
				}
			},
		);
	} finally {
		const off = await sandbox.post('/variant', { on: false });
		expectEqual(off.data, { variant: false }, 'variant mode off');
	}
}
