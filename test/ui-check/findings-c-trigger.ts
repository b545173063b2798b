/* eslint-disable @n8n/community-nodes/no-restricted-globals -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * Editor findings, part C: the webhook trigger and the node picker (see findings-c.ts).
 *
 * - wording-events-hint: the trigger's Events hint says what to choose, not what a
 *   specification names.
 * - webhook-listening: while the editor listens for a test event, the panel still says to
 *   register the Test URL in the dashboard.
 * - webhook-refused: a test delivery refused for its signature stops the listening, and the
 *   panel says why.
 * - picker-status-trigger: Document Signing's entry in the node picker names the Status
 *   Trigger, for completed envelopes without webhooks.
 */
import axios from 'axios';

import type { Stack } from '../../scripts/lib/stack';
import { check, expect, log, PACKAGE } from '../e2e/lib';
import type { Editor } from './editor';
import { credentials, openAppTriggers, saveWorkflow, searchPicker, shot } from './findings-b';

const TRIGGER = `${PACKAGE}.documentSigningTrigger`;
const WEBHOOK_ID = '0000c000-0000-4000-8000-00000000c001';
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A check of part C; UI_CHECK_STEPS=<regular expression> runs only the steps whose name matches. */
export async function step(name: string, body: () => Promise<void>): Promise<void> {
	const only = process.env.UI_CHECK_STEPS;
	if (only && !new RegExp(only, 'i').test(name)) return;
	await check(name, body);
}

export async function checkTriggerFindings(editor: Editor, stack: Stack): Promise<void> {
	const trigger = {
		id: 'webhook-trigger',
		name: 'Document Signing Trigger',
		type: TRIGGER,
		typeVersion: 1,
		position: [0, 0],
		webhookId: WEBHOOK_ID,
		credentials,
		parameters: {},
	};
	const workflowId = await saveWorkflow(stack, 'Editor findings, part C: webhook trigger', [
		trigger,
	]);
	const parameters = () => editor.ndv.getByTestId('node-parameters');

	await step(
		'findings C: the webhook trigger\'s Events hint says what to choose, without "specification"',
		async () => {
			await editor.openNode(workflowId, trigger.id, { name: trigger.name, type: TRIGGER });
			const events = parameters()
				.locator('.parameter-item, [data-test-id="parameter-item"]')
				.filter({ has: editor.page.getByTestId('parameter-input-events') })
				.last();
			await shot(editor, 'wording-events-hint', [events], 220);
			const text = flat(await events.innerText());
			expect(!/specification|guess/i.test(text), `the Events row reads: ${text.slice(0, 200)}`);
		},
	);

	let listening = false;
	await step(
		'findings C: while listening for a test event, the panel still says to register the Test URL in the dashboard',
		async () => {
			const execute = editor.ndv.getByTestId('node-execute-button').filter({ visible: true });
			await (
				(await execute.count()) > 0
					? execute.first()
					: editor.ndv.getByRole('button', { name: /Execute step|Listen for test event/i }).first()
			).click();
			await editor.ndv
				.getByText(/Listening for test event/i)
				.first()
				.waitFor({ timeout: 15_000 });
			listening = true;
			await editor.page.waitForTimeout(2_000);
			await shot(editor, 'webhook-listening', [parameters()], 420);
			const text = flat(await editor.ndv.innerText());
			expect(
				/register (this node's |the )?Test URL/i.test(text),
				`while listening, the panel reads: ${text.slice(0, 300)}`,
			);
		},
	);

	await step(
		'findings C: a test delivery refused for its signature stops the listening and the panel says why',
		async () => {
			expect(listening, 'the editor did not listen');
			const body = JSON.stringify({
				id: 'evt_forged_1',
				event: 'document.sent',
				createdAt: new Date().toISOString(),
				data: { envelopeId: 'env_1' },
			});
			const answer = await axios.post(`${stack.n8nUrl}/webhook-test/${WEBHOOK_ID}/webhook`, body, {
				headers: { 'content-type': 'application/json', 'X-Service-Signature': 'forged' },
				validateStatus: () => true,
			});
			log(
				`        the forged test delivery was answered ${answer.status} ${JSON.stringify(answer.data).slice(0, 160)}`,
			);
			const stopped = await editor.ndv
				.getByText(/Listening for test event/i)
				.first()
				.waitFor({ state: 'hidden', timeout: 10_000 })
				.then(
					() => true,
					() => false,
				);
			await editor.page.waitForTimeout(1_000);
			await shot(editor, 'webhook-refused', [editor.ndv.getByTestId('output-panel')], 420);
			const text = flat(await editor.ndv.innerText());
			expect(stopped, 'the editor still listens: nothing shows the refused delivery');
			expect(/signature/i.test(text), `the panel does not say why: ${text.slice(0, 300)}`);
		},
	);
	await editor.page.keyboard.press('Escape');

	await step(
		'findings C: Document Signing in the node picker names the Status Trigger (completed envelopes without webhooks)',
		async () => {
			const creator = await searchPicker(editor, stack, 'Editor findings, part C: node picker');
			await openAppTriggers(editor, creator);
			await shot(editor, 'picker-status-trigger', [creator], 640);
			const text = flat(await creator.innerText());
			log(`        ${text.slice(0, 400)}`);
			expect(
				/Document Signing Status/.test(text),
				"nothing in Document Signing's entry names the Status Trigger",
			);
			await editor.page.keyboard.press('Escape');
		},
	);
}
