/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * Editor findings, part D (UI_CHECK_ONLY=findings-d, and with `findings`): what a new user
 * meets in the panels of issue 41. As in parts A to C, each state is photographed first
 * (.ui-check/findings/<name>.png), then asserted, so the same steps picture the state before
 * a fix, and fail there.
 *
 * - signing-links-hint: Safeguards › Include Signing Links says in the panel, not only in a
 *   tooltip, what a signing link lets its holder do.
 * - selected-fields-unknown: Output = Selected Fields names a field the answer lacks.
 * - example-output: the examples' nodes are of the newest version (Output, not Simplify).
 * - automap-one-notice: in Map Automatically, Prefill Fields keeps its heading above the
 *   mapping mode, and the package's notice gives the keys without repeating n8n's own notice.
 * - credential-new / credential-new-paths / credential-saved-path: the new-credential form
 *   shows no warning box, the optional service paths last, said to be optional; a saved
 *   credential with a changed path still shows it.
 * - workflow-get-output: Signing Workflow › Get's hint agrees with Output.
 */
import { readFileSync } from 'fs';
import path from 'path';
import type { Locator } from 'playwright-core';

import { prepareExampleData } from '../../scripts/lib/example-data';
import { ROOT, type Stack } from '../../scripts/lib/stack';
import { expect, log, PACKAGE } from '../e2e/lib';
import type { Editor } from './editor';
import { credentials, saveWorkflow, shot } from './findings-b';
import { step } from './findings-c-trigger';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

const NODE = `${PACKAGE}.documentSigning`;
const TOOL = `${NODE}Tool`;
const ACTION_VERSION = Math.max(...NODE_VERSIONS);
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

const node = (name: string, parameters: object, type = NODE, x = 0) => ({
	id: name,
	name,
	type,
	typeVersion: ACTION_VERSION,
	position: [x, 0],
	credentials,
	parameters,
});

const NODES = [
	node(
		'Send With Links Option',
		{
			resource: 'envelope',
			operation: 'send',
			envelopeId: { __rl: true, mode: 'id', value: 'env_1' },
			safeguards: { includeSigningLinks: false },
		},
		TOOL,
	),
	node(
		'Templates, Selected Fields',
		{
			resource: 'template',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
			output: 'fields',
			outputFields: 'id, name, nmae',
		},
		NODE,
		200,
	),
	node(
		'Prefill Automatically',
		{
			resource: 'template',
			operation: 'createDocument',
			templateId: { __rl: true, mode: 'id', value: 'tpl_example_lease' },
			title: 'Lease',
			prefill: { mappingMode: 'autoMapInputData', value: null },
		},
		NODE,
		400,
	),
	node(
		'Get Signing Workflow',
		{
			resource: 'workflow',
			operation: 'get',
			workflowId: { __rl: true, mode: 'id', value: 'wf_1' },
		},
		NODE,
		600,
	),
	{
		...node(
			'Balance Without Credential',
			{ resource: 'credit', operation: 'getBalance' },
			NODE,
			800,
		),
		credentials: undefined,
	},
];

/** The parameter row (label, input, hint) holding the input of `name`. */
const row = (editor: Editor, name: string): Locator =>
	editor.ndv
		.locator('[data-test-id="parameter-item"], .parameter-item')
		.filter({
			has: editor.page.locator(
				`[data-test-id="parameter-input-${name}"], [data-test-id="resource-locator-${name}"]`,
			),
		})
		.last();

export async function checkFindingsD(editor: Editor, stack: Stack): Promise<void> {
	const workflowId = await saveWorkflow(stack, 'Editor findings, part D', NODES);
	const open = async (name: string) =>
		await editor.openNode(workflowId, name, {
			name,
			type: NODES.find((n) => n.name === name)?.type ?? NODE,
		});
	await prepareExampleData(stack).catch((error: Error) =>
		log(`        the example template: ${error.message}`),
	);

	await step(
		'findings D: Include Signing Links says in the panel what a signing link lets its holder do',
		async () => {
			await open('Send With Links Option');
			const links = row(editor, 'includeSigningLinks');
			await links.waitFor({ timeout: 10_000 });
			await shot(editor, 'signing-links-hint', [links, row(editor, 'draftOnly')], 360);
			const text = flat(await links.innerText());
			log(`        ${text.slice(0, 240)}`);
			expect(
				/recipient's name/i.test(text),
				`the row shows no warning (only a tooltip): ${text.slice(0, 200)}`,
			);
		},
	);

	await step(
		'findings D: Output = Selected Fields names a field that is not in the answer',
		async () => {
			await open('Templates, Selected Fields');
			await editor.ndv.getByTestId('node-execute-button').first().click();
			const output = editor.ndv.getByTestId('output-panel');
			await output
				.getByText(/nmae|items?/i)
				.first()
				.waitFor({ timeout: 20_000 })
				.catch(() => undefined);
			await editor.page.waitForTimeout(1_000);
			await shot(editor, 'selected-fields-unknown', [output], 420);
			const text = flat(await output.innerText());
			log(`        ${text.slice(0, 300)}`);
			expect(/nmae/.test(text), `the output does not name "nmae": ${text.slice(0, 200)}`);
		},
	);

	await step(
		'findings D: the send-a-PDF example is on the newest node version (Output = Simplified, no Simplify switch)',
		async () => {
			await editor.openNode('DsExampleSend001', '5e1f0000-0000-4000-8000-000000000006', {
				name: 'Get Status',
				type: NODE,
			});
			const parameters = editor.ndv.getByTestId('node-parameters');
			await shot(editor, 'example-output', [parameters], 420);
			const text = flat(await parameters.innerText());
			log(`        ${text.slice(0, 240)}`);
			expect(
				text.includes('Output') && !text.includes('Simplify'),
				`the example's Get Status shows: ${text.slice(0, 200)}`,
			);
			const old = [
				'send-pdf-for-signature',
				'send-estamped-pdf',
				'scheduled-batch-from-csv',
				'low-credit-alert',
			].flatMap((file) =>
				(
					JSON.parse(readFileSync(path.join(ROOT, 'examples', `${file}.json`), 'utf8')) as {
						nodes: Array<{ name: string; type: string; typeVersion: number }>;
					}
				).nodes
					.filter((n) => n.type === NODE && n.typeVersion !== ACTION_VERSION)
					.map((n) => `${file}: ${n.name} ${n.typeVersion}`),
			);
			expect(old.length === 0, `older node versions in examples: ${old.join('; ')}`);
		},
	);

	await step(
		"findings D: Map Automatically: the Prefill Fields heading stays above the mapping mode; the package notice gives the keys, not a second copy of n8n's rule",
		async () => {
			await open('Prefill Automatically');
			await editor.answer('getPrefillFields', 15_000);
			await editor.page.waitForTimeout(1_000);
			const mappers = editor.ndv.getByTestId('resource-mapper-container');
			const prefill = mappers.last();
			await shot(editor, 'automap-one-notice', [mappers.first(), prefill], 700);
			const notices = await prefill.locator('[role="alert"]').count();
			const ours = flat(
				await prefill
					.getByTestId('empty-fields-notice')
					.innerText({ timeout: 5_000 })
					.catch(() => ''),
			);
			const text = flat(await editor.ndv.getByTestId('node-parameters').innerText());
			const heading = text.lastIndexOf('Prefill Fields', text.indexOf('Mapping Column Mode'));
			// n8n 2.41 adds its own notice in Map Automatically to every mapper of mode "add";
			// the fields' keys can only come in the mapper's notice (docs/operations.md).
			log(`        ${notices} notice(s); the package's: ${ours}`);
			expect(
				heading > text.indexOf('Recipients'),
				'no "Prefill Fields" heading between Recipients and Mapping Column Mode',
			);
			expect(
				/^The template's field keys/.test(ours) && ours.includes('property_address'),
				`the package's notice reads: ${ours.slice(0, 200)}`,
			);
		},
	);

	await step('findings D: Signing Workflow › Get: the hint agrees with Output', async () => {
		await open('Get Signing Workflow');
		const parameters = editor.ndv.getByTestId('node-parameters');
		await shot(editor, 'workflow-get-output', [parameters], 360);
		const text = flat(await parameters.innerText());
		log(`        ${text.slice(0, 300)}`);
		expect(
			!/as the service gives it/.test(text),
			`the panel reads: ${/[^.]*as the service gives it[^.]*/.exec(text)?.[0] ?? ''}`,
		);
	});

	await newCredentialForm(editor, stack, open);
	editor.takeErrors();
}

/** The new-credential form, as a user opens it from a node, and a saved credential with a changed path. */
async function newCredentialForm(
	editor: Editor,
	stack: Stack,
	open: (name: string) => Promise<void>,
): Promise<void> {
	const modal = editor.page.getByTestId('editCredential-modal');
	await step(
		'findings D: the new-credential form shows no warning box; the optional paths come last, said to be optional',
		async () => {
			await open('Balance Without Credential');
			await editor.ndv.getByTestId('node-credentials-select').first().click();
			await editor.page.getByTestId('node-credentials-select-item-new').first().click();
			await modal.waitFor({ timeout: 15_000 });
			await editor.page.waitForTimeout(1_000);
			await shot(editor, 'credential-new', [modal], 1200);
			const warnings = await modal.locator('[role="alert"]').count();
			const text = flat(await modal.innerText());
			log(`        ${warnings} notice(s): ${text.slice(0, 400)}`);
			const path = modal.getByTestId('parameter-input-creditBalancePath').first();
			await path.scrollIntoViewIfNeeded().catch(() => undefined);
			await shot(editor, 'credential-new-paths', [modal], 1200);
			await editor.page.keyboard.press('Escape');
			expect(warnings === 0, `${warnings} warning boxes in the new-credential form`);
			expect(
				text.indexOf('Credit Balance Path') > text.indexOf('Webhook Secret') &&
					/Optional, like the two paths below/.test(text),
				'the paths do not come after Webhook Secret, said to be optional',
			);
		},
	);

	await step(
		'findings D: a saved credential whose path was changed (no switch stored) still shows that path',
		async () => {
			const saved = await stack.rest.post('/credentials', {
				name: 'Document Signing, changed balance path',
				type: 'documentSigningApi',
				data: {
					baseUrl: stack.sandbox.baseUrl,
					apiKey: stack.sandbox.apiKey,
					creditBalancePath: '/wallet/balance',
				},
			});
			const id = (saved.data as { data?: { id?: string } }).data?.id;
			expect(id, `saving the credential answered ${saved.status}`);
			await editor.page.goto(`${stack.n8nUrl}/home/credentials/${id}`);
			await modal.waitFor({ timeout: 30_000 });
			await editor.page.waitForTimeout(800);
			const field = modal.getByTestId('parameter-input-creditBalancePath').locator('input');
			await field
				.first()
				.scrollIntoViewIfNeeded()
				.catch(() => undefined);
			await shot(editor, 'credential-saved-path', [modal], 1200);
			const value = (await field.count()) > 0 ? await field.first().inputValue() : '(not shown)';
			log(`        Credit Balance Path: ${value}`);
			await editor.page.keyboard.press('Escape');
			expect(value === '/wallet/balance', `the saved path shows as ${value}`);
		},
	);
}
