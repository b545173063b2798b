/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * The editor findings of a first use (docs/editor/README.md), each seen and asserted in
 * the editor: a screenshot of the part of the panel it concerns is saved to
 * .ui-check/findings/<name>.png first, then the fix is asserted (so an editor without the
 * fix still gets its picture, and fails). Run alone with UI_CHECK_ONLY=findings.
 *
 * Also the defaults check: every panel of the action node is run (in-process n8n, with a
 * PDF item) with the values it opens with, and no problem its validation reports may name
 * a parameter whose non-empty default the user has not changed (a default the node refuses).
 */
import { mkdirSync } from 'fs';
import path from 'path';
import type { Locator } from 'playwright-core';

import { ROOT, type Stack } from '../../scripts/lib/stack';
import { check, CREDENTIAL_ID, expect, log } from '../e2e/lib';
import { tally } from './checks';
import type { Editor } from './editor';
import { type Panel, panels, visibleParameters } from './panels';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

/** The action node's (and its tool's) newest version, as the editor adds it. */
const ACTION_VERSION = Math.max(...NODE_VERSIONS);

const NODE_TYPE = 'n8n-nodes-document-signing.documentSigning';
const TOOL_TYPE = 'n8n-nodes-document-signing.documentSigningTool';
const credentials = { documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing sandbox' } };

/**
 * The harness imports `DocumentSigning.node` by name; Node's own order would resolve that
 * to the node's codex file (`DocumentSigning.node.json`) before ts-node's `.ts`, as jest does not.
 * `.json` is moved after `.ts` once, then the harness is loaded.
 */
async function loadHarness() {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const extensions = (require('module') as { _extensions: Record<string, unknown> })._extensions;
	const json = extensions['.json'];
	delete extensions['.json'];
	extensions['.json'] = json;
	return { ...(await import('../harness')), ...(await import('../envelope/helpers')) };
}

/** The nodes each finding opens (one workflow). */
function findingsWorkflow(
	estampParams: (overrides: Record<string, unknown>) => Record<string, unknown>,
) {
	const node = (
		id: string,
		name: string,
		parameters: object,
		type = NODE_TYPE,
		position = [0, 0],
	) => ({ id, name, type, typeVersion: ACTION_VERSION, position, parameters, credentials });
	const estamp = {
		resource: 'envelope',
		operation: 'create',
		pdfSource: 'none',
		fileName: 'contract.pdf',
		title: 'Lease',
		estampEnabled: true,
		estampState: 'KA',
	};
	const placement = {
		recipients: {
			recipient: [
				{
					name: 'Asha Rao',
					email: 'asha@example.com',
					role: 'signer',
					signaturePlacement: { searchText: 'Signature of tenant', width: 200, height: 50 },
				},
			],
		},
	};
	// Filled as a user fills it, with a duty under the minimum: n8n runs it and the node refuses it.
	const filled = {
		...estamp,
		...estampParams({ estampAmount: 5 }),
		recipients: { recipient: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }] },
	};
	const nodes = [
		node('fi-estamp', 'E-stamp', estamp),
		node('fi-estamp-run', 'E-stamp filled in', filled, NODE_TYPE, [0, 200]),
		node(
			'fi-placement',
			'Placement',
			{
				resource: 'envelope',
				operation: 'create',
				pdfSource: 'none',
				fileName: 'contract.pdf',
				...placement,
			},
			NODE_TYPE,
			[260, 0],
		),
		node(
			'fi-download',
			'Download',
			{ resource: 'envelope', operation: 'downloadFile' },
			NODE_TYPE,
			[520, 0],
		),
		node(
			'fi-url',
			'By URL',
			{
				resource: 'envelope',
				operation: 'getStatus',
				envelopeId: {
					__rl: true,
					mode: 'url',
					value: 'https://app.example.com/envelopes/env_8f3a2c',
				},
			},
			NODE_TYPE,
			[780, 0],
		),
		{
			id: 'fi-agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [0, 300],
			parameters: { promptType: 'define', text: 'Send the contract', options: {} },
		},
		node(
			'fi-tool',
			'Send Contract PDF',
			{ resource: 'envelope', operation: 'create' },
			TOOL_TYPE,
			[0, 500],
		),
	];
	return {
		name: 'Editor check: findings of a first use',
		active: false,
		settings: {},
		nodes,
		connections: {
			'Send Contract PDF': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

/** A picture of `target` (with a margin), else of the whole panel. */
async function shoot(editor: Editor, target: Locator | undefined, file: string): Promise<void> {
	const box = target && (await target.count()) > 0 ? await target.first().boundingBox() : null;
	if (box) {
		await editor.page.screenshot({
			path: file,
			clip: {
				x: Math.max(0, box.x - 12),
				y: Math.max(0, box.y - 12),
				width: box.width + 24,
				height: box.height + 24,
			},
		});
	} else {
		await editor.ndv.screenshot({ path: file });
	}
	tally.screenshots++;
}

/** The parameter row of `name` (label, input, hint), for a picture. */
const row = (editor: Editor, name: string) =>
	editor.ndv.locator(
		`[data-test-id="parameter-item"]:has([data-test-id="parameter-input-${name}"]), [data-test-id="parameter-item"]:has([data-test-id="resource-locator-${name}"])`,
	);

export async function checkFindings(editor: Editor, stack: Stack): Promise<void> {
	const dir = path.join(ROOT, '.ui-check', 'findings');
	mkdirSync(dir, { recursive: true });
	const shot = (name: string) => path.join(dir, `${name}.png`);
	const { estampParams } = await loadHarness();
	let saved = await stack.rest
		.post('/workflows', findingsWorkflow(estampParams))
		.catch((error: Error) => ({ status: 0, data: error.message }));
	// One more try after a dropped connection (n8n still settling after its start).
	if (saved.status === 0) {
		await editor.page.waitForTimeout(3000);
		saved = await stack.rest.post('/workflows', findingsWorkflow(estampParams));
	}
	expect(saved.status === 200, `saving the findings workflow answered ${saved.status}`);
	const workflowId = (saved.data as { data: { id: string } }).data.id;

	await check(
		'finding: Stamp Duty Amount opens empty (0 is always refused), with a placeholder and hint',
		async () => {
			await editor.openNode(workflowId, 'fi-estamp', { name: 'E-stamp', type: NODE_TYPE });
			const input = editor.ndv.getByTestId('parameter-input-estampAmount').locator('input').first();
			await input.scrollIntoViewIfNeeded();
			await shoot(editor, row(editor, 'estampAmount'), shot('estamp-amount'));
			const value = await input.inputValue();
			expect(value === '', `Stamp Duty Amount opens with "${value}"`);
		},
	);

	await check(
		'finding: the Article picker preselects nothing (no "Other: Type the Exact Value")',
		async () => {
			const input = editor.ndv
				.getByTestId('parameter-input-estampArticle')
				.locator('input')
				.first();
			await input.scrollIntoViewIfNeeded();
			await editor.page.waitForTimeout(500);
			await shoot(editor, row(editor, 'estampArticle'), shot('estamp-article'));
			const value = await input.inputValue();
			expect(!/Other|Exact Value/.test(value), `the Article picker opens with "${value}"`);
			expect(
				(await editor.ndv.getByTestId('parameter-input-estampArticleValue').count()) === 0,
				'the Article (Exact Value) field shows with nothing picked',
			);
		},
	);

	await check('finding: the Stamp State list says no "assumed; not published"', async () => {
		const input = editor.ndv.getByTestId('parameter-input-estampState').first();
		await input.scrollIntoViewIfNeeded();
		await input.locator('input, .el-select__wrapper').first().click();
		const dropdown = editor.page
			.locator('.el-select-dropdown, .el-popper')
			.filter({ visible: true })
			.filter({ hasText: 'Karnataka' });
		await dropdown.first().waitFor({ timeout: 8_000 });
		await shoot(editor, dropdown, shot('estamp-state'));
		const text = await dropdown.first().innerText();
		await editor.page.keyboard.press('Escape');
		expect(
			!/assumed|not published/i.test(text),
			'the state list still says "assumed; not published"',
		);
	});

	await check(
		'finding: an e-stamp error names the field the user sees (Stamp Duty Amount), not the API path',
		async () => {
			await editor.openNode(workflowId, 'fi-estamp-run', {
				name: 'E-stamp filled in',
				type: NODE_TYPE,
			});
			await editor.ndv.getByTestId('node-execute-button').first().click();
			const output = editor.ndv.getByTestId('output-panel');
			await output
				.getByText(/e-stamp|estamp/i)
				.first()
				.waitFor({ timeout: 20_000 });
			await editor.page.waitForTimeout(500);
			await shoot(editor, output, shot('estamp-error'));
			const text = await output.innerText();
			expect(
				text.includes('Stamp Duty Amount') && !text.includes('estampConfig'),
				`the error reads: ${text.replace(/\s+/g, ' ').slice(0, 300)}`,
			);
		},
	);

	await check('finding: signature placement sizes say their unit (PDF points)', async () => {
		await editor.openNode(workflowId, 'fi-placement', { name: 'Placement', type: NODE_TYPE });
		const width = editor.ndv.getByTestId('parameter-input-width').first();
		await width.scrollIntoViewIfNeeded();
		const box = editor.ndv.locator('[data-test-id="collection-parameter"]').filter({ has: width });
		await shoot(
			editor,
			(await box.count()) > 0 ? box : row(editor, 'recipients'),
			shot('placement-units'),
		);
		const text = await editor.ndv.innerText();
		expect(/200 pt/.test(text) && /PDF points/.test(text), 'Width and Height show no unit');
	});

	await check(
		'finding: Download File says which PDF it downloads and outputs whether it is signed',
		async () => {
			await editor.openNode(workflowId, 'fi-download', { name: 'Download', type: NODE_TYPE });
			await shoot(editor, editor.ndv.getByTestId('node-parameters'), shot('download-file'));
			const text = await editor.ndv.getByTestId('node-parameters').innerText();
			expect(
				/signed PDF once the envelope is completed/.test(text),
				'the panel does not say whether the PDF is the signed one',
			);
			expect(
				text.includes('Include Signing Status'),
				'no Include Signing Status (output envelopeStatus and signed)',
			);
		},
	);

	await check(
		'finding: the envelope picker has a By URL mode that takes the id from the address',
		async () => {
			await editor.openNode(workflowId, 'fi-url', { name: 'By URL', type: NODE_TYPE });
			const locator = editor.ndv.getByTestId('resource-locator-envelopeId').first();
			await locator.waitFor({ timeout: 10_000 });
			await shoot(editor, row(editor, 'envelopeId'), shot('envelope-by-url'));
			const mode = await locator
				.getByTestId('rlc-mode-selector')
				.locator('input')
				.first()
				.inputValue()
				.catch(() => '');
			const issues = await row(editor, 'envelopeId').innerText();
			expect(mode === 'By URL', `the picker's mode reads "${mode}"`);
			expect(
				!/not a|invalid|needs/i.test(issues),
				`the picker flags the address: ${issues.replace(/\s+/g, ' ')}`,
			);
		},
	);

	await check(
		'finding: as an AI tool, PDF Source defaults to Download From URL (an agent cannot attach a file)',
		async () => {
			await editor.openNode(workflowId, 'fi-tool', { name: 'Send Contract PDF', type: TOOL_TYPE });
			const input = editor.ndv.getByTestId('parameter-input-pdfSource').locator('input').first();
			await input.scrollIntoViewIfNeeded();
			await shoot(editor, editor.ndv.getByTestId('node-parameters'), shot('tool-pdf-source'));
			const value = await input.inputValue();
			expect(value === 'Download From URL', `the tool's PDF Source opens with "${value}"`);
			expect(
				(await editor.ndv.getByTestId('parameter-input-pdfUrl').count()) > 0,
				'no PDF URL field on the tool',
			);
		},
	);
	editor.takeErrors();
}

/** Problems of a validation error as "<field>: <rule>" lines. */
const problemLines = (error: unknown): string[] => {
	const e = error as
		| { message?: string; description?: string; context?: { fieldErrors?: string[] } }
		| undefined;
	if (!e) return [];
	return (
		e.context?.fieldErrors ??
		`${e.description ?? ''}; ${(e.message ?? '').replace(/^Invalid [^:]+: /, '')}`.split('; ')
	);
};

/**
 * Values for the shown required parameters a panel leaves empty, so that n8n's own check
 * (which refuses a workflow with an empty required parameter) lets the node's validation run:
 * the example of the field's placeholder, else a plain value of its type.
 */
function fillRequired(panel: Panel, parameters: Record<string, unknown>): void {
	for (const p of visibleParameters(panel.description, parameters as Panel['parameters'])) {
		const same = panel.description.properties.filter((q) => q.name === p.name && q.type === p.type);
		const property = same.find((q) => q.required) ?? same[0];
		if (!property?.required || p.name in parameters) continue;
		const empty =
			property.default === '' ||
			(property.type === 'resourceLocator' &&
				(property.default as { value?: unknown })?.value === '');
		if (!empty) continue;
		const example = /^e\.g\. (.+)$/.exec(property.placeholder ?? '')?.[1];
		if (property.type === 'resourceLocator')
			parameters[p.name] = { __rl: true, mode: 'id', value: 'unknown_id' };
		else if (property.type === 'string') parameters[p.name] = example ?? 'x';
		else if (property.type === 'number') parameters[p.name] = Number(example ?? 1);
		else if (property.type === 'options')
			parameters[p.name] = (property.options?.[0] as { value?: unknown })?.value ?? 'x';
		else if (property.type === 'json') parameters[p.name] = '{}';
	}
}

/** The shown parameters of a panel whose default is not empty and that the panel does not set. */
function untouchedDefaults(panel: Panel): Array<{ name: string; displayName: string }> {
	return visibleParameters(panel.description, panel.parameters)
		.filter((p) => !(p.name in panel.parameters))
		.filter((p) => {
			const property = panel.description.properties.find(
				(q) => q.name === p.name && q.type === p.type,
			);
			const value = property?.default;
			return (
				value !== undefined &&
				value !== '' &&
				value !== null &&
				typeof value !== 'object' &&
				typeof value !== 'boolean'
			);
		})
		.map((p) => ({ name: p.name, displayName: p.displayName }));
}

/** No panel of the action node opens with a default its own validation refuses. */
export async function checkDefaults(): Promise<void> {
	const { actionNode, chain, seedNode, startHarness, estampParams, makePdf, pdfItem } =
		await loadHarness();
	const h = await startHarness();
	try {
		const pdf = await makePdf();
		const action = panels().filter((p) => p.nodeType === NODE_TYPE);
		let runs = 0;
		const refused: string[] = [];
		for (const panel of action) {
			const defaults = untouchedDefaults(panel);
			if (defaults.length === 0) continue;
			// A schema checks a value's range only once the object holds the required values: the
			// e-stamp's are filled as a user fills them, except those whose default is checked.
			const parameters: Record<string, unknown> = panel.parameters.estampEnabled
				? { ...estampParams(), ...panel.parameters }
				: { ...panel.parameters };
			for (const { name } of defaults) if (!(name in panel.parameters)) delete parameters[name];
			// The PDF comes with the item (a URL would be fetched before anything is checked).
			if ('pdfSource' in parameters) parameters.pdfSource = 'binary';
			fillRequired(panel, parameters);
			// n8n's own check of the workflow may still refuse it: its lines count as problems too.
			const error = await h
				.run({
					nodes: [seedNode(), actionNode(parameters as never)],
					connections: chain('Seed', 'Document Signing'),
					input: [pdfItem(pdf)],
				})
				.then(
					(result) => result.error,
					(thrown: Error) => ({
						message: '',
						description: thrown.message.split('\n- ').slice(1).join('; '),
					}),
				);
			runs++;
			for (const line of problemLines(error)) {
				const field = defaults.find(({ displayName }) => line.startsWith(`${displayName}: `));
				if (field)
					refused.push(`${panel.title}: the default of ${field.displayName} is refused (${line})`);
			}
		}
		await check(
			`defaults: no parameter's default is one the node refuses (${runs} panels run with their defaults)`,
			async () => {
				expect(refused.length === 0, refused.join('\n'));
			},
		);
		log(`        ${runs} panels run with their defaults, ${refused.length} refused defaults`);
	} finally {
		await h.close();
	}
}
