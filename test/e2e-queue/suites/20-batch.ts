/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: checks n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * An action batch in queue mode: 200 PDFs read from disk (binary data in n8n's `database`
 * mode, the queue-mode default), each made an envelope and sent, run by a worker; then the
 * same 200 split into 4 executions at once, which both workers share. The sandbox counts
 * creates and sends (none twice), and its signed `document.sent` deliveries to the webhook
 * process start one trigger execution each on the workers.
 */
import axios from 'axios';
import { promises as fs } from 'fs';
import path from 'path';

import { sleep, waitFor } from '../../../scripts/lib/stack';
import { check, expect, expectEqual, log, makePdf, triggerWebhookId } from '../../e2e/lib';
import {
	executionWithData,
	type ExecutionSummary,
	finished,
	listExecutions,
	type LoggedRequest,
	perProcess,
	processLog,
	type QueueContext,
} from '../lib';

const ITEMS = 200;
const PARTS = 4;

export default async function suite({
	queue,
	stack,
	sandbox,
	workflows,
}: QueueContext): Promise<void> {
	const batch = workflows.DsQueueBatch0001;
	const allEvents = workflows.DsE2eTriggerAll1;
	expect(batch && allEvents, 'a queue workflow fixture is missing');

	for (const workspace of ['personal', 'organization']) {
		const credits = await sandbox.post('/credits', { workspace, balance: 100_000 });
		expectEqual(credits.status, 200, `setting the sandbox's ${workspace} credits`);
	}
	// The service's own signed deliveries of every send go to the webhook process.
	const triggerUrl = queue.webhookUrl(triggerWebhookId(allEvents), 'webhook');
	await stack.subscribe(triggerUrl, ['document.sent']);

	const folder = path.join(stack.filesDir, 'batch');
	await fs.mkdir(folder, { recursive: true });
	for (let n = 0; n < ITEMS; n++) {
		const name = `q-${n % PARTS}-${String(n).padStart(3, '0')}.pdf`;
		await fs.writeFile(path.join(folder, name), await makePdf(`Queue batch document ${n}`));
	}

	const start = async (pattern: string, tag: string) => {
		const answer = await axios.post(
			`${queue.webhookOrigin}/webhook/queue-batch`,
			{ pattern, tag },
			{ validateStatus: () => true, timeout: 30_000 },
		);
		expectEqual(answer.status, 200, `webhook process answer for ${tag}`);
	};
	const known = new Set((await listExecutions(stack, batch.id)).map((e) => e.id));
	/** The next `count` executions of the batch workflow, once finished. */
	const nextRuns = async (count: number): Promise<ExecutionSummary[]> =>
		await waitFor(
			`${count} batch execution(s) to finish`,
			async () => {
				const fresh = (await listExecutions(stack, batch.id)).filter((e) => !known.has(e.id));
				return fresh.length >= count && fresh.every(finished) ? fresh : undefined;
			},
			600_000,
			1000,
		);
	const requests = async () => (await sandbox.get('/requests')).data.items as LoggedRequest[];

	/** Creates and sends in the sandbox for a tag: every item created once and sent once. */
	const checkSandbox = async (tag: string, envelopeIds: string[]) => {
		const entries = await requests();
		const creates = entries.filter(
			(r) =>
				r.method === 'POST' &&
				r.path === '/api/v1/envelopes' &&
				String(r.body?.title ?? '').startsWith(`${tag} `),
		);
		expectEqual(creates.length, ITEMS, `create requests for ${tag}`);
		expectEqual(
			new Set(creates.map((r) => r.body.title)).size,
			ITEMS,
			`distinct titles created for ${tag}`,
		);
		expectEqual(creates.filter((r) => r.status !== 201).length, 0, 'creates not answered 201');
		expectEqual(
			new Set(envelopeIds).size,
			ITEMS,
			`distinct envelope ids in n8n's output for ${tag}`,
		);
		const ids = new Set(envelopeIds);
		const sends = entries.filter(
			(r) =>
				r.method === 'POST' &&
				/^\/api\/v1\/envelopes\/[^/]+\/send$/.test(r.path) &&
				ids.has(r.path.split('/')[4]),
		);
		expectEqual(sends.length, ITEMS, `send requests for ${tag}`);
		expectEqual(
			new Set(sends.map((r) => r.path)).size,
			ITEMS,
			`distinct envelopes sent for ${tag}`,
		);
		expectEqual(
			sends.filter((r) => r.status === null || r.status >= 300).length,
			0,
			'sends not answered 2xx',
		);
	};
	/** Envelope ids of Create Envelope's output, and the binary ids of Read PDFs. */
	const outputsOf = async (id: string) => {
		const full = await executionWithData(stack, id);
		const runData = full.data?.resultData.runData ?? {};
		const items = (node: string) => runData[node]?.[0]?.data?.main?.[0] ?? [];
		const sent = items('Send Envelope');
		return {
			envelopeIds: items('Create Envelope').map((i) => String(i.json.id)),
			binaryIds: items('Read PDFs').map((i) => String(i.binary?.data?.id ?? '')),
			sentErrors: sent.filter((i) => i.json.error !== undefined).length,
			sent: sent.length,
			error: full.data?.resultData.error?.message,
		};
	};

	await check(
		`queue mode: ${ITEMS} PDFs in one execution on a worker: ${ITEMS} envelopes created and sent, none twice, binary data in the database`,
		async () => {
			await start(path.join(folder, '*.pdf'), 'batch-all');
			const [run] = await nextRuns(1);
			known.add(run.id);
			const seconds = (Date.parse(run.stoppedAt ?? '') - Date.parse(run.startedAt)) / 1000;
			const out = await outputsOf(run.id);
			expectEqual(
				[run.status, out.error ?? null],
				['success', null],
				`execution ${run.id} status and error`,
			);
			log(`  figures: ${ITEMS} items in execution ${run.id}, ${seconds.toFixed(1)} s`);
			expectEqual(
				[out.sent, out.sentErrors],
				[ITEMS, 0],
				'items out of Send Envelope, and items with an error',
			);
			expectEqual(
				out.binaryIds.filter((id) => !id.startsWith('database:')).length,
				0,
				'PDF binary ids not in database mode',
			);
			await checkSandbox('batch-all', out.envelopeIds);
			const { ranBy, enqueuedBy } = await processLog(queue);
			expectEqual(enqueuedBy.get(run.id), 'webhook', `process that enqueued execution ${run.id}`);
			expect(
				queue.workerNames.includes(ranBy.get(run.id) ?? ''),
				`execution ${run.id} was not run by a worker (${ranBy.get(run.id) ?? 'no log line'})`,
			);
		},
	);

	await check(
		`queue mode: the same ${ITEMS} PDFs in ${PARTS} executions at once use both workers; ${ITEMS} created and sent, none twice`,
		async () => {
			const t0 = Date.now();
			await Promise.all(
				Array.from(
					{ length: PARTS },
					async (_, p) => await start(path.join(folder, `q-${p}-*.pdf`), 'batch-split'),
				),
			);
			const runs = await nextRuns(PARTS);
			for (const run of runs) known.add(run.id);
			log(
				`  figures: ${ITEMS} items in ${PARTS} executions, ${((Date.now() - t0) / 1000).toFixed(1)} s from the first request to the last finish`,
			);
			const envelopeIds: string[] = [];
			for (const run of runs) {
				const out = await outputsOf(run.id);
				expectEqual(
					[run.status, out.error ?? null, out.sent, out.sentErrors],
					['success', null, ITEMS / PARTS, 0],
					`execution ${run.id} status, error, items sent, items with an error`,
				);
				envelopeIds.push(...out.envelopeIds);
			}
			await checkSandbox('batch-split', envelopeIds);
			const { ranBy } = await processLog(queue);
			const counts = perProcess(
				runs.map((r) => r.id),
				ranBy,
			);
			log(`  figures: executions per worker ${JSON.stringify(counts)}`);
			expectEqual(
				Object.keys(counts).sort(),
				[...queue.workerNames].sort(),
				'processes that ran the 4 executions',
			);
		},
	);

	await check(
		`queue mode: the service's ${2 * ITEMS} signed document.sent deliveries to the webhook process start one execution each, on the workers`,
		async () => {
			const deliveries = await waitFor(
				'the sandbox to finish its deliveries',
				async () => {
					const items = (
						(await sandbox.get('/webhooks/deliveries')).data.items as Array<{
							url: string;
							eventId: string;
							delivered: boolean;
							finished: boolean;
						}>
					).filter((d) => d.url === triggerUrl);
					return items.length >= 2 * ITEMS && items.every((d) => d.finished) ? items : undefined;
				},
				300_000,
				1000,
			);
			expectEqual(deliveries.filter((d) => !d.delivered).length, 0, 'deliveries not accepted');
			expectEqual(
				new Set(deliveries.map((d) => d.eventId)).size,
				2 * ITEMS,
				'distinct events delivered',
			);
			const runs = await waitFor(
				`${2 * ITEMS} trigger executions`,
				async () => {
					const list = (await listExecutions(stack, allEvents.id)).filter(finished);
					return list.length >= 2 * ITEMS ? list : undefined;
				},
				300_000,
				1000,
			);
			await sleep(2000);
			const settled = await listExecutions(stack, allEvents.id);
			expectEqual(settled.length, 2 * ITEMS, 'trigger executions');
			expectEqual(
				settled.filter((e) => e.status !== 'success').length,
				0,
				'trigger executions not successful',
			);
			const { ranBy } = await processLog(queue);
			const counts = perProcess(
				runs.map((r) => r.id),
				ranBy,
			);
			log(`  figures: trigger executions per worker ${JSON.stringify(counts)}`);
			expect(
				!('no worker' in counts),
				`trigger executions without a worker's log line: ${JSON.stringify(counts)}`,
			);
			const all = perProcess([...ranBy.keys()], ranBy);
			log(`  figures: all executions per worker ${JSON.stringify(all)}`);
		},
	);
}
