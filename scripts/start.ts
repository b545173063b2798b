/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * npm start: a local n8n with this package, ready to try.
 *
 * Installs what is missing (Node 24 and the pinned n8n under .e2e/), builds and packs the
 * package, installs it into n8n as a community package, starts the sandbox of the Document
 * Signing Service and n8n on 127.0.0.1, imports a credential pointing at the sandbox and
 * the example workflows (examples/), creates the owner login and prints where to log in.
 * Runs until Ctrl-C, which stops n8n and the sandbox.
 *
 * Options: --port <n> (n8n, default 5678 or a free port), --sandbox-port <n>,
 *          --fresh (forget the n8n data of earlier runs),
 *          --check (once ready, check the editor answers, the examples are there and the
 *          printed test delivery is accepted, then stop: how CI proves the README's command
 *          on a fresh clone).
 * The n8n data (workflows, executions, edits) is kept in .e2e/start between runs.
 * One `npm start` per folder: a second one (or one on a busy port) stops at once with a
 * message saying what runs where, and changes nothing (scripts/lib/start-lock.ts).
 */
import { existsSync, promises as fs, readdirSync, readFileSync } from 'fs';
import { createServer } from 'net';
import path from 'path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { EXAMPLE_TEMPLATE_ID, prepareExampleData } from './lib/example-data';
import {
	type CredentialFixture,
	E2E_DIR,
	HOST,
	OWNER,
	ROOT,
	run,
	type SandboxInfo,
	Stack,
	stopOnExit,
	type WorkflowFixture,
} from './lib/stack';
import { describePort, type LockInfo, StartLock, testDeliveryCommand } from './lib/start-lock';

const EXAMPLES_DIR = path.join(ROOT, 'examples');
const CREDENTIAL_ID = 'DsSandboxCred001';

const log = (line: string) => console.log(`[start] ${line}`);

function option(name: string): string | undefined {
	const args = process.argv.slice(2);
	const i = args.indexOf(`--${name}`);
	if (i >= 0) return args[i + 1];
	return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function portOption(name: string): number | undefined {
	const text = option(name);
	if (text === undefined) return undefined;
	const port = Number(text);
	if (!Number.isInteger(port) || port < 1 || port > 65535) {
		console.error(`--${name} must be a whole number from 1 to 65535, got "${text}"`);
		process.exit(2);
	}
	return port;
}

async function isFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, HOST, () => server.close(() => resolve(true)));
	});
}

async function samplePdf(): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const page = doc.addPage([595, 842]);
	page.drawText('Sample contract', { x: 50, y: 780, size: 22, font });
	page.drawText('This sample was created by npm start to try the Document Signing nodes.', {
		x: 50,
		y: 740,
		size: 11,
		font,
	});
	page.drawText('Signature of tenant', { x: 50, y: 200, size: 12, font });
	return Buffer.from(await doc.save());
}

function loadExamples(): WorkflowFixture[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, f), 'utf8')) as WorkflowFixture);
}

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
];

async function main(): Promise<void> {
	const requested = portOption('port');
	const sandboxPort = portOption('sandbox-port');
	// Before anything is written: is another `npm start` running in this folder, and are the
	// ports asked for free?
	const lock = new StartLock(path.join(E2E_DIR, 'start.lock'));
	const alreadyRunning = (running: LockInfo): never => {
		console.error(
			[
				`[start] npm start is already running in this folder (pid ${running.pid}, since ${running.startedAt}):`,
				running.n8nUrl
					? `          editor ${running.n8nUrl}/, sandbox ${running.sandboxUrl}/`
					: '          (it is still starting)',
				`        Use that one, or stop it first (Ctrl-C in its terminal, or kill ${running.pid}).`,
				'        Nothing was changed.',
			].join('\n'),
		);
		process.exit(1);
	};
	const running = lock.running();
	if (running) alreadyRunning(running);
	for (const [name, port] of [
		['--port', requested],
		['--sandbox-port', sandboxPort],
	] as const) {
		if (port !== undefined && !(await isFree(port))) {
			console.error(
				`[start] ${name} ${port}: the port is busy (${await describePort(port)}). Choose another one, e.g. ${name} ${port + 1}. Nothing was changed.`,
			);
			process.exit(1);
		}
	}
	// The first write: a start that began at the same moment may have won the lock.
	const raced = lock.acquire();
	if (raced) alreadyRunning(raced);
	process.on('exit', () => lock.release());
	const n8nPort = requested ?? ((await isFree(5678)) ? 5678 : undefined);
	if (requested === undefined && n8nPort === undefined)
		log(`port 5678 is busy (${await describePort(5678)}): n8n gets a free port instead`);
	const stack = new Stack({
		name: 'start',
		fresh: process.argv.includes('--fresh'),
		log,
		n8nPort,
		sandboxPort,
		n8nLogLevel: 'info',
	});
	const stopAndExit = stopOnExit(stack, log);
	const examples = loadExamples();

	try {
		await stack.start({
			credentials,
			workflows: examples,
			workflowsOnlyWhenNew: true,
			substitutions: { __FILES_DIR__: stack.filesDir },
		});
		const sample = path.join(stack.filesDir, 'sample-contract.pdf');
		if (!existsSync(sample)) await fs.writeFile(sample, await samplePdf());
		await prepareExampleData(stack);
		log(
			`the sandbox holds template ${EXAMPLE_TEMPLATE_ID} and the files folder the CSV rows of the batch example`,
		);

		// The sandbox is new on each run: subscribe the example triggers' production URLs, and
		// their test URLs so that "Execute step" in the editor hears events too.
		for (const workflow of examples) {
			for (const url of stack.triggerUrls(workflow)) {
				const testUrl = url.replace('/webhook/', '/webhook-test/');
				if (workflow.active === true) await stack.subscribe(url);
				await stack.subscribe(testUrl);
				log(
					`the sandbox delivers its events to "${workflow.name}" (${workflow.active === true ? `${url} and ` : ''}${testUrl})`,
				);
			}
		}
	} catch (error) {
		log(`could not start: ${(error as Error).message}`);
		return void (await stopAndExit(1));
	}
	lock.update({ n8nUrl: stack.n8nUrl, sandboxUrl: stack.sandbox.origin });
	const eventsExample = examples.find((w) => w.active === true && stack.triggerUrls(w).length > 0);
	const productionUrl = eventsExample ? stack.triggerUrls(eventsExample)[0] : undefined;

	console.log(
		[
			'',
			'  n8n with the Document Signing nodes is running.',
			'',
			`  Editor:    ${stack.n8nUrl}/`,
			`  Login:     ${OWNER.email}`,
			`  Password:  ${OWNER.password}`,
			'',
			`  Sandbox:   ${stack.sandbox.origin}/ (its dashboard: webhook URLs, deliveries, signing pages)`,
			`  API:       ${stack.sandbox.baseUrl} (credential "Document Signing sandbox" points here)`,
			`  API key:   ${stack.sandbox.apiKey} (the sandbox's, for trying the API by hand)`,
			`  Webhook secret: ${stack.sandbox.webhookSecret} (deliveries are signed with it: header X-Service-Signature)`,
			`  Files:     ${path.relative(ROOT, stack.filesDir)}/ (sample-contract.pdf, batch-recipients.csv; signed PDFs are saved here)`,
			`  Logs:      ${path.relative(ROOT, stack.dir)}/n8n.log, ${path.relative(ROOT, stack.dir)}/sandbox.log`,
			'',
			'  Examples:  ' + examples.map((w) => `"${w.name}"`).join('\n             '),
			'',
			...(productionUrl && eventsExample
				? [
						`  A signed test delivery to "${eventsExample.name}" (active: starts an execution; see its Executions tab):`,
						'',
						`    ${testDeliveryCommand(productionUrl, stack.sandbox.webhookSecret)}`,
						'',
						`  Its test URL (${productionUrl.replace('/webhook/', '/webhook-test/')}) answers only while the editor`,
						'  listens (open the trigger, click "Listen for test event"); put that URL in the command to try it.',
						'',
					]
				: []),
			'  Press Ctrl-C to stop n8n and the sandbox.',
			'',
		].join('\n'),
	);

	if (process.argv.includes('--check')) {
		const ready = await stack.rest.get('/workflows');
		const names = ((ready.data?.data ?? []) as Array<{ name: string }>).map((w) => w.name);
		const missing = examples.filter((w) => !names.includes(w.name)).map((w) => w.name);
		const editor = await fetch(`${stack.n8nUrl}/`);
		// The printed test-delivery command, run as a user pastes it: n8n accepts it (200).
		const delivery = productionUrl
			? (
					await run('sh', [
						'-c',
						testDeliveryCommand(productionUrl, stack.sandbox.webhookSecret),
					]).catch((e: Error) => e.message)
				).trim()
			: 'no active example trigger';
		const ok =
			ready.status === 200 &&
			missing.length === 0 &&
			editor.status === 200 &&
			delivery.startsWith('200');
		log(
			ok
				? `check passed: the editor answers, the ${examples.length} examples are imported, the printed test delivery is accepted`
				: `check failed: editor ${editor.status}, workflows ${ready.status}, missing ${JSON.stringify(missing)}, test delivery: ${delivery.slice(0, 200)}`,
		);
		return void (await stopAndExit(ok ? 0 : 1));
	}

	// Runs until stopped; if n8n or the sandbox dies, everything stops.
	const exited = await stack.waitForExit();
	if (stack.stopping) return; // Ctrl-C: the exit handler is stopping everything
	log(`${exited} stopped unexpectedly`);
	await stopAndExit(1);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
