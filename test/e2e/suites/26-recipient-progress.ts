/**
 * The Status Trigger's "Recipient Acted" mode in a real n8n, polled by n8n's scheduler every
 * 10 s (six poll times a minute): a sequential envelope with three recipients, signed one by
 * one through the sandbox's signing pages between polls, starts one run per recipient; a
 * decline (a recipient status the specification does not show, set through the sandbox)
 * starts one run as "other"; n8n restarted between two signatures loses and repeats nothing.
 */
import axios from 'axios';

import {
	check,
	type E2eContext,
	restartN8n,
	runManually,
	executions,
	expect,
	expectEqual,
	log,
	statusPolls,
	makePdf,
	output,
} from '../lib';

const WORKFLOW = 'DsE2eRecipActed1';
const EXAMPLE = 'DsExampleSigner1';
const TRIGGER = 'Document Signing Status Trigger';

export default async function suite({
	stack,
	sandbox,
	service,
	workflows,
	examples,
}: E2eContext): Promise<void> {
	expect(workflows[WORKFLOW], 'the recipient-acted workflow fixture is missing');
	expect(examples[EXAMPLE], 'the "when a signer signs, post to the team" example is missing');
	const pdf = await makePdf('Recipient progress contract');

	async function sentEnvelope(title: string, recipients: Array<Record<string, unknown>>) {
		const created = await service.post('/envelopes', {
			fileName: 'contract.pdf',
			title,
			recipients,
			workflow: { mode: 'sequential' },
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
		expectEqual(sent.status, 200, `send "${title}"`);
		const list = (
			sent.data.recipients as Array<{ id: string; order: number; actionUrl: string }>
		).sort((a, b) => a.order - b.order);
		return { id: created.data.id as string, recipients: list };
	}

	async function sign(actionUrl: string, what: string): Promise<void> {
		const signed = await axios.post(actionUrl, {}, { validateStatus: () => true });
		expectEqual(signed.status, 200, `${what} (${JSON.stringify(signed.data).slice(0, 200)})`);
	}

	// The trigger's first-page reads of the whole envelope list.
	const { count: polls, next: nextPoll } = statusPolls(sandbox, undefined);

	await check(
		'recipient acted in n8n: 3 sequential signatures start 3 runs with the right recipient each, a decline starts one "other" run, a restart loses and repeats nothing',
		async () => {
			const lease = await sentEnvelope('Sequential lease', [
				{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer', order: 1 },
				{ name: 'Vikram Shah', email: 'vikram@example.com', role: 'approver', order: 2 },
				{ name: 'Meera Iyer', email: 'meera@example.com', role: 'signer', order: 3 },
			]);
			const declined = await sentEnvelope('Declined offer', [
				{ name: 'Ravi Menon', email: 'ravi@example.com', role: 'signer', order: 1 },
			]);

			const start = await polls();
			const activated = await stack.api.post(`/workflows/${WORKFLOW}/activate`, {});
			expectEqual(
				activated.status,
				200,
				`activation (${JSON.stringify(activated.data).slice(0, 300)})`,
			);
			const baseline = await nextPoll(start);

			await sign(lease.recipients[0].actionUrl, 'first signature');
			const afterFirst = await nextPoll(baseline);
			await nextPoll(afterFirst);
			await sign(lease.recipients[1].actionUrl, 'approval');
			// Restarted before any poll saw the approval.
			await restartN8n(stack);
			const afterRestart = await nextPoll(await polls());
			await sign(lease.recipients[2].actionUrl, 'last signature');
			const set = await sandbox.post(
				`/envelopes/${declined.id}/recipients/${declined.recipients[0].id}/status`,
				{ status: 'declined', envelopeStatus: 'declined' },
			);
			expectEqual(set.status, 200, 'decline through the sandbox');
			const afterLast = await nextPoll(afterRestart);
			await nextPoll(afterLast);

			const runs = (await executions(stack, WORKFLOW)).filter(
				(e) => !['running', 'new'].includes(e.status),
			);
			for (const run of runs) expectEqual(run.status, 'success', `execution ${run.id} status`);
			const items = runs.flatMap((run) =>
				(run.data?.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
					(item) => item.json,
				),
			);
			const seen = items.map(
				(json) =>
					`${json.envelopeId as string}#${json.recipient?.order as number}:${json.recipient?.status as string}:${json.change as string}`,
			);
			expectEqual(
				seen.sort(),
				[
					`${declined.id}#1:declined:other`,
					`${lease.id}#1:signed:signed`,
					`${lease.id}#2:approved:other`,
					`${lease.id}#3:signed:signed`,
				].sort(),
				'recipient actions started (envelope#order:status:change)',
			);
			const ids = items
				.filter((json) => json.envelopeId === lease.id)
				.map((json) => json.recipient?.id as string);
			expectEqual(
				ids,
				lease.recipients.map((r) => r.id),
				'recipient ids of the lease runs, in signing order',
			);
			const last = items.find(
				(json) => json.envelopeId === lease.id && json.recipient?.order === 3,
			);
			expectEqual(
				[last?.status, last?.completedActions, last?.totalRecipients],
				['completed', 3, 3],
				'envelope fields of the last run',
			);
			log(
				`  ${items.length} runs' items over ${runs.length} executions and ${(await polls()) - start} polls, n8n restarted once`,
			);

			const deactivated = await stack.api.post(`/workflows/${WORKFLOW}/deactivate`, {});
			expectEqual(deactivated.status, 200, 'deactivation');
		},
	);

	await check(
		'example "when a signer signs, post to the team": Fetch Test Event shows the newest action and the team line names its recipient',
		async () => {
			const lease = await sentEnvelope('Example lease', [
				{ name: 'Kiran Das', email: 'kiran@example.com', role: 'signer', order: 1 },
				{ name: 'Nila Bose', email: 'nila@example.com', role: 'signer', order: 2 },
			]);
			await sign(lease.recipients[0].actionUrl, 'example signature');
			const { execution: done } = await runManually(stack, EXAMPLE, TRIGGER);
			expectEqual(
				done.status,
				'success',
				`example run status (${done.data?.resultData.error?.message ?? ''})`,
			);
			const sample = output(done, TRIGGER).json;
			expectEqual(
				[sample.envelopeId, sample.recipient?.name, sample.change],
				[lease.id, 'Kiran Das', 'signed'],
				'the sample action',
			);
			const text = String(output(done, 'Post to the Team').json.text ?? '');
			expect(
				text.startsWith('Kiran Das (signer) signed "Example lease": 1 of 2 done'),
				`team line: ${text}`,
			);
		},
	);
}
