/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * Editor findings, part B (UI_CHECK_ONLY=findings): each state is photographed first
 * (.ui-check/findings/<name>.png), then asserted, so the same steps also picture the state
 * before the fix.
 *
 * - node-picker-search / node-picker-triggers: the node creator lists the webhook trigger's
 *   events under Document Signing's "Triggers" (n8n merges a trigger named
 *   `<action node name>Trigger` into the action node), and the Status Trigger as its own
 *   entry next to it.
 * - workflow-config-json: Signing Workflow › Create explains Approval Stages and Allowed
 *   Overrides (hint with `[]` and where a shape comes from).
 * - mapper-labels: Create Document's Prefill Fields show each field's label alone.
 * - mapper-automap: Prefill Fields offer "Map Automatically".
 */
import axios from 'axios';
import { mkdirSync } from 'fs';
import path from 'path';
import type { Locator } from 'playwright-core';

import { ROOT, type Stack } from '../../scripts/lib/stack';
import { check, CREDENTIAL_ID, expect, log, PACKAGE } from '../e2e/lib';
import type { Editor } from './editor';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

/** The action node's (and its tool's) newest version, as the editor adds it. */
const ACTION_VERSION = Math.max(...NODE_VERSIONS);

const SHOTS = path.join(ROOT, '.ui-check', 'findings');
const NODE = `${PACKAGE}.documentSigning`;

/** A template whose sender fields have short labels, longer keys and stored defaults. */
const TEMPLATE = {
	name: 'Flat rental (editor findings)',
	fileName: 'flat-rental.pdf',
	recipients: [{ id: 'tenant', name: 'Tenant', role: 'signer' }],
	formFields: [
		['monthly_rent_amount_inr', 'Monthly rent (INR)', '25000'],
		['refundable_security_deposit_inr', 'Security deposit (INR)', '50000'],
		['lease_start_date', 'Lease start date', undefined],
	].map(([fieldKey, label, defaultValue], n) => ({
		fieldKey,
		label,
		type: 'text',
		pageNumber: 1,
		x: 50,
		y: 100 + n * 40,
		width: 200,
		height: 20,
		...(defaultValue ? { defaultValue } : {}),
		assignee: { type: 'sender_prefill' },
	})),
};
const LABELS = ['Monthly rent (INR)', 'Security deposit (INR)', 'Lease start date'];

/**
 * Saves a screenshot of the part of the page that `targets` cover (with a margin), at most
 * `maxHeight` pixels tall, under .ui-check/findings/.
 */
export async function shot(
	editor: Editor,
	name: string,
	targets: Locator[],
	maxHeight = 900,
): Promise<void> {
	const file = path.join(SHOTS, `${name}.png`);
	// Centred, so a block low in a scrolling panel is not cut by the window's edge.
	await targets[0]
		.evaluate(
			(e) =>
				(e as unknown as { scrollIntoView: (o: object) => void }).scrollIntoView({
					block: 'center',
				}),
			undefined,
			{ timeout: 5_000 },
		)
		.catch(() => undefined);
	await editor.page.waitForTimeout(300);
	const boxes = (
		await Promise.all(targets.map(async (t) => await t.boundingBox().catch(() => null)))
	).filter((b) => b !== null);
	const viewport = editor.page.viewportSize() ?? { width: 1440, height: 1600 };
	if (boxes.length === 0) {
		await editor.screenshot(file);
	} else {
		const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - 8);
		const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - 8);
		const right = Math.min(viewport.width, Math.max(...boxes.map((b) => b.x + b.width)) + 8);
		const bottom = Math.min(
			viewport.height,
			Math.max(...boxes.map((b) => b.y + b.height)) + 8,
			y + maxHeight,
		);
		await editor.page.screenshot({
			path: file,
			clip: { x, y, width: right - x, height: bottom - y },
		});
	}
	log(`        screenshot ${path.relative(ROOT, file)}`);
}

export const credentials = {
	documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing sandbox' },
};

export async function saveWorkflow(stack: Stack, name: string, nodes: object[]): Promise<string> {
	const saved = await stack.rest.post('/workflows', {
		name,
		active: false,
		settings: {},
		connections: {},
		nodes,
	});
	if (saved.status !== 200)
		throw new Error(
			`saving "${name}" answered ${saved.status}: ${JSON.stringify(saved.data).slice(0, 300)}`,
		);
	return (saved.data as { data: { id: string } }).data.id;
}

export async function checkFindingsB(editor: Editor, stack: Stack): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	await nodePicker(editor, stack);
	await workflowConfig(editor, stack);
	await prefillMapper(editor, stack);
}

/** n8n's node picker on a new workflow (named `title`), searched for "Document Signing". */
export async function searchPicker(editor: Editor, stack: Stack, title: string): Promise<Locator> {
	const id = await saveWorkflow(stack, title, [
		{
			id: 'manual',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	]);
	const page = editor.page;
	await page.goto(`${stack.n8nUrl}/workflow/${id}`);
	await page.getByTestId('node-creator-plus-button').first().click({ timeout: 30_000 });
	const creator = page.getByTestId('node-creator');
	await creator.waitFor({ timeout: 15_000 });
	await page.getByTestId('node-creator-search-bar').first().fill('Document Signing');
	await page.waitForTimeout(1_000);
	return creator;
}

/**
 * Opens Document Signing's entry in the searched picker. n8n's details of a community node:
 * "Actions (n)" open, "Triggers (n)" folded below; the actions are folded and the triggers
 * opened, as a user looking for a trigger does.
 */
export async function openAppTriggers(editor: Editor, creator: Locator): Promise<void> {
	await creator
		.getByTestId('node-creator-item-name')
		.filter({ hasText: /^\s*Document Signing\s*$/ })
		.first()
		.click();
	await editor.page.waitForTimeout(1_000);
	const section = (name: string) =>
		creator.getByText(new RegExp(`^\\s*${name} \\(\\d+\\)\\s*$`)).first();
	if ((await section('Actions').count()) > 0) await section('Actions').click();
	if ((await section('Triggers').count()) > 0) await section('Triggers').click();
	await editor.page.waitForTimeout(800);
}

/** Where the node creator lists the two triggers. */
async function nodePicker(editor: Editor, stack: Stack): Promise<void> {
	await check(
		'findings: the node picker lists the webhook trigger under Document Signing › Triggers, the Status Trigger next to it',
		async () => {
			const creator = await searchPicker(editor, stack, 'Editor findings: node picker');
			await shot(editor, 'node-picker-search', [creator], 320);
			const names = (await creator.getByTestId('node-creator-item-name').allInnerTexts()).map((t) =>
				t.trim(),
			);
			log(`        search "Document Signing": ${names.join(' | ')}`);
			// A trigger whose first parameter is an `event` list (the Status Trigger's Trigger On) is
			// listed by n8n without its "Trigger", its events (the two modes) one click further.
			const status = names.find((name) => /^Document Signing Status( Trigger)?$/.test(name));
			expect(status, 'the Status Trigger is not among the search results');

			await openAppTriggers(editor, creator);
			await shot(editor, 'node-picker-triggers', [creator], 580);
			const text = await creator.innerText();
			log(`        Document Signing's list: ${text.replace(/\s+/g, ' ').slice(0, 400)}`);
			const triggersAt = text.search(/Triggers/i);
			const actionsAt = text.search(/\bActions\b/);
			expect(triggersAt >= 0, 'no "Triggers" section in Document Signing\'s list');
			const triggers = text.slice(triggersAt, actionsAt > triggersAt ? actionsAt : undefined);
			expect(
				/document sent/i.test(triggers),
				`the webhook trigger's events are not under Triggers: ${triggers.slice(0, 300)}`,
			);
			// n8n merges only the trigger named <action node>Trigger (first "Trigger" removed from
			// the name); the Status Trigger's name cannot be that one too (n8n's lint wants trigger
			// names to end with Trigger), so it is listed on its own.
			log(
				`        Status Trigger under Document Signing › Triggers: ${/status/i.test(triggers) ? 'yes' : 'no (listed on its own, see docs/operations.md)'}`,
			);
			await editor.page.keyboard.press('Escape');
		},
	);
}

/** The two JSON fields of a signing workflow's configuration. */
async function workflowConfig(editor: Editor, stack: Stack): Promise<void> {
	await check(
		'findings: Signing Workflow › Create explains Approval Stages and Allowed Overrides',
		async () => {
			const node = {
				id: 'wf-create',
				name: 'Create signing workflow',
				type: NODE,
				typeVersion: ACTION_VERSION,
				position: [0, 0],
				credentials,
				parameters: {
					resource: 'workflow',
					operation: 'create',
					name: 'Property sale',
					configInput: 'fields',
				},
			};
			const id = await saveWorkflow(stack, 'Editor findings: signing workflow config', [node]);
			await editor.openNode(id, node.id, { name: node.name, type: NODE });
			// The innermost parameter item holding each field: its label, input and hint.
			const item = (name: string) =>
				editor.ndv
					.locator('.parameter-item')
					.filter({ has: editor.page.getByTestId(`parameter-input-${name}`) })
					.last();
			await item('approvalStages').scrollIntoViewIfNeeded();
			await editor.page.waitForTimeout(500);
			await shot(editor, 'workflow-config-json', [
				item('approvalStages'),
				item('allowedOverrides'),
			]);
			const texts = await Promise.all(
				['approvalStages', 'allowedOverrides'].map(async (name) =>
					(await item(name).innerText()).replace(/\s+/g, ' ').trim(),
				),
			);
			log(`        ${texts.join(' | ').slice(0, 500)}`);
			const missing = ['approvalStages', 'allowedOverrides'].filter(
				(name, n) =>
					!(texts[n].includes('Keep [] for none') && texts[n].includes(`version.config.${name}`)),
			);
			expect(
				missing.length === 0,
				`no hint with [] and where a shape comes from under: ${missing.join(', ')}`,
			);
			editor.takeErrors();
		},
	);
}

/** Issues 19.4 and 19.5: Create Document's Prefill Fields. */
async function prefillMapper(editor: Editor, stack: Stack): Promise<void> {
	let prefill: Locator | undefined;
	await check(
		'findings: Create Document › Prefill Fields are labelled with the field label alone',
		async () => {
			const api = axios.create({
				baseURL: stack.sandbox.baseUrl,
				headers: { Authorization: `Bearer ${stack.sandbox.apiKey}` },
				validateStatus: () => true,
			});
			const template = await api.post('/templates', TEMPLATE);
			expect(
				template.status < 300,
				`the sandbox refused the template: ${template.status} ${JSON.stringify(template.data).slice(0, 200)}`,
			);
			const templateId = String((template.data as { id: string }).id);
			const node = {
				id: 'create-document',
				name: 'Create document',
				type: NODE,
				typeVersion: ACTION_VERSION,
				position: [0, 0],
				credentials,
				parameters: {
					resource: 'template',
					operation: 'createDocument',
					templateId: { __rl: true, mode: 'id', value: templateId },
					title: 'Flat 4B',
				},
			};
			const id = await saveWorkflow(stack, 'Editor findings: prefill mapper', [node]);
			// A laptop's window, where the finding was seen (the other checks use 1440 × 1600).
			await editor.page.setViewportSize({ width: 1280, height: 800 });
			await editor.openNode(id, node.id, { name: node.name, type: NODE });
			await editor.answer('getPrefillFields', 15_000, (a) =>
				JSON.stringify(a.body).includes('monthly_rent_amount_inr'),
			);
			await editor.page.waitForTimeout(1_000);
			// Recipients first, Prefill Fields last (found by place: its text changes with the mode).
			prefill = editor.ndv.getByTestId('resource-mapper-container').last();
			await prefill.scrollIntoViewIfNeeded();
			await shot(editor, 'mapper-labels', [prefill]);
			const fields = prefill.getByTestId('mapping-fields-container');
			const text = (await fields.innerText()).replace(/\s+/g, ' ');
			log(`        Prefill Fields: ${text.slice(0, 300)}`);
			for (const label of LABELS) expect(text.includes(label), `"${label}" is not shown`);
			expect(
				!/monthly_rent_amount_inr|default "?25000/.test(text),
				`a label still holds the key or the default: ${text.slice(0, 200)}`,
			);
			// Not cut off: no element showing a label is narrower than its text.
			const cut = (await fields.evaluate(
				(root, labels) =>
					[
						...(
							root as unknown as {
								querySelectorAll: (s: string) => Iterable<{
									textContent: string | null;
									scrollWidth: number;
									clientWidth: number;
								}>;
							}
						).querySelectorAll('*'),
					]
						.filter(
							(e) =>
								labels.some((l) => (e.textContent ?? '').trim().startsWith(l)) &&
								e.clientWidth > 0 &&
								e.scrollWidth > e.clientWidth + 1,
						)
						.map((e) => (e.textContent ?? '').trim().slice(0, 80)),
				LABELS,
			)) as string[];
			expect(cut.length === 0, `labels cut off: ${cut.join(' | ')}`);
		},
	);

	await check('findings: Create Document › Prefill Fields offer Map Automatically', async () => {
		expect(prefill, 'the Prefill Fields mapper did not open');
		const select = prefill.getByTestId('mapping-mode-select');
		const offered = (await select.count()) > 0;
		if (offered) {
			await select.first().click();
			await editor.page
				.locator('.el-select-dropdown__item, [data-test-id="parameter-input-item"]')
				.filter({ visible: true })
				.filter({ hasText: 'Map Automatically' })
				.first()
				.click();
			await editor.page.waitForTimeout(800);
		}
		await shot(editor, 'mapper-automap', [prefill]);
		expect(
			offered,
			'Prefill Fields show no mapping mode (Map Each Field Manually / Map Automatically)',
		);
		const text = (await prefill.innerText()).replace(/\s+/g, ' ');
		expect(
			/named the same as the/i.test(text),
			`no Map Automatically notice: ${text.slice(0, 200)}`,
		);
		expect(
			!text.includes('has no fields'),
			`a "no fields" notice next to loaded fields: ${text.slice(0, 200)}`,
		);
		editor.takeErrors();
	});
	await editor.page.setViewportSize({ width: 1440, height: 1600 });
}
