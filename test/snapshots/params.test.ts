/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * Saved workflows never break silently: every node's parameters against the committed
 * snapshot of each version (test/snapshots/params/). A removed or renamed parameter, a
 * changed default, type or display condition, a removed option value fails here; a new
 * parameter or option passes. Update with `npm run snapshot:params` (params.ts, update.ts).
 */
import { existsSync } from 'fs';

import {
	breakingChanges,
	bumpAdvice,
	packageNodes,
	readSnapshot,
	savedVersions,
	type Snapshot,
	snapshotFile,
	snapshotOf,
	UPDATE_COMMAND,
	versionsOf,
} from './params';

describe('parameter snapshots', () => {
	const cases = packageNodes().flatMap((d) => versionsOf(d).map((v) => [d.name, v, d] as const));

	it.each(cases)('%s v%s: saved workflows keep their meaning', (name, version, description) => {
		const file = snapshotFile(name, version);
		if (!existsSync(file))
			throw new Error(
				`${name} v${version} has no parameter snapshot: run \`${UPDATE_COMMAND}\` and commit ${file}`,
			);
		const problems = breakingChanges(readSnapshot(file), snapshotOf(description, version));
		if (problems.length)
			throw new Error(`${bumpAdvice(name, version)}\n  - ${problems.join('\n  - ')}`);
	});

	it.each(cases)(
		'%s v%s: the snapshot holds every parameter and option value',
		(name, version, description) => {
			const file = snapshotFile(name, version);
			if (!existsSync(file)) return; // the test above names the missing snapshot
			// read backwards: what the committed snapshot lacks of the node (a new operation, a new option)
			const unsaved = breakingChanges(snapshotOf(description, version), readSnapshot(file));
			if (unsaved.length)
				throw new Error(
					`${name} v${version} has parameters its snapshot lacks: run \`${UPDATE_COMMAND}\` and commit ${file}\n  - ${unsaved.join('\n  - ')}`,
				);
		},
	);

	it('every snapshotted version is still declared by its node', () => {
		const declared = new Map(packageNodes().map((d) => [d.name, versionsOf(d)]));
		for (const [node, versions] of savedVersions()) {
			for (const v of versions)
				expect(`${node} v${v}: ${declared.get(node)?.includes(v) ? 'declared' : 'gone'}`).toBe(
					`${node} v${v}: declared`,
				);
		}
	});
});

describe('what counts as breaking', () => {
	const base: Snapshot = {
		node: 'x',
		version: 1,
		parameters: [
			{ path: 'mode', type: 'options', default: 'a', options: ['a', 'b'] },
			{ path: 'amount', type: 'number', default: 10, displayOptions: { show: { mode: ['a'] } } },
			{ path: 'list.item.key', type: 'string', default: '' },
		],
	};
	const change = (i: number, patch: object): Snapshot => ({
		...base,
		parameters: base.parameters.map((p, j) => (j === i ? { ...p, ...patch } : p)),
	});

	it.each([
		['a changed default', change(1, { default: 20 }), /amount.*default changed from 10 to 20/],
		[
			'a removed option value',
			change(0, { options: ['a'] }),
			/mode: option value\(s\) removed: "b"/,
		],
		['a changed type', change(1, { type: 'string' }), /amount.*type changed from number to string/],
		[
			'changed display conditions',
			change(1, { displayOptions: { show: { mode: ['b'] } } }),
			/amount.*display conditions changed/,
		],
		[
			'a renamed parameter',
			change(2, { path: 'list.item.name' }),
			/list\.item\.key: removed or renamed/,
		],
		['a parameter made required', change(1, { required: true }), /amount.*became required/],
		['a list made single', change(2, { multipleValues: true }), /multipleValues changed/],
	])('flags %s', (_what, now, message) => {
		const problems = breakingChanges(base, now);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(message);
	});

	it("lets a collection option's default change pass (n8n stores an added option's value), not a top-level one's", () => {
		const saved: Snapshot = {
			node: 'x',
			version: 1,
			parameters: [
				{ path: 'options', type: 'collection', default: {} },
				{ path: 'options.keep', type: 'boolean', default: true },
				{ path: 'top', type: 'boolean', default: true },
			],
		};
		const flipped = (path: string): Snapshot => ({
			...saved,
			parameters: saved.parameters.map((p) => (p.path === path ? { ...p, default: false } : p)),
		});
		expect(breakingChanges(saved, flipped('options.keep'))).toEqual([]);
		expect(breakingChanges(saved, flipped('top'))).toHaveLength(1);
	});

	it('lets a new parameter or option value pass', () => {
		const now: Snapshot = {
			...base,
			parameters: [
				...change(0, { options: ['a', 'b', 'c'] }).parameters,
				{ path: 'extra', type: 'boolean', default: false },
			],
		};
		expect(breakingChanges(base, now)).toEqual([]);
	});
});
