/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: checks n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * A worker killed (SIGKILL, as a lost container) in the middle of a 200-item batch: what n8n
 * does with that execution, that the other worker goes on with a new execution, and that
 * nothing automatic creates or sends a document again. The sandbox's request log shows what
 * the killed execution had done; the service's envelope list (search by title) finds it, as
 * docs/scaling.md tells a user to.
 */
import axios from 'axios';
import { promises as fs } from 'fs';
import path from 'path';

import { sleep, waitFor } from '../../../scripts/lib/stack';
import { check, clients, expect, expectEqual, log, makePdf } from '../../e2e/lib';
import {
	executionWithData,
	type ExecutionSummary,
	finished,
	listExecutions,
	type LoggedRequest,
	type QueueContext,
} from '../lib';

const ITEMS = 200;
const TAG = 'batch-kill';
/** How long n8n may take to settle the killed execution (Bull lock and stalled check: see ../run.ts). */
const SETTLE_MS = 150_000;

export default async function suite({
	queue,
	stack,
	sandbox,
	workflows,
}: QueueContext): Promise<void> {
	const batch = workflows.DsQueueBatch0001;
	expect(batch, 'the batch workflow fixture is missing');
	for (const workspace of ['personal', 'organization'])
		await sandbox.post('/credits', { workspace, balance: 100_000 });
	const folder = path.join(stack.filesDir, 'kill');
	await fs.mkdir(folder, { recursive: true });
	for (let n = 0; n < ITEMS; n++)
		await fs.writeFile(
			path.join(folder, `k-${String(n).padStart(3, '0')}.pdf`),
			await makePdf(`Kill batch document ${n}`),
		);
	const afterFolder = path.join(stack.filesDir, 'after-kill');
	await fs.mkdir(afterFolder, { recursive: true });
	for (let n = 0; n < 3; n++)
		await fs.writeFile(
			path.join(afterFolder, `a-${n}.pdf`),
			await makePdf(`After kill document ${n}`),
		);

	const start = async (pattern: string, tag: string) => {
		const answer = await axios.post(
			`${queue.webhookOrigin}/webhook/queue-batch`,
			{ pattern, tag },
			{ validateStatus: () => true, timeout: 30_000 },
		);
		expectEqual(answer.status, 200, `webhook process answer for ${tag}`);
	};
	const requests = async () => (await sandbox.get('/requests')).data.items as LoggedRequest[];
	const creates = (entries: LoggedRequest[], tag: string) =>
		entries.filter(
			(r) =>
				r.method === 'POST' &&
				r.path === '/api/v1/envelopes' &&
				String(r.body?.title ?? '').startsWith(`${tag} `),
		);
	const sendsOf = (entries: LoggedRequest[]) =>
		entries.filter(
			(r) => r.method === 'POST' && /^\/api\/v1\/envelopes\/[^/]+\/send$/.test(r.path),
		);
	/** Which worker logged "Worker started execution <id>". */
	const startedOn = async (id: string) => {
		for (const name of queue.workerNames)
			if (
				new RegExp(`Worker started execution ${id}\\b`).test(
					await queue.logOf(name).catch(() => ''),
				)
			)
				return name;
		return undefined;
	};
	const known = new Set((await listExecutions(stack, batch.id)).map((e) => e.id));
	const fresh = async () => (await listExecutions(stack, batch.id)).filter((e) => !known.has(e.id));

	await check(
		`queue mode: a worker killed (SIGKILL) in a ${ITEMS}-item batch: the other worker runs a new execution; nothing is created or sent twice`,
		async () => {
			await start(path.join(folder, '*.pdf'), TAG);
			const [killed] = await waitFor(
				'the batch execution to start',
				async () => {
					const list = await fresh();
					return list.length > 0 && list[0].status === 'running' ? list : undefined;
				},
				60_000,
				200,
			);
			known.add(killed.id);
			const worker = await waitFor(
				`the worker of execution ${killed.id}`,
				async () => await startedOn(killed.id),
				30_000,
				200,
			);
			await waitFor(
				'40 creates of the batch',
				async () => creates(await requests(), TAG).length >= 40,
				120_000,
				100,
			);
			await queue.signal(worker, 'SIGKILL');
			const killedAt = Date.now();
			const atKill = await requests();
			log(
				`  figures: killed ${worker} (SIGKILL) with execution ${killed.id} running; ${creates(atKill, TAG).length} creates so far`,
			);

			// The surviving worker takes a new execution.
			const survivor = queue.workerNames.find((n) => n !== worker)!;
			await start(path.join(afterFolder, '*.pdf'), 'after-kill');
			const [after] = await waitFor(
				'the execution started after the kill to finish',
				async () => {
					const list = (await fresh()).filter((e) => e.id !== killed.id);
					return list.length > 0 && finished(list[0]) ? list : undefined;
				},
				120_000,
				500,
			);
			known.add(after.id);
			const afterError = (await executionWithData(stack, after.id)).data?.resultData.error?.message;
			expectEqual(
				[after.status, await startedOn(after.id)],
				['success', survivor],
				`execution ${after.id} started after the kill: status and worker (error: ${afterError ?? 'none'})`,
			);
			log(
				`  figures: execution ${after.id} started after the kill finished on ${survivor} in ${Math.round((Date.parse(after.stoppedAt ?? '') - Date.parse(after.startedAt)) / 1000)} s`,
			);

			// What n8n does with the killed execution, as it happens.
			const transitions: string[] = [];
			let last = '';
			let record: ExecutionSummary | undefined;
			while (Date.now() - killedAt < SETTLE_MS) {
				record = (await listExecutions(stack, batch.id)).find((e) => e.id === killed.id);
				const now = record?.status ?? 'gone';
				if (now !== last)
					transitions.push(`${now} at ${Math.round((Date.now() - killedAt) / 1000)} s`);
				last = now;
				if (record && finished(record)) break;
				await sleep(2000);
			}
			log(`  figures: execution ${killed.id} after the kill: ${transitions.join(', ')}`);
			const lines: string[] = [];
			const about = new RegExp(`execution ${killed.id}\\b|stalled`, 'i');
			for (const name of ['webhook', 'n8n', worker, survivor]) {
				for (const line of (await queue.logOf(name)).split('\n'))
					if (about.test(line)) lines.push(`${name}: ${line.trim().slice(0, 200)}`);
			}
			const killedError = (await executionWithData(stack, killed.id)).data?.resultData.error
				?.message;
			log(`  figures: execution ${killed.id}'s error in n8n: ${killedError ?? '(none)'}`);
			log(
				`  figures: log lines about execution ${killed.id}:\n        ${lines.join('\n        ') || '(none)'}`,
			);
			await sleep(3000);

			// The sandbox: every title created once, every envelope sent once; no create or send after the kill.
			const entries = await requests();
			const made = creates(entries, TAG);
			const titles = new Map<string, number>();
			for (const r of made) titles.set(r.body.title, (titles.get(r.body.title) ?? 0) + 1);
			const createdEnvelopes = await clients(stack).service.get('/envelopes', {
				params: { search: TAG, limit: 100, page: 1 },
			});
			const sends = sendsOf(entries);
			const perEnvelope = new Map<string, number>();
			for (const s of sends) perEnvelope.set(s.path, (perEnvelope.get(s.path) ?? 0) + 1);
			const drafts = await clients(stack).service.get('/envelopes', {
				params: { search: TAG, status: 'draft', limit: 100, page: 1 },
			});
			log(
				`  figures: ${made.length} creates for "${TAG}" (${made.length - creates(atKill, TAG).length} after the kill), ${titles.size} distinct titles; ` +
					`envelopes found by search "${TAG}": ${createdEnvelopes.data?.pageInfo?.total ?? createdEnvelopes.data?.items?.length}; ` +
					`still drafts: ${drafts.data?.pageInfo?.total ?? drafts.data?.items?.length}; sends ${sends.length - sendsOf(atKill).length} after the kill`,
			);
			expectEqual(
				[...titles.values()].filter((n) => n > 1).length,
				0,
				'titles created more than once',
			);
			expectEqual(
				[...perEnvelope.entries()].filter(([, n]) => n > 1).map(([p]) => p),
				[],
				'envelopes sent more than once',
			);
			expect(made.length < ITEMS, `the batch was not cut short: ${made.length} creates`);
			expect(
				record && finished(record),
				`execution ${killed.id} is still "${record?.status}" ${SETTLE_MS / 1000} s after its worker was killed`,
			);
		},
	);

	await check('queue mode: the killed worker started again takes executions', async () => {
		const killed = queue.workerNames.find((name) => queue.pidOf(name) === undefined);
		if (killed) await queue.restart(killed);
		expectEqual(queue.exitedN8nProcesses(), [], 'n8n processes not running');
	});
}
