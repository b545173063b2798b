/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/** The checks of one panel and of one credential, in the real editor. */
import path from 'path';

import { check, expect, log } from '../e2e/lib';
import type { Editor, LoaderAnswer } from './editor';
import { type Panel, visibleParameters } from './panels';

const LOAD_MS = 15_000;

/** What n8n's loader route answered for `method` in this panel, for a failure message. */
const answered = (editor: Editor, method: string) =>
	editor.answers
		.filter((a) => a.method === method)
		.map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 200)}`)
		.join('; ') || 'no request';

const list = (entries: string[]) =>
	`${entries.length} (${entries
		.slice(0, 3)
		.map((e) => e.replace(/\s+/g, ' '))
		.join(' | ')
		.slice(0, 120)}${entries.length > 3 ? ' | …' : ''})`;

/** Counts and names what a panel check did, for the summary. */
export const tally = { panels: 0, parameters: 0, loaders: 0, screenshots: 0 };

/**
 * Opens a panel and checks: every parameter its values show renders; every picker lists
 * entries (the first is picked, so what depends on it loads next); every options loader,
 * also inside list entries, lists entries; every resource mapper loads fields and shows
 * them; no console error from the package. Saves a screenshot.
 */
export async function checkPanel(
	editor: Editor,
	workflowId: string,
	node: { id: string; name: string },
	panel: Panel,
	shotsDir: string,
): Promise<void> {
	const expected = visibleParameters(panel.description, panel.parameters);
	let opened = false;
	await check(`${panel.title}: the panel opens`, async () => {
		await editor.openNode(workflowId, node.id, { name: node.name, type: panel.nodeType });
		opened = true;
	});
	if (!opened) return;
	tally.panels++;
	tally.parameters += expected.length;

	await check(`${panel.title}: its ${expected.length} parameters render`, async () => {
		const missing: string[] = [];
		// A resource mapper shows once what it depends on is chosen: checked with its fields below.
		for (const p of expected.filter((e) => !e.resourceMapper))
			if (!(await editor.renders(p.name, p.displayName)))
				missing.push(`${p.displayName} (${p.name})`);
		expect(missing.length === 0, `not in the panel: ${missing.join(', ')}`);
	});

	for (const p of expected.filter((e) => e.searchList)) {
		tally.loaders++;
		await check(`${panel.title}: ${p.displayName} lists entries (${p.searchList})`, async () => {
			const entries = await editor.pickFromList(p.name);
			log(`        ${p.name}: ${list(entries)}`);
			expect(entries.length > 0, `the list of ${p.displayName} is empty`);
		});
	}
	for (const p of expected.filter((e) => e.loadOptions)) {
		tally.loaders++;
		await check(`${panel.title}: ${p.displayName} lists options (${p.loadOptions})`, async () => {
			const entries = await editor.dropdownEntries(
				editor.ndv.getByTestId(`parameter-input-${p.name}`).first(),
			);
			log(`        ${p.name}: ${list(entries)}`);
			expect(
				entries.length > 0,
				`the dropdown of ${p.displayName} is empty (n8n's answers: ${answered(editor, p.loadOptions as string)})`,
			);
		});
	}
	for (const p of expected.filter((e) => e.resourceMapper)) {
		tally.loaders++;
		await check(
			`${panel.title}: ${p.displayName} loads its fields (${p.resourceMapper})`,
			async () => {
				// n8n asks again once the picker above has a value: wait for an answer with fields.
				const fieldsOf = (a: LoaderAnswer) =>
					(
						(a.body as { data?: { fields?: Array<{ displayName: string }> } })?.data?.fields ?? []
					).map((f) => f.displayName);
				const answer = await editor.answer(
					p.resourceMapper as string,
					LOAD_MS,
					(a) => fieldsOf(a).length > 0,
				);
				expect(answer, `n8n did not ask for the fields of ${p.displayName}`);
				const fields = fieldsOf(answer);
				log(`        ${p.name}: ${list(fields)}`);
				expect(fields.length > 0, `${p.displayName} loaded no fields (${answer.status})`);
				const shown = await editor.ndv.getByText(fields[0], { exact: false }).count();
				expect(shown > 0, `${p.displayName}: the field "${fields[0]}" is not shown`);
			},
		);
	}
	for (const p of expected.filter((e) => e.nested)) {
		for (const inner of p.nested ?? []) {
			tally.loaders++;
			await check(
				`${panel.title}: ${p.displayName} › ${inner.displayName} lists options (${inner.loadOptions})`,
				async () => {
					const container = editor.ndv.getByTestId(`fixed-collection-${p.name}`);
					const add =
						(await container.count()) > 0
							? container.getByTestId('fixed-collection-add').first()
							: editor.ndv.getByTestId('collection-parameter-add').first();
					await add.click();
					// A list with several kinds of entry, or a collection, asks which one.
					const choice = editor.page
						.locator('.el-select-dropdown__item, [data-test-id="collection-parameter-option"]')
						.filter({ visible: true })
						.filter({ hasText: inner.entry });
					if ((await choice.count()) > 0) await choice.first().click();
					const entries = await editor.dropdownEntries(
						editor.ndv.getByTestId(`parameter-input-${inner.name}`).first(),
					);
					log(`        ${inner.name}: ${list(entries)}`);
					expect(
						entries.length > 0,
						`the dropdown of ${inner.displayName} is empty (n8n's answers: ${answered(editor, inner.loadOptions)})`,
					);
				},
			);
		}
	}

	await editor.screenshot(path.join(shotsDir, `${panel.id}.png`));
	tally.screenshots++;
	await check(`${panel.title}: no console error from the package`, async () => {
		const { ours, others } = editor.takeErrors();
		for (const other of others) log(`        (editor, not the package) ${other.slice(0, 200)}`);
		expect(ours.length === 0, ours.join('\n'));
	});
}

/**
 * Opens a saved credential as the user does (Credentials › the credential) and checks
 * that every field renders and that n8n's connection test passes (or, for a bad address,
 * fails); logs whether the form explains the failure's error code.
 */
export async function checkCredential(
	editor: Editor,
	n8nUrl: string,
	credential: { id: string; name: string; fields: Array<{ name: string; displayName: string }> },
	expectOk: boolean,
	shotsDir: string,
	shot: string,
): Promise<void> {
	await check(
		`credential "${credential.name}": fields render and the connection test ${expectOk ? 'passes' : 'fails'}`,
		async () => {
			editor.answers = [];
			await editor.page.goto(`${n8nUrl}/home/credentials/${credential.id}`);
			const modal = editor.page.getByTestId('editCredential-modal');
			await modal.waitFor({ timeout: 30_000 });
			await editor.page.waitForTimeout(800);
			const missing: string[] = [];
			for (const field of credential.fields) {
				if (
					(await modal.getByTestId(`parameter-input-${field.name}`).count()) === 0 &&
					(await modal.getByText(field.displayName).count()) === 0
				)
					missing.push(field.displayName);
			}
			expect(missing.length === 0, `not in the credential form: ${missing.join(', ')}`);
			// Saving runs n8n's connection test (the credential's `test` request).
			await modal.getByTestId('credential-save-button').click();
			const answer = await editor.answer('', LOAD_MS);
			await editor.page.waitForTimeout(1000);
			await editor.screenshot(path.join(shotsDir, `${shot}.png`));
			tally.screenshots++;
			const result = (answer?.body as { data?: { status?: string; message?: string } } | undefined)
				?.data;
			log(
				`        connection test: ${result?.status ?? '(no answer)'} ${result?.message ?? ''}`.trimEnd(),
			);
			expect(
				answer && answer.status < 400,
				`the connection test answered ${answer?.status ?? 'nothing'}`,
			);
			expect(
				(result?.status === 'OK') === expectOk,
				`connection test ${result?.status}: ${result?.message}`,
			);
			if (!expectOk) {
				// n8n shows the request's error code; the package explains codes in the form's hints.
				const code = result?.message ?? '';
				const explained = code.length > 30 || (await modal.innerText()).includes(code);
				log(
					`        ${explained ? 'the form explains' : 'NOTE: nothing in the form explains'} "${code}"`,
				);
			}
			editor.takeErrors();
		},
	);
}
