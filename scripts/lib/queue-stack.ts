/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * n8n in queue mode on loopback, for `npm run e2e:queue`: a throwaway PostgreSQL and Redis,
 * then the stack of stack.ts (sandbox, package installed as a community package, credentials,
 * workflows, main process) switched to queue mode, plus `n8n worker` processes and one
 * `n8n webhook` process. Every process has its own user folder whose nodes folder is the
 * main process's (the package files), its own task-runner broker port, and the same
 * encryption key. Everything stops with the stack; the database folder is removed.
 *
 * Installs PostgreSQL and Redis with apt-get when they are missing (Debian packages
 * `postgresql` and `redis-server`).
 */
import { randomBytes } from 'crypto';
import { existsSync, promises as fs, readdirSync } from 'fs';
import { connect } from 'net';
import os from 'os';
import path from 'path';

import { freePort, HOST, type Log, run, Stack, waitFor, type WorkflowSetup } from './stack';

export interface QueueStackOptions {
	name: string;
	log: Log;
	workers: number;
	/** Executions a worker runs at once (`n8n worker --concurrency`). */
	workerConcurrency: number;
	/** More n8n settings for every process (e.g. DB_POSTGRESDB_POOL_SIZE). */
	n8nEnv?: Record<string, string>;
}

/** Where a command is, on PATH or in Debian's PostgreSQL folders. */
function findCommand(name: string): string | undefined {
	const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin'];
	try {
		for (const version of readdirSync('/usr/lib/postgresql'))
			dirs.push(`/usr/lib/postgresql/${version}/bin`);
	} catch {
		// no Debian PostgreSQL
	}
	for (const dir of dirs) if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
	return undefined;
}

/** apt-get install, with an `apt-get update` first when the package lists are missing or stale. */
async function aptInstall(packages: string[], log: Log): Promise<void> {
	const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
	const apt = async (args: string[]) => {
		const [command, ...rest] = [...asRoot, 'apt-get', ...args];
		await run(command, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	};
	log(`installing ${packages.join(', ')} with apt-get`);
	try {
		await apt(['install', '-y', '--no-install-recommends', ...packages]);
	} catch {
		log('  apt-get update, then again');
		await apt(['update']);
		await apt(['install', '-y', '--no-install-recommends', ...packages]);
	}
}

/** Installs what is missing; returns the paths of the server commands. */
export async function ensureServers(
	log: Log,
): Promise<{ initdb: string; postgres: string; psql: string; redis: string }> {
	const missing: string[] = [];
	if (!findCommand('initdb') || !findCommand('postgres') || !findCommand('psql'))
		missing.push('postgresql');
	if (!findCommand('redis-server')) missing.push('redis-server');
	if (missing.length > 0) await aptInstall(missing, log);
	const found = {
		initdb: findCommand('initdb'),
		postgres: findCommand('postgres'),
		psql: findCommand('psql'),
		redis: findCommand('redis-server'),
	};
	for (const [name, where] of Object.entries(found))
		if (!where) throw new Error(`${name} is not installed and apt-get did not install it`);
	return found as { initdb: string; postgres: string; psql: string; redis: string };
}

/** Resolves once Redis answers PING. */
async function redisAnswers(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = connect(port, HOST, () => socket.write('PING\r\n'));
		socket.setTimeout(1000, () => socket.destroy());
		socket.on('data', (data) => {
			socket.destroy();
			resolve(data.toString().startsWith('+PONG'));
		});
		socket.on('error', () => resolve(false));
		socket.on('close', () => resolve(false));
	});
}

export class QueueStack {
	readonly stack: Stack;
	/** The webhook process's address; deliveries go there. */
	webhookOrigin!: string;
	readonly workerNames: string[];
	private readonly ports: { postgres: number; redis: number; webhook: number };
	private redisCommand?: string;
	private psqlCommand?: string;
	/** Webhook processes started beside the first (`webhook-2`, ...), by name: their address. */
	readonly extraWebhooks = new Map<string, string>();

	private constructor(
		private readonly options: QueueStackOptions,
		ports: { postgres: number; redis: number; webhook: number },
	) {
		this.ports = ports;
		this.workerNames = Array.from({ length: options.workers }, (_, i) => `worker-${i + 1}`);
		this.webhookOrigin = `http://${HOST}:${ports.webhook}`;
		this.stack = new Stack({
			name: options.name,
			fresh: false,
			log: options.log,
			// "Enqueued execution N" and "Worker finished execution N" are info lines.
			n8nLogLevel: 'info',
			n8nEnv: {
				EXECUTIONS_MODE: 'queue',
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				QUEUE_BULL_REDIS_HOST: HOST,
				QUEUE_BULL_REDIS_PORT: String(ports.redis),
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: HOST,
				DB_POSTGRESDB_PORT: String(ports.postgres),
				DB_POSTGRESDB_DATABASE: 'n8n',
				DB_POSTGRESDB_USER: 'postgres',
				DB_POSTGRESDB_PASSWORD: '',
				// One key for every process: each has its own user folder.
				N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
				WEBHOOK_URL: `${this.webhookOrigin}/`,
				...options.n8nEnv,
			},
		});
	}

	static async create(options: QueueStackOptions): Promise<QueueStack> {
		return new QueueStack(options, {
			postgres: await freePort(),
			redis: await freePort(),
			webhook: await freePort(),
		});
	}

	private log(line: string): void {
		this.options.log(line);
	}

	/** Servers, the main stack, then the workers and the webhook process. */
	async start(setup: WorkflowSetup): Promise<void> {
		const t0 = Date.now();
		// A new folder each run (the stack itself keeps it: the server logs are already in it).
		await fs.rm(this.stack.dir, { recursive: true, force: true });
		await fs.mkdir(this.stack.dir, { recursive: true });
		const servers = await ensureServers(this.log.bind(this));
		this.psqlCommand = servers.psql;
		await this.startPostgres(servers);
		this.redisCommand = servers.redis;
		await this.startRedis(servers.redis);
		await this.stack.start(setup);
		await Promise.all([
			...this.workerNames.map(async (name) => await this.startWorker(name)),
			this.startWebhookProcess(),
		]);
		this.log(`queue-mode stack ready in ${Math.round((Date.now() - t0) / 1000)} s`);
	}

	async stop(): Promise<void> {
		await this.stack.stop();
	}

	/** n8n's production address of a webhook path on the webhook process. */
	webhookUrl(webhookId: string, nodePath: string): string {
		return `${this.webhookOrigin}/webhook/${webhookId}/${nodePath}`;
	}

	/** Runs SQL on n8n's database (fault checks); returns psql's unaligned output. */
	async sql(statement: string): Promise<string> {
		if (!this.psqlCommand) throw new Error('PostgreSQL is not started');
		return await run(this.psqlCommand, [
			'-h',
			HOST,
			'-p',
			String(this.ports.postgres),
			'-U',
			'postgres',
			'-d',
			'n8n',
			'-v',
			'ON_ERROR_STOP=1',
			'-qAtc',
			statement,
		]);
	}

	/**
	 * Starts one more `n8n webhook` process (`webhook-2`, ...) on its own port, as a second
	 * instance behind a balancer; returns its address. It stops with the stack. `own`: settings
	 * of its own (e.g. a smaller DB_POSTGRESDB_POOL_SIZE).
	 */
	async startExtraWebhookProcess(
		own: Record<string, string> = {},
	): Promise<{ name: string; origin: string }> {
		const name = `webhook-${this.extraWebhooks.size + 2}`;
		const port = await freePort();
		const origin = `http://${HOST}:${port}`;
		const env = this.stack.n8nEnv({
			N8N_USER_FOLDER: await this.userFolderFor(name),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_PORT: String(port),
			...own,
		});
		this.log(`starting ${name} on ${origin}`);
		await this.stack.startN8nProcess(name, ['webhook'], env, `${origin}/healthz/readiness`);
		this.extraWebhooks.set(name, origin);
		return { name, origin };
	}

	/** The log of one process: `n8n` (main), `webhook`, `worker-N`. */
	async logOf(name: string): Promise<string> {
		return await fs.readFile(path.join(this.stack.dir, `${name}.log`), 'utf8');
	}

	/** Process id of `n8n` (main), `webhook`, `worker-N`, `redis` (for measuring and fault checks). */
	pidOf(name: string): number | undefined {
		return this.stack.processes.pidOf(name);
	}

	/** Sends a signal to a process and its children (its process group); resolves once it has exited. */
	async signal(name: string, signal: NodeJS.Signals): Promise<void> {
		const pid = this.pidOf(name);
		if (pid === undefined) throw new Error(`${name} is not running`);
		process.kill(-pid, signal);
		await waitFor(`${name} to exit`, async () => this.pidOf(name) === undefined, 30_000, 100);
	}

	/** Stops Redis (SIGTERM; nothing is persisted, so its queue is gone). */
	async stopRedis(): Promise<void> {
		await this.signal('redis', 'SIGTERM');
	}

	/** Starts Redis again on the same port. */
	async restartRedis(): Promise<void> {
		if (!this.redisCommand || this.pidOf('redis') !== undefined)
			throw new Error('Redis was not stopped');
		await this.startRedis(this.redisCommand, 'a');
	}

	/**
	 * Stops main, the workers and the webhook process, and starts them again with `own` settings
	 * added (as an operator applies a setting to every process); the old logs are kept.
	 */
	async restartAll(own: Record<string, string>): Promise<void> {
		const names = ['webhook', ...this.workerNames, 'n8n'];
		await Promise.all(names.map(async (name) => await this.stack.stopGracefully(name)));
		await this.restart('n8n', own);
		await Promise.all(names.slice(0, -1).map(async (name) => await this.restart(name, own)));
	}

	/** Starts again a worker, the webhook process or main (`n8n`) that has exited; its old log is kept as <name>.<n>.log. */
	async restart(name: string, own: Record<string, string> = {}): Promise<void> {
		if (this.pidOf(name) !== undefined) throw new Error(`${name} is still running`);
		const logFile = path.join(this.stack.dir, `${name}.log`);
		let n = 1;
		while (existsSync(path.join(this.stack.dir, `${name}.${n}.log`))) n++;
		await fs.rename(logFile, path.join(this.stack.dir, `${name}.${n}.log`)).catch(() => undefined);
		if (name === 'webhook') await this.startWebhookProcess(false, own);
		else if (this.workerNames.includes(name)) await this.startWorker(name, false, own);
		else if (name === 'n8n')
			await this.stack.startN8nProcess(
				'n8n',
				['start'],
				this.stack.n8nEnv(own),
				`${this.stack.n8nUrl}/healthz/readiness`,
			);
		else throw new Error(`no way to restart ${name}`);
	}

	/** Names of the n8n processes (main, webhook, workers) that are not running. */
	exitedN8nProcesses(): string[] {
		return ['n8n', 'webhook', ...this.workerNames].filter((name) => this.pidOf(name) === undefined);
	}

	private async startPostgres(servers: {
		initdb: string;
		postgres: string;
		psql: string;
	}): Promise<void> {
		const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'n8n-queue-pg-'));
		this.stack.cleanups.push(async () => await fs.rm(dataDir, { recursive: true, force: true }));
		// PostgreSQL refuses to run as root: as root, its files belong to the postgres user.
		const asRoot = process.getuid?.() === 0;
		if (asRoot) await run('chown', ['postgres:postgres', dataDir]);
		const command = (bin: string, args: string[]): [string, string[]] =>
			asRoot
				? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', bin, ...args]]
				: [bin, args];
		this.log(`starting PostgreSQL on ${HOST}:${this.ports.postgres} (throwaway data folder)`);
		await run(
			...command(servers.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync']),
		);
		const [bin, args] = command(servers.postgres, [
			...['-D', dataDir, '-p', String(this.ports.postgres), '-k', dataDir],
			...[
				'-c',
				`listen_addresses=${HOST}`,
				'-c',
				'fsync=off',
				'-c',
				'synchronous_commit=off',
				'-c',
				'full_page_writes=off',
			],
		]);
		const logFile = path.join(this.stack.dir, 'postgres.log');
		const child = this.stack.processes.start('postgres', bin, args, {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const out = (await fs.open(logFile, 'w')).createWriteStream();
		child.stdout!.pipe(out);
		child.stderr!.pipe(out);
		const psql = async (sql: string) =>
			await run(servers.psql, [
				'-h',
				HOST,
				'-p',
				String(this.ports.postgres),
				'-U',
				'postgres',
				'-d',
				'postgres',
				'-v',
				'ON_ERROR_STOP=1',
				'-qAtc',
				sql,
			]);
		await waitFor(
			'PostgreSQL to accept connections',
			async () => (await psql('SELECT 1')).trim() === '1',
			60_000,
			300,
		);
		await psql('CREATE DATABASE n8n');
	}

	private async startRedis(redis: string, logFlags = 'w'): Promise<void> {
		this.log(`starting Redis on ${HOST}:${this.ports.redis} (no persistence)`);
		const child = this.stack.processes.start(
			'redis',
			redis,
			[
				'--port',
				String(this.ports.redis),
				'--bind',
				HOST,
				'--save',
				'',
				'--appendonly',
				'no',
				'--dir',
				os.tmpdir(),
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		const out = (
			await fs.open(path.join(this.stack.dir, 'redis.log'), logFlags)
		).createWriteStream();
		child.stdout!.pipe(out);
		child.stderr!.pipe(out);
		await waitFor('Redis to answer', async () => await redisAnswers(this.ports.redis), 30_000, 200);
	}

	/** A user folder for another process whose nodes folder is the main process's. */
	private async userFolderFor(name: string, fresh = true): Promise<string> {
		const folder = path.join(this.stack.dir, name);
		if (!fresh) return folder;
		await fs.mkdir(path.join(folder, '.n8n'), { recursive: true });
		await fs.symlink(
			path.join(this.stack.userFolder, '.n8n', 'nodes'),
			path.join(folder, '.n8n', 'nodes'),
			'dir',
		);
		return folder;
	}

	private async startWorker(
		name: string,
		fresh = true,
		own: Record<string, string> = {},
	): Promise<void> {
		const healthPort = await freePort();
		const env = this.stack.n8nEnv({
			...own,
			N8N_USER_FOLDER: await this.userFolderFor(name, fresh),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: HOST,
		});
		this.log(`starting ${name}`);
		await this.stack.startN8nProcess(
			name,
			['worker', `--concurrency=${this.options.workerConcurrency}`],
			env,
			`http://${HOST}:${healthPort}/healthz/readiness`,
		);
	}

	private async startWebhookProcess(fresh = true, own: Record<string, string> = {}): Promise<void> {
		const env = this.stack.n8nEnv({
			...own,
			N8N_USER_FOLDER: await this.userFolderFor('webhook', fresh),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_PORT: String(this.ports.webhook),
		});
		this.log(`starting the webhook process on ${this.webhookOrigin}`);
		await this.stack.startN8nProcess(
			'webhook',
			['webhook'],
			env,
			`${this.webhookOrigin}/healthz/readiness`,
		);
	}
}
