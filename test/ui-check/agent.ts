/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * The action node as an AI tool in the editor: it is offered under an AI Agent's Tools
 * (node creator, with its operations as actions), and its panel offers n8n's "From AI"
 * button on the fields an agent fills and shows the operation's own tool description.
 */
import path from 'path';

import { check, CREDENTIAL_ID, expect, log } from '../e2e/lib';
import type { Stack } from '../../scripts/lib/stack';
import { tally } from './checks';
import type { Editor } from './editor';
import { shot } from './findings-b';
import { NODE_VERSIONS } from '../../nodes/DocumentSigning/actions/shared/versions';

/** The action node's (and its tool's) newest version, as the editor adds it. */
const ACTION_VERSION = Math.max(...NODE_VERSIONS);

const TOOL_TYPE = 'n8n-nodes-document-signing.documentSigningTool';
const credentials = { documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing sandbox' } };

/** An AI Agent with two of the package's tools: Envelope Create from a PDF address, and Create Document. */
function agentWorkflow() {
	const nodes = [
		{
			id: 'ui-agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [0, 0],
			parameters: { promptType: 'define', text: 'Send the contract', options: {} },
		},
		{
			id: 'ui-tool-create',
			name: 'Send Contract PDF',
			type: TOOL_TYPE,
			typeVersion: ACTION_VERSION,
			position: [-100, 240],
			parameters: {
				resource: 'envelope',
				operation: 'create',
				pdfSource: 'url',
				recipients: { recipient: [{ name: '', email: '', role: 'signer' }] },
			},
			credentials,
		},
		{
			id: 'ui-tool-document',
			name: 'Create Document From Template',
			type: TOOL_TYPE,
			typeVersion: ACTION_VERSION,
			position: [140, 240],
			parameters: { resource: 'template', operation: 'createDocument', recipientsInput: 'json' },
			credentials,
		},
	];
	const toAgent = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	return {
		name: 'Editor check: Document Signing as AI agent tools',
		active: false,
		settings: {},
		nodes,
		connections: { 'Send Contract PDF': toAgent, 'Create Document From Template': toAgent },
	};
}

/** Send Envelope behind n8n's Human review (the Chat node's review tool) under an AI Agent. */
function reviewedWorkflow() {
	const node = (
		name: string,
		type: string,
		typeVersion: number,
		position: number[],
		parameters: object,
		extra: object = {},
	) => ({
		id: `ui-review-${position[0]}-${position[1]}`,
		name,
		type,
		typeVersion,
		position,
		parameters,
		...extra,
	});
	return {
		name: 'Editor check: Send Envelope behind Human review',
		active: false,
		settings: {},
		nodes: [
			node(
				'Chat Trigger',
				'@n8n/n8n-nodes-langchain.chatTrigger',
				1.1,
				[-300, 0],
				{ options: { responseMode: 'responseNodes' } },
				{ webhookId: '3c1d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f' },
			),
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, [0, 0], {
				promptType: 'auto',
				options: {},
			}),
			node('Approve Before Sending', '@n8n/n8n-nodes-langchain.chatHitlTool', 1.3, [100, 240], {}),
			node(
				'Send Envelope',
				TOOL_TYPE,
				ACTION_VERSION,
				[100, 460],
				{ resource: 'envelope', operation: 'send' },
				{ credentials },
			),
		],
		connections: {
			'Chat Trigger': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Approve Before Sending': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Send Envelope': {
				ai_tool: [[{ node: 'Approve Before Sending', type: 'ai_tool', index: 0 }]],
			},
		},
	};
}

/** Hovers each parameter and tells which offer the "From AI" button. */
async function fromAiButtons(editor: Editor, names: string[]): Promise<Record<string, boolean>> {
	const found: Record<string, boolean> = {};
	for (const name of names) {
		const input = editor.ndv.getByTestId(`parameter-input-${name}`).first();
		if ((await input.count()) === 0) {
			found[name] = false;
			continue;
		}
		await input.scrollIntoViewIfNeeded();
		await input.hover();
		await editor.page.waitForTimeout(300);
		// The button sits in the parameter's row (label line), shown while hovered.
		const row = editor.ndv
			.locator(`[data-test-id="parameter-item"]:has([data-test-id="parameter-input-${name}"])`)
			.last();
		const scope = (await row.count()) > 0 ? row : editor.ndv;
		found[name] = (await scope.getByTestId('from-ai-override-button').count()) > 0;
	}
	return found;
}

export async function checkAgentTools(
	editor: Editor,
	stack: Stack,
	shotsDir: string,
): Promise<void> {
	const saved = await stack.rest.post('/workflows', agentWorkflow());
	if (saved.status !== 200)
		throw new Error(
			`saving the agent workflow answered ${saved.status}: ${JSON.stringify(saved.data).slice(0, 300)}`,
		);
	const workflowId = (saved.data as { data: { id: string } }).data.id;
	const page = editor.page;

	await check(
		'AI Agent > Tools: "Document Signing Tool" is offered; added, it shows its resources, operations and own tool description',
		async () => {
			await page.goto(`${stack.n8nUrl}/workflow/${workflowId}`);
			await page.getByTestId('canvas-node').first().waitFor({ timeout: 30_000 });
			await page.waitForTimeout(1_000);
			await editor.screenshot(path.join(shotsDir, 'agent-canvas.png'));
			tally.screenshots++;
			const handle = page.locator(
				'[data-test-id="canvas-node-input-handle"][data-connection-type="ai_tool"][data-node-name="AI Agent"]',
			);
			await handle.getByTestId('canvas-handle-plus').first().click();
			await page.getByTestId('node-creator').waitFor({ timeout: 15_000 });
			await page.getByTestId('node-creator-search-bar').first().fill('Document Signing');
			await page.waitForTimeout(1_000);
			const names = (await page.getByTestId('node-creator-item-name').allInnerTexts()).map((t) =>
				t.trim(),
			);
			log(`        tools found: ${names.join(' | ')}`);
			await editor.screenshot(path.join(shotsDir, 'agent-tools-search.png'));
			tally.screenshots++;
			const ours = page
				.getByTestId('node-creator-item-name')
				.filter({ hasText: 'Document Signing' })
				.first();
			expect(
				(await ours.count()) > 0,
				`no Document Signing entry under the agent's tools: ${names.join(' | ')}`,
			);
			// A tool is added at once (no action list in the Tools panel): its panel opens.
			await ours.click();
			await editor.ndv.getByTestId('node-parameters').waitFor({ timeout: 30_000 });
			await page.waitForTimeout(1_000);
			const description = await editor.ndv
				.getByTestId('parameter-input-toolDescription')
				.locator('textarea')
				.first()
				.inputValue();
			expect(
				description.startsWith('Create a draft envelope'),
				`the added tool's description: "${description}"`,
			);
			const resources = await editor.dropdownEntries(
				editor.ndv.getByTestId('parameter-input-resource').first(),
			);
			const operations = await editor.dropdownEntries(
				editor.ndv.getByTestId('parameter-input-operation').first(),
			);
			log(
				`        resources: ${resources.map((r) => r.split('\n')[0]).join(' | ')}; envelope operations: ${operations.map((o) => o.split('\n')[0]).join(' | ')}`,
			);
			await editor.screenshot(path.join(shotsDir, 'agent-tool-added.png'));
			tally.screenshots++;
			for (const wanted of ['Credit', 'Envelope', 'Signing Workflow', 'Template'])
				expect(
					resources.some((r) => r.startsWith(wanted)),
					`resource "${wanted}" missing: ${resources.join(' | ')}`,
				);
			for (const wanted of ['Create', 'Get Many', 'Get Status', 'Send', 'Download File'])
				expect(
					operations.some((o) => o.startsWith(wanted)),
					`operation "${wanted}" missing: ${operations.join(' | ')}`,
				);
			await page.keyboard.press('Escape');
		},
	);

	await check(
		'Tool panel (Envelope Create from a PDF URL): "From AI" on the fields an agent fills; the tool description is the operation\'s own',
		async () => {
			await editor.openNode(workflowId, 'ui-tool-create');
			const description = await editor.ndv
				.getByTestId('parameter-input-toolDescription')
				.locator('textarea')
				.first()
				.inputValue();
			log(`        tool description: ${description.slice(0, 100)}…`);
			expect(
				description.startsWith('Create a draft envelope'),
				`tool description: "${description}"`,
			);
			const buttons = await fromAiButtons(editor, [
				'pdfUrl',
				'title',
				'fileName',
				'name',
				'email',
				'phone',
			]);
			log(`        From AI offered: ${JSON.stringify(buttons)}`);
			await editor.screenshot(path.join(shotsDir, 'agent-tool-panel.png'));
			tally.screenshots++;
			const missing = Object.entries(buttons)
				.filter(([, offered]) => !offered)
				.map(([name]) => name);
			expect(missing.length === 0, `no From AI button on: ${missing.join(', ')}`);
		},
	);

	await check(
		"Human review: Send Envelope wrapped by the Chat node's review tool under an AI Agent, as docs/ai-agents.md shows",
		async () => {
			const reviewed = await stack.rest.post('/workflows', reviewedWorkflow());
			expect(
				reviewed.status === 200,
				`saving the review workflow answered ${reviewed.status}: ${JSON.stringify(reviewed.data).slice(0, 300)}`,
			);
			await page.goto(
				`${stack.n8nUrl}/workflow/${(reviewed.data as { data: { id: string } }).data.id}`,
			);
			await page.getByTestId('canvas-node').first().waitFor({ timeout: 30_000 });
			await page.waitForTimeout(1_500);
			// The four nodes and the label under the tool (docs/images/agent-human-review.png).
			const nodes = await page.getByTestId('canvas-node').all();
			await shot(editor, 'agent-human-review', [
				...nodes,
				page.getByText('send: envelope').first(),
			]);
			tally.screenshots++;
			const names = (
				await page
					.getByTestId('canvas-node')
					.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-name') ?? ''))
			).sort();
			expect(
				JSON.stringify(names) ===
					JSON.stringify(['AI Agent', 'Approve Before Sending', 'Chat Trigger', 'Send Envelope']),
				`nodes on the canvas: ${names.join(', ')}`,
			);
			// An unknown type would be drawn as a placeholder that asks to install it.
			const unknown = await page.getByText(/Install this node|not currently installed/i).count();
			expect(unknown === 0, 'n8n does not know a node of the review workflow');
			const edges = await page.locator('[data-test-id="edge"], .vue-flow__edge').count();
			expect(edges >= 3, `${edges} connections drawn (3 expected: trigger, review, tool)`);
		},
	);

	await check(
		'Tool panel (Create Document): "From AI" on template, title and recipients',
		async () => {
			await editor.openNode(workflowId, 'ui-tool-document');
			const buttons = await fromAiButtons(editor, [
				'title',
				'recipientMappingJson',
				'sendImmediately',
			]);
			const picker = editor.ndv.getByTestId('resource-locator-templateId').first();
			await picker.hover();
			await editor.page.waitForTimeout(300);
			buttons.templateId =
				(await editor.ndv
					.locator(
						'[data-test-id="parameter-item"]:has([data-test-id="resource-locator-templateId"])',
					)
					.last()
					.getByTestId('from-ai-override-button')
					.count()) > 0;
			log(`        From AI offered: ${JSON.stringify(buttons)}`);
			await editor.screenshot(path.join(shotsDir, 'agent-tool-document.png'));
			tally.screenshots++;
			const missing = Object.entries(buttons)
				.filter(([, offered]) => !offered)
				.map(([name]) => name);
			expect(missing.length === 0, `no From AI button on: ${missing.join(', ')}`);
		},
	);
}
