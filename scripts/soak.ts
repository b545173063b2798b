/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: load on n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * The long soak of the webhook trigger (npm run soak -- --minutes 5 [--concurrency 50] [--db-pool-size N]):
 * starts n8n in queue mode (scripts/lib/queue-stack.ts: PostgreSQL, Redis, main, two
 * workers, the webhook process), then runs test/e2e-queue/soak.ts for the given minutes
 * against the trigger on the webhook process and prints the figures (also written to
 * .e2e/soak/figures.json). Exits non-zero when a valid event did not start exactly one
 * execution, a forged one started any, or an answer was not the expected one.
 */
import { promises as fs } from 'fs';
import path from 'path';

import { credentials, loadWorkflows, log, triggerWebhookId } from '../test/e2e/lib';
import { describeSoak, runSoak } from '../test/e2e-queue/soak';
import { QueueStack } from './lib/queue-stack';
import { stopOnExit, waitFor } from './lib/stack';
import axios from 'axios';

function argument(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
	if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
	return value;
}

async function main(): Promise<number> {
	const minutes = argument('minutes', 5);
	const concurrency = argument('concurrency', 50);
	// n8n's default PostgreSQL pool is 2 connections per process.
	const poolSize = process.argv.includes('--db-pool-size')
		? argument('db-pool-size', 2)
		: undefined;
	const workflows = loadWorkflows(path.join(__dirname, '..', 'test', 'e2e-queue', 'workflows'));
	const soak = workflows.DsQueueSoak00001;
	const queue = await QueueStack.create({
		name: 'soak',
		log,
		workers: 2,
		workerConcurrency: 2,
		n8nEnv: poolSize ? { DB_POSTGRESDB_POOL_SIZE: String(poolSize) } : undefined,
	});
	const stopAndExit = stopOnExit(queue.stack, log);
	let code = 1;
	try {
		await queue.start({ credentials, workflows: [soak] });
		const url = queue.webhookUrl(triggerWebhookId(soak), 'webhook');
		await waitFor(
			'the trigger to be served',
			async () => (await axios.post(url, '{}', { validateStatus: () => true })).status !== 404,
			30_000,
		);
		log(
			`soak: ${concurrency} deliveries at a time for ${minutes} minute(s); PostgreSQL pool ${poolSize ?? "n8n's default (2)"} per process`,
		);
		const figures = await runSoak({
			stack: queue.stack,
			url,
			secret: queue.stack.sandbox.webhookSecret,
			workflowId: soak.id,
			seconds: Math.round(minutes * 60),
			concurrency,
			pids: () =>
				Object.fromEntries(
					['webhook', 'n8n', ...queue.workerNames].map((name) => [name, queue.pidOf(name)]),
				),
			log,
		});
		for (const line of describeSoak(figures)) log(line);
		await fs.writeFile(
			path.join(queue.stack.dir, 'figures.json'),
			JSON.stringify(figures, null, 2),
		);
		const ok =
			Object.keys(figures.unexpectedAnswers).length === 0 &&
			figures.validWithout +
				figures.validMoreThanOnce +
				figures.forgedExecutions +
				figures.unknownExecutions ===
				0;
		log(ok ? 'soak passed' : 'soak FAILED');
		code = ok ? 0 : 1;
	} catch (error) {
		log(`soak stopped: ${(error as Error).message}`);
	}
	await queue.stop();
	return await stopAndExit(code);
}

void main();
