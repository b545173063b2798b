/**
 * Editor findings, part C (UI_CHECK_ONLY=findings): a new user's second session, in n8n's
 * editor. As in parts A and B, each state is photographed first (.ui-check/findings/<name>.png),
 * then asserted, so the same steps picture the state before a fix, and fail there.
 * The steps of the webhook trigger and the picker are in findings-c-trigger.ts.
 */
import type { Locator } from 'playwright-core';

import { prepareExampleData } from '../../scripts/lib/example-data';
import type { Stack } from '../../scripts/lib/stack';
import { expect, log, PACKAGE } from '../e2e/lib';
import type { Editor } from './editor';
import { credentials, saveWorkflow, shot } from './findings-b';
import { checkTriggerFindings, step } from './findings-c-trigger';
import { nodeDescriptions } from './panels';
import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

const NODE = `${PACKAGE}.documentSigning`;
const STATUS_TRIGGER = `${PACKAGE}.documentSigningStatusTrigger`;
const ACTION_VERSION = Math.max(...NODE_VERSIONS);
/** The CSV example (examples/scheduled-batch-from-csv.json) and its Create Document node. */
const CSV_EXAMPLE = {
	workflowId: 'DsExampleBatch01',
	nodeId: '5e1f0000-0000-4000-8000-0000000000b4',
	name: 'Create and Send Lease',
};

const create = {
	resource: 'envelope',
	operation: 'create',
	pdfSource: 'none',
	fileName: 'contract.pdf',
	title: 'Lease',
};
const asha = { name: 'Asha Rao', email: 'asha@example.com', role: 'signer' };
const node = (id: string, parameters: object, type = NODE, x = 0) => ({
	id,
	name: id,
	type,
	typeVersion: type === NODE ? ACTION_VERSION : 1,
	position: [x, 0],
	credentials,
	parameters,
});

/** The nodes of part C's action-node steps (one workflow). */
const NODES = [
	node('Placement Without Search Text', {
		...create,
		recipients: { recipient: [{ ...asha, signaturePlacement: { width: 150 } }] },
	}),
	node(
		'Recipients As JSON',
		{
			...create,
			recipientsInput: 'json',
			recipientsJson: JSON.stringify([
				{ ...asha, role: 'boss', signaturePlacement: { type: 'text', width: 150 } },
			]),
		},
		NODE,
		200,
	),
	node('Create Without Recipients', { ...create }, NODE, 400),
	node('Add A Recipient', { ...create }, NODE, 1800),
	node(
		'Signing Page Address',
		{
			resource: 'envelope',
			operation: 'getStatus',
			envelopeId: { __rl: true, mode: 'url', value: 'https://sandbox.example.com/sign/tok_5f2a9c' },
		},
		NODE,
		600,
	),
	node(
		'Run Signing Workflow',
		{
			resource: 'workflow',
			operation: 'run',
			workflowId: { __rl: true, mode: 'id', value: 'wf_1' },
			title: 'Sale deed',
			runRecipients: {
				recipient: [{ participantKey: 'buyer', name: 'Ravi', email: 'ravi@example.com' }],
			},
		},
		NODE,
		800,
	),
	node(
		'Replace Recipients',
		{
			resource: 'envelope',
			operation: 'addRecipients',
			envelopeId: { __rl: true, mode: 'id', value: 'env_1' },
			replace: true,
		},
		NODE,
		1000,
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
		1200,
	),
	node('Karnataka Article', { ...create, estampEnabled: true, estampState: 'KA' }, NODE, 1400),
	node(
		'Completed With PDF',
		{ event: 'statusReached', statuses: ['completed', 'pending'], downloadSignedPdf: true },
		STATUS_TRIGGER,
		1600,
	),
	// The same Recipient Acted trigger as saved by version 1 (before) and as added now (1.1).
	node('Recipient Acted v1', { event: 'recipientActed' }, STATUS_TRIGGER, 2200),
	{
		...node('Recipient Acted v1.1', { event: 'recipientActed' }, STATUS_TRIGGER, 2400),
		typeVersion: 1.1,
	},
	{
		...node('Balance Tool', { resource: 'credit', operation: 'getBalance' }, `${NODE}Tool`, 2000),
		typeVersion: ACTION_VERSION,
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

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Runs the open node and returns its output panel and the panel's text once an error shows. */
async function runForError(editor: Editor): Promise<{ output: Locator; text: string }> {
	await editor.ndv.getByTestId('node-execute-button').first().click();
	const output = editor.ndv.getByTestId('output-panel');
	await output
		.getByText(/Invalid|required|Problem|error/i)
		.first()
		.waitFor({ timeout: 20_000 })
		.catch(() => undefined);
	await editor.page.waitForTimeout(800);
	return { output, text: flat(await output.innerText()) };
}

export async function checkFindingsC(editor: Editor, stack: Stack): Promise<void> {
	const workflowId = await saveWorkflow(stack, 'Editor findings, part C', NODES);
	const open = async (name: string) =>
		await editor.openNode(workflowId, name, {
			name,
			type: NODES.find((n) => n.name === name)?.type ?? NODE,
		});
	await prepareExampleData(stack).catch((error: Error) =>
		log(`        the example template: ${error.message}`),
	);

	await step(
		'findings C: the CSV example\'s stored Prefill Fields are those the template loads (no "Fields are outdated", labels whole)',
		async () => {
			await editor.openNode(CSV_EXAMPLE.workflowId, CSV_EXAMPLE.nodeId, {
				name: CSV_EXAMPLE.name,
				type: NODE,
			});
			await editor.answer('getPrefillFields', 15_000);
			await editor.page.waitForTimeout(1_000);
			const prefill = editor.ndv.getByTestId('resource-mapper-container').last();
			await shot(editor, 'csv-mapper', [prefill], 520);
			const text = flat(await prefill.innerText());
			log(`        ${text.slice(0, 240)}`);
			expect(!/outdated/i.test(text), `the mapper says: ${text.slice(0, 200)}`);
			expect(
				!/\(property_address\)|\(monthly_rent\)|default false/.test(text),
				`stored labels hold keys or defaults: ${text.slice(0, 200)}`,
			);
		},
	);

	await step(
		'findings C: a recipient error names the panel field, 1-based (Recipient 1 > Signature Placement > Search Text)',
		async () => {
			await open('Placement Without Search Text');
			const { output, text } = await runForError(editor);
			await shot(editor, 'recipient-error', [output], 360);
			log(`        ${text.slice(0, 300)}`);
			expect(
				text.includes('Recipient 1 > Signature Placement > Search Text'),
				`the error reads: ${text.slice(0, 240)}`,
			);
		},
	);

	await step(
		'findings C: in JSON mode too, every recipient problem names the field, none "Invalid enum value", none "(and N more)"',
		async () => {
			await open('Recipients As JSON');
			const { output, text } = await runForError(editor);
			await shot(editor, 'recipient-error-json', [output], 360);
			log(`        ${text.slice(0, 300)}`);
			expect(
				!/Invalid enum value|recipients\.0\./.test(text),
				`the error reads: ${text.slice(0, 240)}`,
			);
			expect(
				text.includes('Recipient 1 > Role') &&
					text.includes('Recipient 1 > Signature Placement > Search Text'),
				`a problem is not named by its field: ${text.slice(0, 240)}`,
			);
			expect(!/\(and \d+ more\)/.test(text), `problems are left out: ${text.slice(0, 240)}`);
		},
	);

	await step(
		"findings C: a new recipient's Signature Placement shows Search Text (required) without adding it",
		async () => {
			await open('Add A Recipient');
			await editor.ndv.getByText('Add Recipient', { exact: true }).first().click();
			await editor.page.waitForTimeout(800);
			const recipients = editor.ndv.getByTestId('fixed-collection-recipients').first();
			const placement = editor.ndv
				.locator('.parameter-item, [data-test-id="parameter-item"]')
				.filter({ hasText: 'Signature Placement' })
				.last();
			await shot(
				editor,
				'placement-search-text',
				[(await placement.count()) ? placement : recipients],
				420,
			);
			const shown = await editor.ndv.getByTestId('parameter-input-searchText').count();
			expect(shown > 0, 'Search Text is hidden behind "Add Placement Option"');
		},
	);

	await step(
		'findings C: Create without recipients creates the draft and says, under the output, that Send will need them',
		async () => {
			await open('Create Without Recipients');
			await editor.ndv.getByTestId('node-execute-button').first().click();
			const output = editor.ndv.getByTestId('output-panel');
			await output
				.getByText(/envelopeId|Add Recipients/)
				.first()
				.waitFor({ timeout: 20_000 })
				.catch(() => undefined);
			await editor.page.waitForTimeout(800);
			await shot(editor, 'create-no-recipients', [output], 300);
			const text = flat(await output.innerText());
			log(`        ${text.slice(0, 240)}`);
			expect(
				/without recipients/i.test(text) && /Add Recipients/.test(text),
				`no notice that Send needs recipients: ${text.slice(0, 200)}`,
			);
		},
	);

	await step(
		"findings C: By URL explains a signing page's address (it holds no envelope ID)",
		async () => {
			await open('Signing Page Address');
			const picker = row(editor, 'envelopeId');
			// n8n shows the mode's refusal in a tooltip of the field's warning sign.
			await picker
				.getByTestId('parameter-issues')
				.first()
				.hover({ timeout: 5_000 })
				.catch(() => undefined);
			const tooltip = editor.page
				.getByText(/^\s*Not an envelope address/)
				.filter({ visible: true })
				.first();
			await tooltip.waitFor({ timeout: 5_000 }).catch(() => undefined);
			await shot(
				editor,
				'by-url-signing-page',
				(await tooltip.count()) > 0 ? [picker, tooltip] : [picker],
				260,
			);
			const text = flat(
				(await tooltip.count()) > 0 ? await tooltip.innerText() : await picker.innerText(),
			);
			log(`        ${text.slice(0, 240)}`);
			expect(
				/signing page/i.test(text),
				`nothing explains a signing page's address: ${text.slice(0, 200)}`,
			);
		},
	);

	await step(
		'findings C: the participant hint speaks of what to do, not of API permissions',
		async () => {
			await open('Run Signing Workflow');
			const participant = editor.ndv
				.locator('.parameter-item, [data-test-id="parameter-item"]')
				.filter({ hasText: 'Participant' })
				.last();
			await shot(editor, 'participant-hint', [participant], 260);
			const text = flat(await editor.ndv.getByTestId('node-parameters').innerText());
			expect(
				!/workflows:read|workflows:write|permission/.test(text),
				`the panel reads: ${/[^.]*permission[^.]*/.exec(text)?.[0] ?? text.slice(0, 200)}`,
			);
		},
	);

	await step('findings C: Replace Request Fields (JSON) has a hint', async () => {
		await open('Replace Recipients');
		const field = row(editor, 'replaceFields');
		await shot(editor, 'replace-fields-hint', [field], 260);
		const text = flat(await field.innerText());
		log(`        ${text.slice(0, 240)}`);
		expect(
			/replace/i.test(
				text.replace(/Replace Request Fields \(JSON\)/, '').replace(/"replace": ?true/, ''),
			) && text.length > 60,
			`no hint: ${text.slice(0, 200)}`,
		);
	});

	await step(
		'findings C: Map Automatically shows the keys the input items must carry',
		async () => {
			await open('Prefill Automatically');
			await editor.answer('getPrefillFields', 15_000);
			await editor.page.waitForTimeout(1_000);
			const prefill = editor.ndv.getByTestId('resource-mapper-container').last();
			await shot(editor, 'automap-keys', [prefill], 300);
			const text = flat(await prefill.innerText());
			log(`        ${text.slice(0, 240)}`);
			expect(
				text.includes('property_address') && text.includes('monthly_rent'),
				`the keys are not shown: ${text.slice(0, 200)}`,
			);
		},
	);

	await step(
		'findings C: the Article hint says the catalog is listed as printed (near-duplicates included)',
		async () => {
			await open('Karnataka Article');
			const article = row(editor, 'estampArticle');
			await article.scrollIntoViewIfNeeded().catch(() => undefined);
			await shot(editor, 'article-catalog-hint', [article], 200);
			const text = flat(await article.innerText());
			expect(/as the catalog prints/i.test(text), `the Article row reads: ${text.slice(0, 200)}`);
		},
	);

	await step(
		'findings C: Status Trigger: Download Signed PDF with a status other than completed says those get no file',
		async () => {
			await open('Completed With PDF');
			const parameters = editor.ndv.getByTestId('node-parameters');
			const notice = parameters.locator('.notice, [class*="notice"]').filter({ hasText: /PDF/ });
			await shot(
				editor,
				'status-download-notice',
				[(await notice.count()) > 0 ? notice.first() : row(editor, 'downloadSignedPdf')],
				240,
			);
			const text = flat(await parameters.innerText());
			expect(
				/signedPdfSkipped/.test(text),
				'nothing says that envelopes of other statuses start without the file',
			);
		},
	);

	await step(
		'findings C: Status Trigger 1.1 with Recipient Acted shows only its own fields; version 1 keeps its panel as saved',
		async () => {
			const statusFields = ['Trigger on Status', 'Other Statuses', 'Download Signed PDF'];
			const panelOf = async (name: string, picture: string) => {
				await open(name);
				const parameters = editor.ndv.getByTestId('node-parameters');
				await parameters.getByText('Roles', { exact: true }).first().waitFor({ timeout: 10_000 });
				await shot(editor, picture, [parameters], 700);
				return flat(await parameters.innerText());
			};
			const before = await panelOf('Recipient Acted v1', 'status-trigger-v1-recipient-acted');
			const after = await panelOf('Recipient Acted v1.1', 'status-trigger-v1.1-recipient-acted');
			const shownAfter = statusFields.filter((field) => after.includes(field));
			expect(
				shownAfter.length === 0,
				`version 1.1 shows ${shownAfter.join(', ')}: ${after.slice(0, 300)}`,
			);
			expect(
				statusFields.every((field) => before.includes(field)),
				`version 1 no longer shows its saved fields: ${before.slice(0, 300)}`,
			);
		},
	);

	await step(
		"findings C: the tool variant shows no Batching (a model's call is one item); the node keeps it, said to apply to many items",
		async () => {
			await open('Balance Tool');
			const parameters = editor.ndv.getByTestId('node-parameters');
			await parameters.getByText('Operation', { exact: true }).first().waitFor({ timeout: 10_000 });
			await shot(editor, 'tool-batching', [parameters], 420);
			const tool = flat(await parameters.innerText());
			expect(!/Batching/.test(tool), `the tool's panel shows Batching: ${tool.slice(0, 240)}`);
			const batching = nodeDescriptions()[0].description.properties.find(
				(p) => p.name === 'batching',
			);
			expect(
				/several items|many items/i.test(String(batching?.description)),
				`the node's Batching description: ${batching?.description}`,
			);
		},
	);

	await step(
		'findings C: option names, hints and the credential say what an option does, not "specification" or "guess"',
		async () => {
			const words = /specification|guess/i;
			const found: string[] = [];
			const walk = (where: string, value: unknown): void => {
				if (typeof value === 'string') {
					if (words.test(value)) found.push(`${where}: ${value.slice(0, 100)}`);
				} else if (Array.isArray(value)) value.forEach((v, n) => walk(`${where}[${n}]`, v));
				// A parameter's `name` is not shown (an option's `name` is).
				else if (value && typeof value === 'object')
					for (const [k, v] of Object.entries(value))
						if (!['default', 'routing'].includes(k) && !(k === 'name' && 'displayName' in value))
							walk(`${where}.${k}`, v);
			};
			for (const { description } of nodeDescriptions()) walk(description.name, description);
			walk('credential', new DocumentSigningApi());
			const hints = found.filter((f) => f.includes('[{'));
			for (const line of found.slice(0, 8)) log(`        ${line}`);
			expect(
				found.length === 0,
				`${found.length} texts say "specification" or "guess" (first: ${found[0] ?? ''})${hints.length ? `; ${hints.length} show [{ … }]` : ''}`,
			);
		},
	);

	await checkTriggerFindings(editor, stack);
	editor.takeErrors();
}
