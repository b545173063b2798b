/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * End-to-end checks of the packed package inside a real n8n (npm run e2e).
 *
 * Starts the shared local stack (scripts/lib/stack.ts): the pinned n8n with this package
 * installed and registered as a community package, the sandbox, a credential pointing at
 * it, the workflows of test/e2e/workflows and examples/ (active ones activated). Then runs
 * the suites of test/e2e/suites in name order; each checks through n8n's own records
 * (public API executions with their data) and the sandbox's.
 *
 * Options: --n8n 1 (or E2E_N8N=1, or the pinned version 1.123.81) runs on n8n 1.x with
 * Node 22 instead of the default n8n 2.x with Node 24 (scripts/lib/n8n-lines.ts); --n8n
 * canary on the unpinned n8n of `scripts/install-n8n.sh canary <version>`.
 * Env: E2E_ONLY=<text> runs only the suites whose file name contains it (several texts:
 * comma-separated, any of them); E2E_STACK names the stack folder under .e2e/ (default
 * "e2e", "e2e-n8n1" on n8n 1.x, "e2e-canary" on the canary), so two runs can go
 * side by side; E2E_LOG_LEVEL sets n8n's log level (default warn; its log is
 * .e2e/<stack>/n8n.log).
 * Prints `N passed, N failed` last and exits non-zero on any failure.
 */
import path from 'path';

import { n8nLine } from '../../scripts/lib/n8n-lines';
import { E2E_DIR, Stack, stopOnExit } from '../../scripts/lib/stack';
import { customNodesFolder, writeCustomNodes } from './custom-nodes';
import {
	clients,
	credentials,
	type E2eContext,
	EXAMPLES_DIR,
	loadWorkflows,
	log,
	results,
	runMain,
	runSuites,
	summarize,
	WORKFLOWS_DIR,
} from './lib';

const SUITES_DIR = path.join(__dirname, 'suites');

/**
 * Suites whose checks are the node's own logic, on n8n mechanisms the other 1.x suites already
 * cover; they run on n8n 2.x (and their queue-mode twins in `npm run e2e:queue`), not again on
 * 1.x. `E2E_ONLY=<name> npm run e2e -- --n8n 1` still runs one there.
 */
const ONCE_ON_N8N_2: Record<string, string> = {
	'22-trigger-repeats':
		"repeats and refusals are the trigger's memory of ids; on 1.x suite 21 checks that this memory is saved and survives a restart",
	'95-status-trigger-scheduler':
		'n8n 1.x has no poll scheduler: its polls have no timeout and no budget, the classic poller that suite 25 covers',
	'60-variant':
		"the service's other shapes are the node's reading of answers; on 1.x every other suite runs the same requests and polls",
};

async function main(): Promise<void> {
	const workflows = loadWorkflows(WORKFLOWS_DIR);
	const examples = loadWorkflows(EXAMPLES_DIR);

	const line = n8nLine(E2E_DIR);
	log(
		`n8n ${line.version} on Node ${line.nodeVersion}${line.envReason ? `, with ${line.envReason}` : ''}`,
	);
	const customNodes = await customNodesFolder();
	const stack = new Stack({
		n8n: line,
		name: process.env.E2E_STACK || line.stack,
		fresh: true,
		log,
		// Saving progress lets the runner read a running example's progress (the signing links)
		// from n8n; the custom nodes are the parameter probe of suite 80 and its input.
		n8nEnv: { EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'true', N8N_CUSTOM_EXTENSIONS: customNodes },
		n8nLogLevel: process.env.E2E_LOG_LEVEL || undefined,
	});
	const stopAndExit = stopOnExit(stack, log);
	try {
		await writeCustomNodes(customNodes, stack);
		await stack.start({
			credentials,
			workflows: [...Object.values(workflows), ...Object.values(examples)],
			substitutions: { __FILES_DIR__: stack.filesDir },
		});
		// The example triggers hear every event, as `npm start` sets them up.
		for (const example of Object.values(examples)) {
			for (const url of stack.triggerUrls(example)) await stack.subscribe(url);
		}
	} catch (error) {
		log(`FAIL  the stack did not start: ${(error as Error).message}`);
		results.push({ name: 'stack starts', ok: false });
		return await finish(stack, stopAndExit);
	}
	results.push({ name: 'stack starts', ok: true });

	const context: E2eContext = { stack, ...clients(stack), workflows, examples };
	await runSuites(SUITES_DIR, context, line.major === 1 ? ONCE_ON_N8N_2 : {});
	await finish(stack, stopAndExit);
}

/** Stops n8n and the sandbox, then prints the summary as the last line and exits. */
async function finish(stack: Stack, stopAndExit: (code: number) => Promise<never>): Promise<never> {
	log('stopping n8n and the sandbox');
	await stack.stop();
	return await stopAndExit(summarize());
}

runMain(main);
