/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** The webhook trigger in n8n: signed deliveries from a real e-stamped send, filtering, forged deliveries. */
import axios from 'axios';
import { createHmac } from 'crypto';

import { waitFor } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	executions,
	expect,
	expectEqual,
	makePdf,
	output,
	triggerWebhookId,
} from '../lib';

const ESTAMP_EVENTS = ['document.estamp.started', 'document.estamp.completed', 'document.sent'];

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
}: E2eContext): Promise<void> {
	const all = workflows.DsE2eTriggerAll1;
	const filtered = workflows.DsE2eTriggerFlt1;
	expect(all && filtered, 'a trigger workflow fixture is missing');
	const allUrl = stack.webhookUrl(triggerWebhookId(all), 'webhook');
	const filteredUrl = stack.webhookUrl(triggerWebhookId(filtered), 'webhook');

	await check('the trigger workflows are active in n8n', async () => {
		for (const workflow of [all, filtered]) {
			const response = await stack.api.get(`/workflows/${workflow.id}`);
			expectEqual(response.status, 200, `GET /api/v1/workflows/${workflow.id} status`);
			expectEqual(response.data.active, true, `"${workflow.name}" active`);
		}
		// n8n registers production webhooks shortly after start: wait until the URL answers.
		await waitFor(
			'the production webhook to be served',
			async () => (await axios.post(allUrl, {}, { validateStatus: () => true })).status !== 404,
			15_000,
		);
	});

	let estampEnvelopeId = '';

	await check(
		'a real e-stamped send delivers signed events that start executions in order with the envelope id',
		async () => {
			for (const url of [allUrl, filteredUrl]) await stack.subscribe(url);
			const timing = await sandbox.post('/estamp', { acceptAfterMs: 300, completeAfterMs: 300 });
			expectEqual(timing.status, 200, 'POST /__sandbox/estamp status');

			const created = await service.post('/envelopes', {
				fileName: 'stamped-lease.pdf',
				title: 'Stamped lease (e2e)',
				recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
				workflow: {
					estampEnabled: true,
					estampConfig: {
						state: 'KA',
						article: 'Affidavit',
						amount: '100',
						considerationAmount: '0',
						firstParty: {
							name: 'Asha Rao',
							email: 'asha@example.com',
							address: '12 MG Road, Bengaluru',
						},
						secondParty: {
							name: 'Vikram Shah',
							email: 'vikram@example.com',
							address: '4 Park Street, Bengaluru',
						},
					},
				},
			});
			expect(
				created.status === 200 || created.status === 201,
				`POST /envelopes answered ${created.status}: ${JSON.stringify(created.data).slice(0, 300)}`,
			);
			estampEnvelopeId = created.data.id;
			const upload = await axios.put(created.data.upload.url, await makePdf('Stamped lease'), {
				headers: { 'Content-Type': 'application/pdf' },
				validateStatus: () => true,
			});
			expect(upload.status >= 200 && upload.status < 300, `PDF upload answered ${upload.status}`);
			const sent = await service.post(`/envelopes/${estampEnvelopeId}/send`, {});
			expectEqual(sent.status, 202, 'send with e-stamping status');

			const runs = await waitFor(
				'three executions of the trigger workflow',
				async () => {
					const list = await executions(stack, all.id);
					return list.length >= 3 && list.every((e) => e.status !== 'running' && e.status !== 'new')
						? list
						: undefined;
				},
				30_000,
				500,
			);
			expectEqual(runs.length, 3, 'executions started by the three deliveries');
			const events = runs.map((run) => {
				expectEqual(run.status, 'success', `execution ${run.id} status`);
				return output(run, 'Document Signing Trigger').json;
			});
			expectEqual(
				events.map((e) => e.event),
				ESTAMP_EVENTS,
				'event kinds in execution order',
			);
			expectEqual(
				events.map((e) => e.data?.envelopeId),
				[estampEnvelopeId, estampEnvelopeId, estampEnvelopeId],
				'data.envelopeId',
			);
			expectEqual(
				events.map((e) => e.verified),
				[true, true, true],
				'verified',
			);
			const completed = events[1].data;
			expect(
				completed.certificateId && completed.transactionId,
				`the completed event lacks certificateId/transactionId: ${JSON.stringify(completed)}`,
			);
		},
	);

	await check(
		'a workflow that selects other events acknowledges them (200) and starts nothing',
		async () => {
			const deliveries = await waitFor(
				'the deliveries to the filtering workflow',
				async () => {
					const response = await sandbox.get('/webhooks/deliveries');
					const mine = (response.data.items as Array<Record<string, any>>).filter(
						(d) => d.url === filteredUrl,
					);
					return mine.length >= 3 && mine.every((d) => d.finished) ? mine : undefined;
				},
				30_000,
				500,
			);
			expectEqual(
				deliveries.map((d) => d.event),
				ESTAMP_EVENTS,
				'events delivered to the filtering workflow',
			);
			expectEqual(
				deliveries.map((d) => d.attempts.at(-1)?.status),
				[200, 200, 200],
				'HTTP status n8n answered',
			);
			expectEqual(
				(await executions(stack, filtered.id)).length,
				0,
				'executions of the filtering workflow',
			);
		},
	);

	await check('forged and unsigned deliveries get 401 and start nothing', async () => {
		const before = (await executions(stack, all.id)).length;
		const body = JSON.stringify({
			id: 'evt_forged_1',
			event: 'document.sent',
			createdAt: new Date().toISOString(),
			data: {
				envelopeId: estampEnvelopeId || 'env_forged',
				title: 'Forged',
				status: 'pending',
				recipients: [],
				occurredAt: new Date().toISOString(),
			},
		});
		const send = async (headers: Record<string, string>) =>
			await axios.post(allUrl, body, {
				headers: { 'Content-Type': 'application/json', ...headers },
				validateStatus: () => true,
			});
		const forged = await send({
			'X-Service-Signature': createHmac('sha256', 'not-the-secret').update(body).digest('hex'),
		});
		expectEqual(forged.status, 401, 'forged signature status');
		const unsigned = await send({});
		expectEqual(unsigned.status, 401, 'unsigned status');
		// The right secret over other bytes than those sent is forged too.
		const tampered = await send({
			'X-Service-Signature': createHmac('sha256', stack.sandbox.webhookSecret)
				.update(`${body} `)
				.digest('hex'),
		});
		expectEqual(tampered.status, 401, 'signature over other bytes status');
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expectEqual(
			(await executions(stack, all.id)).length,
			before,
			'executions after the refused deliveries',
		);
	});
}
