/**
 * n8n's community-package scanner, offline (npm run scan, after npm run build).
 *
 * `npx @n8n/scan-community-package <name>` needs the package published with provenance; its
 * two legs are exported and run here without network, as the scanner runs them:
 *   1. the source leg on this repository (SOURCE_FILE_PATTERNS),
 *   2. the package leg on the unpacked `npm pack` tarball (what n8n would install).
 * Any finding fails: the scanner's errors, and its warnings too. Prints the findings.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** The scanner's verdict, plus warnings (it passes a package with warnings; this does not). */
async function scan(label, dir, patterns) {
	const verdict = await analyzePackage(dir, patterns);
	// The scanner's own ESLint set-up (inline disable comments ignored), read for warnings too.
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
		errorOnUnmatchedPattern: false,
	});
	const results = (await eslint.lintFiles(patterns)).filter(
		(r) => !r.filePath.endsWith('package-lock.json'),
	);
	const errors = results.reduce((n, r) => n + r.errorCount, 0);
	const warnings = results.reduce((n, r) => n + r.warningCount, 0);
	const ok = verdict.passed && errors === 0 && warnings === 0;
	console.log(
		`${ok ? 'passed' : 'FAILED'}: scanner, ${label}: ${results.length} files, ${errors} errors, ${warnings} warnings`,
	);
	if (!ok) {
		if (verdict.message) console.log(`  ${verdict.message}`);
		console.log(await (await eslint.loadFormatter('stylish')).format(results));
	}
	return ok;
}

async function main() {
	const source = await scan('source (repository)', ROOT, SOURCE_FILE_PATTERNS);

	const work = mkdtempSync(path.join(tmpdir(), 'scan-'));
	try {
		const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		const [packed] = JSON.parse(out.slice(out.indexOf('[')));
		const unpacked = path.join(work, 'package');
		execFileSync('mkdir', ['-p', unpacked]);
		execFileSync('tar', [
			'-xzf',
			path.join(work, packed.filename),
			'-C',
			unpacked,
			'--strip-components=1',
		]);
		const pkg = await scan(
			`package (npm pack, ${packed.entryCount} files)`,
			unpacked,
			PACKAGE_FILE_PATTERNS,
		);
		const passed = [source, pkg].filter(Boolean).length;
		console.log(`${passed} passed, ${2 - passed} failed`);
		process.exitCode = passed === 2 ? 0 : 1;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
