/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- local tooling: starts n8n, a registry and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * npm run e2e:install: the package installed and updated the way users do it, through n8n's
 * own community-package installer (Settings > Community Nodes > Install, then Update).
 *
 *   1. `npm pack`, published as 0.1.0-style <version> to a throwaway registry on loopback;
 *   2. a real n8n without the package; the editor's Install call (POST /rest/community-packages)
 *      makes n8n fetch it with npm, load its nodes and record it;
 *   3. a workflow with the action node and one with the trigger run against the sandbox;
 *   4. the same code published as the next patch version; the editor sees the update
 *      (GET /rest/community-packages, `updateAvailable`) and its Update call
 *      (PATCH /rest/community-packages) installs it; the saved workflows still run.
 * Prints the install and update times, then `N passed, N failed`.
 * Options: --n8n 1 (or E2E_N8N=1) runs it on n8n 1.x.
 */
import axios from 'axios';
import { promises as fs } from 'fs';
import os from 'os';
import path from 'path';

import { n8nLine } from '../../scripts/lib/n8n-lines';
import { buildAndPack, E2E_DIR, run, Stack, stopOnExit, waitFor } from '../../scripts/lib/stack';
import {
	check,
	credentials,
	executions,
	expect,
	expectEqual,
	loadWorkflows,
	log,
	makePdf,
	output,
	PACKAGE,
	results,
	runMain,
	summarize,
	triggerWebhookId,
	WORKFLOWS_DIR,
} from '../e2e/lib';
import { npmPointingAt, startRegistry } from './registry';

const SEND_PDF = 'DsE2eSendPdf0001';
const TRIGGER_ALL = 'DsE2eTriggerAll1';

async function main(): Promise<void> {
	const line = n8nLine(E2E_DIR);
	log(
		`n8n ${line.version} on Node ${line.nodeVersion}${line.envReason ? `, with ${line.envReason}` : ''}`,
	);
	const name = process.env.E2E_STACK || (line.major === 1 ? 'e2e-install-n8n1' : 'e2e-install');
	const registryDir = path.join(E2E_DIR, `${name}-registry`);
	const npmBinDir = path.join(E2E_DIR, `${name}-npm`);
	const realNpm = (await run('bash', ['-c', 'command -v npm'])).trim();

	const all = loadWorkflows(WORKFLOWS_DIR);
	const workflows = [all[SEND_PDF], all[TRIGGER_ALL]];
	expect(workflows.every(Boolean), 'a workflow fixture is missing');

	const stack = new Stack({
		n8n: line,
		name,
		fresh: true,
		log,
		installPackage: false,
		n8nEnv: {
			PATH: `${npmBinDir}:${path.dirname(line.nodeBin)}:${process.env.PATH ?? ''}`,
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		},
	});
	const stopAndExit = stopOnExit(stack, log);
	const times: Record<string, number> = {};
	let version = '';
	let nextVersion = '';
	let registry: Awaited<ReturnType<typeof startRegistry>>;

	try {
		log('building and packing the package');
		const pack = await buildAndPack(log);
		version = pack.version;
		log('starting a registry on loopback and publishing the package to it');
		registry = await startRegistry(stack, registryDir, log);
		await registry.publish(pack.tarball);
		log(`  published ${pack.name}@${version} to ${registry.url}`);
		await npmPointingAt(registry.url, npmBinDir, realNpm);
		await stack.start({ credentials, workflows, substitutions: { __FILES_DIR__: stack.filesDir } });
	} catch (error) {
		log(`FAIL  the stack did not start: ${(error as Error).message}`);
		results.push({ name: 'registry and n8n start', ok: false });
		return await finish(stack, stopAndExit, times);
	}
	results.push({ name: 'registry and n8n start', ok: true });

	await check(
		"n8n's installer (the editor's Install: POST /rest/community-packages) fetches the package from the registry and loads its three nodes",
		async () => {
			const t0 = Date.now();
			const installed = await stack.rest.post(
				'/community-packages',
				{ name: withVersion(stack, PACKAGE, version) },
				{ timeout: 300_000 },
			);
			times.install = (Date.now() - t0) / 1000;
			expectEqual(
				installed.status,
				200,
				`install status (${JSON.stringify(installed.data).slice(0, 400)})`,
			);
			expectEqual(installed.data.data.installedVersion, version, 'installed version');
			await expectListed(stack, version);
		},
	);

	const runBoth = async (when: string) => {
		await check(
			`${when}: the action node's workflow and the trigger's workflow run against the sandbox`,
			async () => {
				const before = {
					send: (await executions(stack, SEND_PDF)).length,
					trigger: (await executions(stack, TRIGGER_ALL)).length,
				};
				const pdf = path.join(stack.filesDir, 'install-check.pdf');
				await fs.writeFile(pdf, await makePdf('Install check'));
				const sent = await axios.post(
					`${stack.n8nUrl}/webhook/e2e-send-pdf`,
					{ filePath: pdf, title: `Install check (${when})` },
					{ validateStatus: () => true, timeout: 60_000 },
				);
				expectEqual(
					sent.status,
					200,
					`send workflow response (${JSON.stringify(sent.data).slice(0, 300)})`,
				);
				expectEqual(sent.data.status, 'pending', 'envelope status after send');
				const sendRuns = await executions(stack, SEND_PDF);
				expectEqual(sendRuns.length, before.send + 1, 'executions of the send workflow');
				expectEqual(
					sendRuns[sendRuns.length - 1].status,
					'success',
					'send workflow execution status',
				);
				expectEqual(
					output(sendRuns[sendRuns.length - 1], 'Create Envelope').json.id,
					sent.data.envelopeId,
					'created envelope id',
				);
				// The sandbox delivers a signed `document.sent` event to the active trigger.
				const event = await waitFor(
					'the trigger execution of the document.sent event',
					async () => {
						const runs = await executions(stack, TRIGGER_ALL);
						if (runs.length <= before.trigger) return undefined;
						const item = output(runs[runs.length - 1], 'Document Signing Trigger').json;
						return item.event === 'document.sent' ? item : undefined;
					},
					30_000,
					500,
				);
				expectEqual(
					JSON.stringify(event).includes(sent.data.envelopeId as string),
					true,
					'the event names the sent envelope',
				);
			},
		);
	};

	await check('the workflows using the installed nodes activate', async () => {
		await stack.activateWorkflows(workflows.filter((w) => w.active === true));
		const url = stack.webhookUrl(triggerWebhookId(all[TRIGGER_ALL]), 'webhook');
		await stack.subscribe(url);
		await waitFor(
			'the trigger webhook to be served',
			async () => (await axios.post(url, {}, { validateStatus: () => true })).status !== 404,
			15_000,
		);
	});
	await runBoth(`after installing ${version}`);

	await check(
		"the next version, published to the registry, shows as an update in n8n's package list",
		async () => {
			nextVersion = await publishNextVersion(registry, version);
			await waitFor(
				`updateAvailable ${nextVersion}`,
				async () => ((await listed(stack))?.updateAvailable === nextVersion ? true : undefined),
				30_000,
				1000,
			);
		},
	);

	await check(
		"n8n's updater (the editor's Update: PATCH /rest/community-packages) installs the next version and loads its nodes",
		async () => {
			const t0 = Date.now();
			const updated = await stack.rest.patch(
				'/community-packages',
				{ name: PACKAGE, ...(stack.line.major === 1 ? { version: nextVersion } : {}) },
				{ timeout: 300_000 },
			);
			times.update = (Date.now() - t0) / 1000;
			expectEqual(
				updated.status,
				200,
				`update status (${JSON.stringify(updated.data).slice(0, 400)})`,
			);
			expectEqual(
				updated.data.data.installedVersion,
				nextVersion,
				'installed version after the update',
			);
			await expectListed(stack, nextVersion);
		},
	);
	await runBoth(`after updating to ${nextVersion}`);

	await finish(stack, stopAndExit, times);
}

/**
 * n8n 1.x checks that the version exists by asking the public registry directly and, when
 * that fails, compares `npm view <name>@<version> version` with the version asked for: for
 * `latest` (no version given) the loopback registry's answer never matches. So on 1.x the
 * calls name the version, as a user may type `name@version` in the Install dialog.
 */
function withVersion(stack: Stack, name: string, version: string): string {
	return stack.line.major === 1 ? `${name}@${version}` : name;
}

async function listed(stack: Stack): Promise<Record<string, any> | undefined> {
	const response = await stack.rest.get('/community-packages', { timeout: 120_000 });
	expectEqual(response.status, 200, 'GET /rest/community-packages status');
	return (response.data.data as Array<Record<string, any>>).find((p) => p.packageName === PACKAGE);
}

async function expectListed(stack: Stack, version: string): Promise<void> {
	const pkg = await listed(stack);
	expect(pkg, `${PACKAGE} is not in n8n's package list`);
	expectEqual(pkg.installedVersion, version, 'listed version');
	expectEqual(pkg.failedLoading, false, 'failedLoading');
	const types = (pkg.installedNodes as Array<{ type: string }>).map((n) => n.type).sort();
	expectEqual(
		types,
		[
			`${PACKAGE}.documentSigning`,
			`${PACKAGE}.documentSigningStatusTrigger`,
			`${PACKAGE}.documentSigningTrigger`,
		],
		'installed node types',
	);
	const nodeTypes = await stack.rest.post('/node-types', {
		nodeInfos: types.map((name) => ({ name, version: 1 })),
	});
	expectEqual(nodeTypes.status, 200, 'POST /rest/node-types status');
	expectEqual((nodeTypes.data.data as unknown[]).length, 3, 'node types n8n serves to the editor');
}

/** Packs the same files with the patch version raised (in a temporary copy) and publishes them. */
async function publishNextVersion(
	registry: { publish(tarball: string): Promise<void> },
	version: string,
): Promise<string> {
	const [major, minor, patch] = version.split('-')[0].split('.').map(Number);
	const next = `${major}.${minor}.${patch + 1}`;
	const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ds-next-'));
	try {
		const packDir = path.join(E2E_DIR, 'pack');
		const tarball = (await fs.readdir(packDir)).find((f) => f.endsWith(`-${version}.tgz`));
		expect(tarball, `no packed tarball of ${version} in ${packDir}`);
		await run('tar', ['-xzf', path.join(packDir, tarball), '-C', tmp, '--strip-components=1']);
		const manifestPath = path.join(tmp, 'package.json');
		const manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8')) as Record<string, unknown>;
		await fs.writeFile(manifestPath, JSON.stringify({ ...manifest, version: next }, null, 2));
		const out = await run(
			'npm',
			['pack', '--json', '--ignore-scripts', '--pack-destination', tmp],
			{ cwd: tmp },
		);
		const [packed] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string }>;
		await registry.publish(path.join(tmp, packed.filename));
		log(`  published ${PACKAGE}@${next}`);
		return next;
	} finally {
		await fs.rm(tmp, { recursive: true, force: true });
	}
}

async function finish(
	stack: Stack,
	stopAndExit: (code: number) => Promise<never>,
	times: Record<string, number>,
): Promise<never> {
	if (times.install !== undefined)
		log(
			`install through n8n took ${times.install.toFixed(1)} s${times.update !== undefined ? `, update ${times.update.toFixed(1)} s` : ''}`,
		);
	log('stopping n8n, the registry and the sandbox');
	await stack.stop();
	return await stopAndExit(summarize());
}

runMain(main);
