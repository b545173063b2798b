/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts a registry, not published (package.json "files" is dist/ only) */
/**
 * A throwaway npm registry (verdaccio) on loopback for the install-path check: installed
 * on demand into .e2e/verdaccio, its storage in the run's folder, no uplinks (nothing is
 * fetched from or published to a public registry).
 */
import axios from 'axios';
import { randomBytes } from 'crypto';
import { copyFileSync, createWriteStream, existsSync, promises as fs, readFileSync } from 'fs';
import path from 'path';

import {
	E2E_DIR,
	freePort,
	HOST,
	type Log,
	ROOT,
	run,
	type Stack,
	waitFor,
} from '../../scripts/lib/stack';

const PINS = path.join(__dirname, 'verdaccio');
const INSTALL_DIR = path.join(E2E_DIR, 'verdaccio');

/** Installs the pinned verdaccio into .e2e/verdaccio unless it is there. */
export async function installVerdaccio(log: Log): Promise<string> {
	const bin = path.join(INSTALL_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	const wanted = (
		JSON.parse(readFileSync(path.join(PINS, 'package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		}
	).dependencies.verdaccio;
	const installed = path.join(INSTALL_DIR, 'node_modules', 'verdaccio', 'package.json');
	if (
		existsSync(installed) &&
		(JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version === wanted
	)
		return bin;
	log(`installing verdaccio ${wanted} into ${path.relative(ROOT, INSTALL_DIR)} (once)`);
	await fs.mkdir(INSTALL_DIR, { recursive: true });
	for (const file of ['package.json', 'package-lock.json']) {
		if (existsSync(path.join(PINS, file)))
			copyFileSync(path.join(PINS, file), path.join(INSTALL_DIR, file));
	}
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: INSTALL_DIR,
	});
	if (!existsSync(path.join(PINS, 'package-lock.json'))) {
		copyFileSync(path.join(INSTALL_DIR, 'package-lock.json'), path.join(PINS, 'package-lock.json'));
		log('  wrote test/e2e-install/verdaccio/package-lock.json (commit it)');
	}
	return bin;
}

export interface Registry {
	url: string;
	/** Publishes a packed tarball (a token of a user created in this registry). */
	publish(tarball: string): Promise<void>;
}

/**
 * Starts verdaccio with its data in `dir` as a child of the stack (it stops with it);
 * resolves once it answers.
 */
export async function startRegistry(stack: Stack, dir: string, log: Log): Promise<Registry> {
	const bin = await installVerdaccio(log);
	await fs.rm(dir, { recursive: true, force: true });
	await fs.mkdir(dir, { recursive: true });
	const port = await freePort();
	const url = `http://${HOST}:${port}`;
	const config = [
		`storage: ${path.join(dir, 'storage')}`,
		'auth:',
		'  htpasswd:',
		`    file: ${path.join(dir, 'htpasswd')}`,
		'    max_users: 1',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'log: { type: stdout, format: pretty, level: warn }',
		'',
	].join('\n');
	await fs.writeFile(path.join(dir, 'config.yaml'), config);
	const logFile = createWriteStream(path.join(dir, 'registry.log'));
	// verdaccio 6 needs Node 22 or later: it runs on the Node of the stack's n8n.
	const child = stack.processes.start(
		'registry',
		stack.line.nodeBin,
		[bin, '--config', path.join(dir, 'config.yaml'), '--listen', `${HOST}:${port}`],
		{
			cwd: dir,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	child.stdout!.pipe(logFile);
	child.stderr!.pipe(logFile);
	await waitFor(
		'the registry to answer',
		async () => {
			if (!stack.processes.running(child))
				throw new Error(
					`verdaccio exited (see ${path.relative(ROOT, path.join(dir, 'registry.log'))})`,
				);
			return (
				(await axios.get(`${url}/-/ping`, { validateStatus: () => true, timeout: 2000 })).status ===
				200
			);
		},
		60_000,
	);

	// A user of this registry (its token publishes), as `npm adduser` creates one; the
	// registry lives only for this run, so its password is random and never kept.
	const user = await axios.put(
		`${url}/-/user/org.couchdb.user:publisher`,
		{
			name: 'publisher',
			password: randomBytes(12).toString('hex'),
			email: 'publisher@example.com',
			type: 'user',
		},
		{ validateStatus: () => true },
	);
	if (user.status !== 201)
		throw new Error(
			`creating the registry user answered ${user.status}: ${JSON.stringify(user.data)}`,
		);
	const token = user.data.token as string;
	const authKey = `--//${HOST}:${port}/:_authToken=${token}`;

	return {
		url,
		publish: async (tarball) => {
			await run(
				'npm',
				[
					'publish',
					tarball,
					`--registry=${url}`,
					authKey,
					'--ignore-scripts',
					'--provenance=false',
					'--loglevel=error',
				],
				{ cwd: dir },
			);
		},
	};
}

/**
 * The registry as n8n's community-package installer reaches it. n8n passes
 * `--registry=<its registry setting>` to every npm command; the setting
 * (N8N_COMMUNITY_PACKAGES_REGISTRY) is an Enterprise-licensed feature in n8n 1.x and 2.x
 * (without the licence the install answers "feature not licensed"), so an unlicensed
 * n8n always sends npm to the public registry. For this check an `npm` first on n8n's PATH
 * points every npm command at the loopback registry instead (also `npm outdated`, the
 * update check, which n8n runs without --registry) and runs the real npm; everything
 * else (n8n's REST call, its checks, `npm pack`, unpacking, `npm install`, loading the
 * nodes, the database records) is n8n's own code. `binDir` goes first on n8n's PATH.
 */
export async function npmPointingAt(
	registryUrl: string,
	binDir: string,
	realNpm: string,
): Promise<void> {
	await fs.mkdir(binDir, { recursive: true });
	const script = [
		'#!/usr/bin/env bash',
		'# n8n runs this as `npm`: the loopback registry stands for the public one, both where',
		'# n8n names the registry (--registry) and where it does not (`npm outdated`).',
		'args=()',
		'for a in "$@"; do',
		'\tcase "$a" in',
		'\t--registry=*) ;;',
		'\t*) args+=("$a") ;;',
		'\tesac',
		'done',
		`exec "${realNpm}" "\${args[@]}" "--registry=${registryUrl}"`,
		'',
	].join('\n');
	await fs.writeFile(path.join(binDir, 'npm'), script, { mode: 0o755 });
}
