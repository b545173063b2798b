/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** Envelope action workflows and the two shipped examples. */
import axios from 'axios';
import { existsSync, promises as fs } from 'fs';
import path from 'path';
import { PDFDocument } from 'pdf-lib';

import { waitFor } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	type Execution,
	executions,
	expect,
	expectEqual,
	makePdf,
	output,
	runManually,
} from '../lib';

export const EXAMPLE_SEND = 'DsExampleSend001';
export const EXAMPLE_EVENTS = 'DsExampleEvents1';
export const EXAMPLE_ESTAMP = 'DsExampleEstamp1';

export default async function suite({
	stack,
	sandbox,
	workflows,
	examples,
}: E2eContext): Promise<void> {
	expect(
		workflows.DsE2eSendPdf0001 && workflows.DsE2eFinish00001,
		'an envelope workflow fixture is missing',
	);
	expect(
		examples[EXAMPLE_SEND] && examples[EXAMPLE_EVENTS] && examples[EXAMPLE_ESTAMP],
		'an example workflow is missing',
	);

	await check(
		'action workflows in n8n: PDF from disk -> create with upload -> send -> recipients sign -> status -> signed PDF',
		async () => {
			const original = await makePdf('Rental agreement');
			const inputPath = path.join(stack.filesDir, 'rental-agreement.pdf');
			const outputPath = path.join(stack.filesDir, 'rental-agreement-signed.pdf');
			await fs.writeFile(inputPath, original);
			await fs.rm(outputPath, { force: true });

			const sendResponse = await axios.post(
				`${stack.n8nUrl}/webhook/e2e-send-pdf`,
				{ filePath: inputPath, title: 'Rental agreement (e2e)' },
				{ validateStatus: () => true, timeout: 60_000 },
			);
			expectEqual(
				sendResponse.status,
				200,
				`send workflow response (${JSON.stringify(sendResponse.data).slice(0, 300)})`,
			);
			const sent = sendResponse.data as Record<string, any>;
			expectEqual(sent.status, 'pending', 'status after send');
			const envelopeId = sent.envelopeId as string;
			const recipients = (sent.recipients as Array<Record<string, any>>).sort(
				(a, b) => a.order - b.order,
			);
			expectEqual(
				recipients.map((r) => r.name),
				['Asha Rao', 'Vikram Shah'],
				'recipients of the sent envelope',
			);

			const [sendRun] = await executions(stack, workflows.DsE2eSendPdf0001.id);
			expectEqual(sendRun?.status, 'success', 'send workflow execution status');
			const read = output(sendRun, 'Read PDF');
			expectEqual(
				read.binary?.data?.mimeType,
				'application/pdf',
				'mime type of the PDF read from disk',
			);
			const createdItem = output(sendRun, 'Create Envelope').json;
			expectEqual(
				[createdItem.id, createdItem.fileName],
				[envelopeId, 'rental-agreement.pdf'],
				'created envelope id and file name',
			);
			const entries = (await sandbox.get('/requests')).data.items as Array<{
				method: string;
				path: string;
			}>;
			expect(
				entries.some(
					(r) => r.path.startsWith('/storage/') && (r.method === 'POST' || r.method === 'PUT'),
				),
				'the sandbox saw no PDF upload to its storage address',
			);

			// Each recipient acts through their own link, in signing order.
			for (const recipient of recipients) {
				const signed = await axios.post(recipient.actionUrl, {}, { validateStatus: () => true });
				expectEqual(signed.status, 200, `${recipient.name} signing through the action link`);
			}

			const finishResponse = await axios.post(
				`${stack.n8nUrl}/webhook/e2e-status-and-download`,
				{ envelopeId, outputPath },
				{ validateStatus: () => true, timeout: 60_000 },
			);
			expectEqual(
				finishResponse.status,
				200,
				`status-and-download workflow response (${JSON.stringify(finishResponse.data).slice(0, 300)})`,
			);
			const [finishRun] = await executions(stack, workflows.DsE2eFinish00001.id);
			expectEqual(finishRun?.status, 'success', 'status-and-download execution status');
			const status = output(finishRun, 'Get Status').json;
			expectEqual(
				[status.envelopeId, status.status, status.percentage],
				[envelopeId, 'completed', 100],
				'status envelopeId/status/percentage',
			);
			const download = output(finishRun, 'Download Signed PDF');
			expectEqual(download.json.envelopeId, envelopeId, 'downloaded envelopeId');
			expectEqual(download.binary?.data?.mimeType, 'application/pdf', 'downloaded mime type');

			expect(existsSync(outputPath), `n8n wrote no file at ${outputPath}`);
			const signedBytes = await fs.readFile(outputPath);
			expect(!signedBytes.equals(original), 'the downloaded file is the unsigned original');
			const signedPdf = await PDFDocument.load(signedBytes);
			expectEqual(signedPdf.getPageCount(), 2, 'pages of the signed PDF');
			expect(
				String(signedPdf.getSubject() ?? '').includes('Asha Rao'),
				`the signed PDF does not name its signer (subject ${signedPdf.getSubject()})`,
			);
		},
	);

	await check(
		'examples "send an e-stamped PDF" (its Execute workflow button) and "react to e-stamp events" (each event routed)',
		async () => {
			const example = examples[EXAMPLE_EVENTS];
			await fs.writeFile(
				path.join(stack.filesDir, 'sample-contract.pdf'),
				await makePdf('Sample contract'),
			);
			const { id: manualId, execution: manual } = await runManually(
				stack,
				EXAMPLE_ESTAMP,
				"When clicking 'Execute workflow'",
			);
			expectEqual(
				manual.status,
				'success',
				`manual run status (${manual.data?.resultData.error?.message ?? ''})`,
			);
			const sent = output(manual, 'Send Envelope').json;
			expectEqual(sent.status, 'estamping', 'status after the e-stamped send');
			const envelopeId = sent.envelopeId as string;

			const mine = await waitFor(
				"the example trigger's executions for this envelope",
				async () => {
					const list = (await executions(stack, example.id)).filter(
						(e) =>
							e.id !== manualId &&
							e.data?.resultData.runData['Document Signing Trigger'] &&
							output(e, 'Document Signing Trigger').json.data?.envelopeId === envelopeId,
					);
					return list.length >= 3 && list.every((e) => e.status !== 'running') ? list : undefined;
				},
				// The example trigger hears every event of the suites before (about 150 by now). The
				// sandbox delivers them to one URL in order, and on n8n 2.x each answer comes only once
				// n8n has created its execution (under a second each on a loaded 2-core machine), so
				// these three may wait behind that backlog.
				180_000,
				500,
			);
			const routed = mine.map((e) => {
				expectEqual(e.status, 'success', `execution ${e.id} status`);
				const branch = ['Stamp Bought', 'Stamp Attached', 'Stamp Failed', 'Sent'].filter(
					(name) => e.data!.resultData.runData[name],
				);
				expectEqual(branch.length, 1, `branches run in execution ${e.id}`);
				return { branch: branch[0], message: output(e, branch[0]).json.message as string };
			});
			expectEqual(
				routed.map((r) => r.branch),
				['Stamp Bought', 'Stamp Attached', 'Sent'],
				'branches taken, in order',
			);
			expect(
				routed[1].message.includes('E-stamp certificate '),
				`unexpected message: ${routed[1].message}`,
			);
		},
	);

	await check(
		'example "send a PDF for signature": the run waits, the signer signs, the signed PDF is saved',
		async () => {
			const example = examples[EXAMPLE_SEND];
			const run = await stack.rest.post(`/workflows/${example.id}/run`, {
				triggerToStartFrom: { name: "When clicking 'Execute workflow'" },
			});
			expectEqual(
				run.status,
				200,
				`manual run answered (${JSON.stringify(run.data).slice(0, 300)})`,
			);
			const executionId = String(run.data.data.executionId);
			const read = async () =>
				(await stack.api.get(`/executions/${executionId}`, { params: { includeData: true } }))
					.data as Execution;

			// While the workflow waits in its status loop, n8n's saved progress holds the send output.
			const sent = await waitFor(
				'the example to send its envelope',
				async () => {
					const execution = await read();
					if (!['running', 'new', 'waiting'].includes(execution.status))
						throw new Error(`the run ended early: ${execution.status}`);
					return execution.data?.resultData.runData['Send Envelope']
						? output(execution, 'Send Envelope').json
						: undefined;
				},
				60_000,
				500,
			);
			const envelopeId = sent.envelopeId as string;
			for (const recipient of sent.recipients as Array<{ actionUrl: string; name: string }>) {
				const signed = await axios.post(recipient.actionUrl, {}, { validateStatus: () => true });
				expectEqual(signed.status, 200, `${recipient.name} signing`);
			}
			const done = await waitFor(
				'the example to notice the signature and download',
				async () => {
					const execution = await read();
					return ['running', 'new', 'waiting'].includes(execution.status) ? undefined : execution;
				},
				60_000,
				1000,
			);
			expectEqual(
				done.status,
				'success',
				`example run status (${done.data?.resultData.error?.message ?? ''})`,
			);
			expectEqual(
				output(done, 'Download Signed PDF').json.envelopeId,
				envelopeId,
				'downloaded envelope',
			);
			const saved = path.join(stack.filesDir, `signed-${envelopeId}.pdf`);
			expect(existsSync(saved), `the example saved no file at ${saved}`);
			const pdf = await PDFDocument.load(await fs.readFile(saved));
			expect(
				String(pdf.getSubject() ?? '').includes('Asha Rao'),
				`the saved PDF does not name its signer (subject ${pdf.getSubject()})`,
			);
		},
	);
}
