/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * The packed package in n8n's queue mode (npm run e2e:queue).
 *
 * Starts scripts/lib/queue-stack.ts: a throwaway PostgreSQL and Redis, the sandbox, n8n main,
 * two `n8n worker` processes and one `n8n webhook` process, all with this package installed as
 * a community package. Then runs the suites of test/e2e-queue/suites in name order; each checks
 * through n8n's records, n8n's logs (which process ran what) and the sandbox's records.
 *
 * Env: E2E_ONLY=<text> runs only the suites whose file name contains it (or one of its
 * comma-separated texts); E2E_STACK names the stack folder under .e2e/ (default "queue").
 * Prints `N passed, N failed` last.
 */
import path from 'path';

import { QueueStack } from '../../scripts/lib/queue-stack';
import { stopOnExit } from '../../scripts/lib/stack';
import { packageTemplateWorkflow } from '../bench/contenders';
import {
	clients,
	CREDENTIAL_ID,
	credentials,
	loadWorkflows,
	log,
	results,
	runMain,
	runSuites,
	summarize,
	WORKFLOWS_DIR,
} from '../e2e/lib';
import { RATE_PATH, RATE_WORKFLOW_ID } from './suites/30-rate-limit';
import type { QueueContext } from './lib';

const SUITES_DIR = path.join(__dirname, 'suites');
/** The e2e trigger workflows these suites use, besides this folder's own. */
const E2E_WORKFLOWS = ['DsE2eTriggerRep1', 'DsE2eTriggerAll1'];

async function main(): Promise<void> {
	const e2eWorkflows = loadWorkflows(WORKFLOWS_DIR);
	const workflows = { ...loadWorkflows(path.join(__dirname, 'workflows')) };
	for (const id of E2E_WORKFLOWS) workflows[id] = e2eWorkflows[id];
	// The bench's rate-limited batch (scenario 3), with this run's credential.
	workflows[RATE_WORKFLOW_ID] = packageTemplateWorkflow(
		RATE_WORKFLOW_ID,
		RATE_PATH,
		{},
		{ id: CREDENTIAL_ID, name: 'Document Signing sandbox' },
	);

	// Two executions at a time per worker: four at once then need both workers.
	// A killed worker's job is noticed when its Bull lock expires; n8n's defaults (60 s lock,
	// checked every 30 s) made the worker-kill suite wait about 110 s. Shorter settings, renewed
	// 4 times per lock, show the same outcome in about half of that (docs/scaling.md).
	const n8nEnv = {
		QUEUE_WORKER_LOCK_DURATION: '20000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
		QUEUE_WORKER_STALLED_INTERVAL: '5000',
	};
	const queue = await QueueStack.create({
		name: process.env.E2E_STACK || 'queue',
		log,
		workers: 2,
		workerConcurrency: 2,
		n8nEnv,
	});
	const stack = queue.stack;
	const stopAndExit = stopOnExit(stack, log);
	try {
		await queue.start({ credentials, workflows: Object.values(workflows) });
	} catch (error) {
		log(`FAIL  the queue-mode stack did not start: ${(error as Error).message}`);
		results.push({ name: 'queue-mode stack starts', ok: false });
		return await finish(queue, stopAndExit);
	}
	results.push({ name: 'queue-mode stack starts', ok: true });

	const context: QueueContext = { queue, stack, sandbox: clients(stack).sandbox, workflows };
	await runSuites(SUITES_DIR, context);
	await finish(queue, stopAndExit);
}

/** Stops every process, then prints the summary as the last line and exits. */
async function finish(
	queue: QueueStack,
	stopAndExit: (code: number) => Promise<never>,
): Promise<never> {
	log('stopping n8n (main, workers, webhook), the sandbox, Redis and PostgreSQL');
	await queue.stop();
	return await stopAndExit(summarize());
}

runMain(main);
