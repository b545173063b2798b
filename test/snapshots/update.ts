/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- local tooling (npm run snapshot:params), not published (package.json "files" is dist/ only) */
/**
 * npm run snapshot:params: writes the parameter snapshot of every node and version
 * (test/snapshots/params/<node>.v<version>.json).
 *
 * A new version, or a new parameter or option in a version, is written. A change that
 * alters what saved workflows of an existing version mean (see params.ts) is refused:
 * the command lists it, says to raise the node's version, writes nothing and exits 1.
 *
 * `npm run snapshot:params -- --rebaseline` writes anyway. It is only for a baseline taken
 * before a release (changes merged from parallel work that no published version had);
 * it prints every change it accepts.
 */
import { mkdirSync, writeFileSync, existsSync } from 'fs';
import path from 'path';

import {
	breakingChanges,
	bumpAdvice,
	packageNodes,
	readSnapshot,
	savedVersions,
	SNAPSHOT_DIR,
	snapshotFile,
	snapshotOf,
	snapshotText,
	versionsOf,
} from './params';

const rebaseline = process.argv.includes('--rebaseline');
mkdirSync(SNAPSHOT_DIR, { recursive: true });

const writes: Array<[string, string]> = [];
const refused: string[] = [];
for (const description of packageNodes()) {
	const declared = versionsOf(description);
	for (const version of savedVersions().get(description.name) ?? []) {
		if (!declared.includes(version))
			refused.push(
				`${description.name} v${version}: the node no longer declares this version (saved workflows of it would not load)`,
			);
	}
	for (const version of declared) {
		const file = snapshotFile(description.name, version);
		const now = snapshotOf(description, version);
		if (existsSync(file)) {
			const problems = breakingChanges(readSnapshot(file), now);
			if (problems.length && !rebaseline) {
				refused.push(`${bumpAdvice(description.name, version)}\n  - ${problems.join('\n  - ')}`);
				continue;
			}
			if (problems.length)
				console.log(
					`accepted (--rebaseline) for ${description.name} v${version}:\n  - ${problems.join('\n  - ')}`,
				);
		}
		writes.push([file, snapshotText(now)]);
	}
}

if (refused.length) {
	console.error(`Refused, nothing written:\n${refused.join('\n')}`);
	process.exit(1);
}
for (const [file, text] of writes) {
	writeFileSync(file, text);
	console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
