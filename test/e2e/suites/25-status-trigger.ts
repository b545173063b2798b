/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * The Document Signing Status Trigger in a real n8n: an active workflow polled by n8n's
 * scheduler (every 10 s: six poll times a minute, at seconds 0, 10, ... 50; n8n refuses
 * a single poll time that fires more often than once a minute) starts exactly once per
 * envelope completed after its activation, also when more than a page of envelopes is
 * completed between two polls; the example saves the signed PDF.
 */
import axios from 'axios';
import { existsSync, promises as fs } from 'fs';
import path from 'path';
import { PDFDocument } from 'pdf-lib';

import { sleep } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	type Execution,
	executions,
	expect,
	expectEqual,
	log,
	statusPolls,
	makePdf,
	output,
	runManually,
} from '../lib';

export const STATUS_WORKFLOW = 'DsE2eStatusTrg01';
export const EXAMPLE_SIGNED = 'DsExampleSigned1';
const TRIGGER = 'Document Signing Status Trigger';
/** More than one page of the envelope list (its largest page is 100). */
const MANY = 130;

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
	examples,
}: E2eContext): Promise<void> {
	expect(workflows[STATUS_WORKFLOW], 'the status trigger workflow fixture is missing');
	expect(examples[EXAMPLE_SIGNED], 'the "envelope completed" example is missing');
	const pdf = await makePdf('Status trigger contract');

	/** An envelope created, uploaded, sent and signed by its one signer, through the API and the action link. */
	async function completeOne(title: string): Promise<string> {
		const created = await service.post('/envelopes', {
			fileName: 'contract.pdf',
			title,
			recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
		});
		expectEqual(
			created.status,
			201,
			`create "${title}" (${JSON.stringify(created.data).slice(0, 200)})`,
		);
		const put = await axios.put(created.data.upload.url, pdf, {
			headers: { 'Content-Type': 'application/pdf' },
			validateStatus: () => true,
		});
		expectEqual(put.status, 200, `upload of "${title}"`);
		const sent = await service.post(`/envelopes/${created.data.id}/send`, {});
		expectEqual(sent.status, 200, `send "${title}" (${JSON.stringify(sent.data).slice(0, 200)})`);
		for (const recipient of sent.data.recipients as Array<{ actionUrl: string }>) {
			const signed = await axios.post(recipient.actionUrl, {}, { validateStatus: () => true });
			expectEqual(signed.status, 200, `signing "${title}"`);
		}
		return created.data.id as string;
	}

	async function completeMany(prefix: string, count: number): Promise<string[]> {
		const ids: string[] = [];
		for (let start = 0; start < count; start += 10) {
			const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) =>
				completeOne(`${prefix} ${start + i + 1}`),
			);
			ids.push(...(await Promise.all(batch)));
		}
		return ids;
	}

	// The trigger's first-page reads of the completed list.
	const { count: polls, next: nextPoll } = statusPolls(sandbox, 'completed');

	/** Envelope ids each finished execution of the workflow started with. */
	async function started(
		workflowId: string,
	): Promise<Array<{ execution: Execution; ids: string[] }>> {
		const list = await executions(stack, workflowId);
		return list
			.filter((e) => !['running', 'new'].includes(e.status))
			.map((execution) => ({
				execution,
				ids: (execution.data?.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
					(item) => item.json.envelopeId as string,
				),
			}));
	}

	await check(
		`status trigger in n8n: once per envelope completed after activation, over several polls, with ${MANY} (2 pages) completed between two polls`,
		async () => {
			const before = await completeMany('Before activation', 2);
			const activated = await stack.api.post(`/workflows/${STATUS_WORKFLOW}/activate`, {});
			expectEqual(
				activated.status,
				200,
				`activation (${JSON.stringify(activated.data).slice(0, 300)})`,
			);
			// n8n polls once on activation (the baseline), then on its schedule.
			const baseline = await nextPoll(0);
			const firstScheduled = await nextPoll(baseline);

			// Right after a poll, so all of them land between two polls.
			const t0 = Date.now();
			const many = await completeMany('Page batch', MANY);
			const createSeconds = (Date.now() - t0) / 1000;
			expect(
				createSeconds < 7,
				`creating and completing ${MANY} envelopes took ${createSeconds} s, too close to the 10 s between polls`,
			);
			expectEqual(await polls(), firstScheduled, 'polls while the batch was completed');
			const afterBatch = await nextPoll(firstScheduled);

			const few = await completeMany('Later', 3);
			const afterFew = await nextPoll(afterBatch);
			// One more poll with nothing new: it starts nothing.
			await nextPoll(afterFew);
			await sleep(3000);

			const runs = await started(STATUS_WORKFLOW);
			for (const { execution } of runs)
				expectEqual(execution.status, 'success', `execution ${execution.id} status`);
			const all = runs.flatMap((r) => r.ids);
			const expected = [...many, ...few];
			const counts = new Map<string, number>();
			for (const id of all) counts.set(id, (counts.get(id) ?? 0) + 1);
			const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
			expectEqual(twice, [], 'envelopes started more than once');
			expectEqual(
				before.filter((id) => counts.has(id)),
				[],
				'envelopes completed before activation that started',
			);
			expectEqual(
				expected.filter((id) => !counts.has(id)),
				[],
				'completed envelopes that never started',
			);
			expectEqual(all.length, expected.length, 'envelopes started in all');
			// The batch came in one poll: one execution with every one of them.
			const batchRun = runs.find((r) => r.ids.includes(many[0]));
			expectEqual(
				batchRun?.ids.length,
				MANY,
				'items of the execution that the 2-page batch started',
			);
			expectEqual(runs.length, 2, `executions (${runs.map((r) => r.ids.length).join(', ')} items)`);
			log(
				`  ${MANY} envelopes completed in ${createSeconds} s between two polls; ${runs.length} executions with ${runs.map((r) => r.ids.length).join(' and ')} items over ${(await polls()) - baseline + 1} polls`,
			);
			const pages = (
				(await sandbox.get('/requests')).data.items as Array<{
					path: string;
					query: Record<string, string>;
				}>
			).filter((r) => r.path.endsWith('/envelopes') && r.query.status === 'completed');
			expect(
				pages.some((r) => r.query.page === '2'),
				'the trigger never read page 2 of the list',
			);

			const deactivated = await stack.api.post(`/workflows/${STATUS_WORKFLOW}/deactivate`, {});
			expectEqual(deactivated.status, 200, 'deactivation');
			// What n8n stored of the trigger's memory.
			const memory = (deactivated.data.staticData ?? {}) as Record<
				string,
				{ statuses?: Record<string, { seen: Record<string, number> }> }
			>;
			const seen = Object.values(memory)[0]?.statuses?.completed?.seen ?? {};
			log(
				`  stored memory: ${JSON.stringify(memory).length} bytes, ${Object.keys(seen).length} ids`,
			);
			// Started envelopes, and those completed before activation while they are within the
			// overlap a poll reads again (kept so that they never start).
			expect(
				Object.keys(seen).every((id) => expected.includes(id) || before.includes(id)),
				'the stored memory holds ids of envelopes it never listed',
			);
		},
	);

	await check(
		'example "save the signed PDF of each completed envelope": a test run saves the newest completed envelope\'s signed PDF',
		async () => {
			const envelopeId = await completeOne('Example contract');
			const { execution: done } = await runManually(stack, EXAMPLE_SIGNED, TRIGGER);
			expectEqual(
				done.status,
				'success',
				`example run status (${done.data?.resultData.error?.message ?? ''})`,
			);
			const item = output(done, TRIGGER);
			expectEqual(item.json.envelopeId, envelopeId, 'envelope of the sample');
			expectEqual(item.binary?.data?.mimeType, 'application/pdf', 'signed PDF attached');
			const saved = path.join(stack.filesDir, `signed-${envelopeId}.pdf`);
			expect(existsSync(saved), `the example saved no file at ${saved}`);
			const signed = await PDFDocument.load(await fs.readFile(saved));
			expect(
				String(signed.getSubject() ?? '').includes('Asha Rao'),
				`the saved PDF does not name its signer (subject ${signed.getSubject()})`,
			);
		},
	);
}
