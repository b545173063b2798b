/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- local tooling: starts n8n and drives its editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * The editor in a real browser (npm run ui-check).
 *
 * Starts the e2e stack (scripts/lib/stack.ts: the packed package in the pinned n8n, the
 * sandbox, the e2e credentials and workflows) under its own stack name, fills the sandbox
 * with what the pickers list, and saves one workflow holding a node per panel of
 * test/ui-check/panels.ts (every resource and operation of every node, from dist/). Then,
 * in headless Chromium (Debian's chromium, installed with apt-get when missing, driven by
 * playwright-core): signs in, opens every panel and the credential, and checks them
 * (test/ui-check/checks.ts). Screenshots go to .ui-check/ (git ignores it).
 *
 * Env: E2E_STACK names the stack folder under .e2e/ (default "ui-check"); UI_CHECK_ONLY=<text>
 * opens only the panels whose title contains it (`credential`: only the credential; `agent`: only the AI-agent tool checks; `findings`: only the first-use findings of test/ui-check/findings*.ts, with their screenshots in .ui-check/findings/, and the check that no default is refused; `findings-c`: only part C; `findings-d`: only part D). Prints `N passed, N failed` last.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdirSync } from 'fs';
import path from 'path';

import {
	type CredentialFixture,
	ROOT,
	type SandboxInfo,
	Stack,
	stopOnExit,
} from '../../scripts/lib/stack';
import {
	CREDENTIAL_ID,
	elapsedSeconds,
	EXAMPLES_DIR,
	loadWorkflows,
	log,
	PACKAGE,
	PLAIN_CREDENTIAL_ID,
	results,
	runMain,
	WORKFLOWS_DIR,
} from '../e2e/lib';
import { checkAgentTools } from './agent';
import { checkCredential, checkPanel, tally } from './checks';
import { checkFindingsB } from './findings-b';
import { checkFindingsC } from './findings-c';
import { checkFindingsD } from './findings-d';
import { CHROMIUM, Editor } from './editor';
import { checkDefaults, checkFindings } from './findings';
import { credentialFields, latestVersion, nodeDescriptions, type Panel, panels } from './panels';
import { seedSandbox } from './seed';

export const SHOTS_DIR = path.join(ROOT, '.ui-check');
const UNREACHABLE_ID = 'DsUiUnreachab001';
const MALFORMED_ID = 'DsUiMalformedU01';

const credentials = (sandbox: SandboxInfo): CredentialFixture[] => [
	{
		id: CREDENTIAL_ID,
		name: 'Document Signing sandbox',
		type: 'documentSigningApi',
		data: {
			baseUrl: sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			webhookSecret: sandbox.webhookSecret,
		},
	},
	{
		id: PLAIN_CREDENTIAL_ID,
		name: 'Document Signing sandbox without webhook secret',
		type: 'documentSigningApi',
		data: { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, webhookSecret: '' },
	},
	// Nothing listens on port 9 of loopback: the connection is refused.
	{
		id: UNREACHABLE_ID,
		name: 'Document Signing, host not reachable',
		type: 'documentSigningApi',
		data: { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: sandbox.apiKey, webhookSecret: '' },
	},
	{
		id: MALFORMED_ID,
		name: 'Document Signing, malformed address',
		type: 'documentSigningApi',
		data: { baseUrl: 'htp:/sandbox api', apiKey: sandbox.apiKey, webhookSecret: '' },
	},
];

/** Debian's chromium when it is not there yet (a fresh machine). */
function ensureChromium(): void {
	if (existsSync(CHROMIUM)) return;
	log(`${CHROMIUM} is missing: apt-get install -y chromium`);
	const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
	const apt = (args: string[]) =>
		execFileSync(
			sudo[0] ?? 'apt-get',
			[...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), ...args],
			{ stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
		);
	apt(['update']);
	apt(['install', '-y', '--no-install-recommends', 'chromium']);
}

/** One workflow with a node per panel (nodes side by side), as the REST API saves it. */
function panelWorkflow(all: Panel[]): { body: object; nodeIds: string[]; nodeNames: string[] } {
	const nodeIds = all.map((panel, i) =>
		`ui-${String(i).padStart(3, '0')}-${panel.id}`.slice(0, 60),
	);
	const nodeNames = all.map((panel, i) => `${i + 1}. ${panel.title}`.slice(0, 120));
	const nodes = all.map((panel, i) => ({
		id: nodeIds[i],
		name: nodeNames[i],
		type: panel.nodeType,
		typeVersion: latestVersion(panel.description),
		position: [(i % 8) * 260, Math.floor(i / 8) * 200],
		parameters: panel.parameters,
		...(panel.description.webhooks
			? { webhookId: `0000ui00-0000-4000-8000-${String(i).padStart(12, '0')}` }
			: {}),
		...(panel.description.credentials?.length
			? {
					credentials: {
						documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing sandbox' },
					},
				}
			: {}),
	}));
	return {
		body: {
			name: 'Editor check: every panel',
			active: false,
			settings: {},
			connections: {},
			nodes,
		},
		nodeIds,
		nodeNames,
	};
}

async function main(): Promise<void> {
	ensureChromium();
	const stack = new Stack({ name: process.env.E2E_STACK || 'ui-check', fresh: true, log });
	const stopAndExit = stopOnExit(stack, log);
	const editor = new Editor(stack.n8nUrl ?? '', []);
	try {
		await stack.start({
			credentials,
			workflows: [
				...Object.values(loadWorkflows(WORKFLOWS_DIR)),
				...Object.values(loadWorkflows(EXAMPLES_DIR)),
			],
			substitutions: { __FILES_DIR__: stack.filesDir },
		});
	} catch (error) {
		log(`FAIL  the stack did not start: ${(error as Error).message}`);
		results.push({ name: 'stack starts', ok: false });
		return await finish(stack, editor, stopAndExit);
	}
	results.push({ name: 'stack starts', ok: true });

	const seeded = await seedSandbox(stack.sandbox);
	log(
		`sandbox filled: ${seeded.made.join(', ')}${seeded.skipped.length ? `; skipped: ${seeded.skipped.join('; ')}` : ''}`,
	);

	const only = process.env.UI_CHECK_ONLY ?? '';
	// `findings` opens no panel of the list: only the findings' own workflow and the defaults check.
	const all = only.startsWith('findings') ? [] : panels().filter((p) => p.title.includes(only));
	const { body, nodeIds, nodeNames } = panelWorkflow(all);
	const saved = await stack.rest.post('/workflows', body);
	if (saved.status !== 200)
		throw new Error(
			`saving the panel workflow answered ${saved.status}: ${JSON.stringify(saved.data).slice(0, 300)}`,
		);
	const workflowId = (saved.data as { data: { id: string } }).data.id;
	log(`${all.length} panels in workflow ${workflowId}`);

	const shots = path.join(SHOTS_DIR, 'panels');
	mkdirSync(shots, { recursive: true });
	const words = [PACKAGE, ...nodeDescriptions().map((n) => n.description.name)];
	const browser = new Editor(stack.n8nUrl, words);
	try {
		await browser.launch();
		await browser.signIn();
		results.push({ name: 'signed into the editor in Chromium', ok: true });
		for (const [i, panel] of all.entries())
			await checkPanel(browser, workflowId, { id: nodeIds[i], name: nodeNames[i] }, panel, shots);
		if (!only || 'agent tools'.includes(only)) await checkAgentTools(browser, stack, shots);
		if (!only || only === 'findings') {
			await checkFindings(browser, stack);
			await checkFindingsB(browser, stack);
		}
		if (!only || only === 'findings' || only === 'findings-c') await checkFindingsC(browser, stack);
		if (!only || only === 'findings' || only === 'findings-d') await checkFindingsD(browser, stack);
		if (!only || only === 'findings') await checkDefaults();

		if (!only || 'credential'.includes(only)) {
			const fields = credentialFields();
			await checkCredential(
				browser,
				stack.n8nUrl,
				{ id: CREDENTIAL_ID, name: 'Document Signing sandbox', fields },
				true,
				shots,
				'credential',
			);
			await checkCredential(
				browser,
				stack.n8nUrl,
				{ id: UNREACHABLE_ID, name: 'Document Signing, host not reachable', fields },
				false,
				shots,
				'credential-unreachable',
			);
			await checkCredential(
				browser,
				stack.n8nUrl,
				{ id: MALFORMED_ID, name: 'Document Signing, malformed address', fields },
				false,
				shots,
				'credential-malformed',
			);
		}
	} catch (error) {
		log(`FAIL  the editor check stopped: ${(error as Error).stack ?? String(error)}`);
		results.push({ name: 'the editor check ran to its end', ok: false });
	}
	await finish(stack, browser, stopAndExit);
}

/** Closes the browser, stops n8n and the sandbox, prints the summary as the last line and exits. */
async function finish(
	stack: Stack,
	editor: Editor,
	stopAndExit: (code: number) => Promise<never>,
): Promise<never> {
	await editor.close().catch(() => undefined);
	log('stopping n8n and the sandbox');
	await stack.stop();
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	for (const r of results.filter((x) => !x.ok)) log(`FAILED: ${r.name}`);
	log(
		`${tally.panels} panels opened, ${tally.parameters} parameters and ${tally.loaders} pickers/loaders checked, ${tally.screenshots} screenshots in ${path.relative(ROOT, SHOTS_DIR)}/, done in ${elapsedSeconds()} s`,
	);
	console.log(`${passed} passed, ${failed} failed`);
	return await stopAndExit(failed === 0 ? 0 : 1);
}

runMain(main);
