/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Parameter snapshots: what a saved workflow's parameters mean, per node and version.
 *
 * A saved workflow stores a node's type, its typeVersion and the parameter values that
 * differ from the defaults. Its meaning changes when a parameter it names is removed or
 * renamed, a default it relies on changes, an option value it holds goes away, a type or
 * the shape of a list changes, or a parameter is shown under other conditions. Those are
 * "breaking" here; a new parameter or option is not (its default keeps the old behaviour).
 *
 * One JSON file per node and version under test/snapshots/params/ holds, for every
 * parameter (nested ones by path, e.g. `documents.document.label`): type, default,
 * display conditions, option values, required, multipleValues, locator modes and the
 * mapper's auto-map support. Labels, descriptions and hints are left out: changing them
 * changes no saved workflow.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import path from 'path';
import type {
	INodeProperties,
	INodePropertyCollection,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

export const SNAPSHOT_DIR = path.join(__dirname, 'params');
export const UPDATE_COMMAND = 'npm run snapshot:params';

export interface ParamEntry {
	/** `name`, or `parent.child` / `parent.group.child` inside collections. */
	path: string;
	type: string;
	default: unknown;
	required?: true;
	/** show/hide without `@version` (evaluated per version), values sorted. */
	displayOptions?: Record<string, unknown>;
	/** The values of an options / multiOptions parameter (static lists only). */
	options?: unknown[];
	multipleValues?: true;
	/** The modes of a resource locator. */
	modes?: string[];
	/** A resource mapper that offers "Map Automatically". */
	supportAutoMap?: true;
}

export interface Snapshot {
	node: string;
	version: number;
	parameters: ParamEntry[];
}

const NODE_SOURCES = [
	'DocumentSigning/DocumentSigning.node.ts',
	'DocumentSigningTrigger/DocumentSigningTrigger.node.ts',
	'DocumentSigningStatusTrigger/DocumentSigningStatusTrigger.node.ts',
];

/**
 * Every node of the package, from source. Required by the .ts file name: ts-node would
 * otherwise pick the codex file next to it (`<Node>.node.json`).
 */
export function packageNodes(): INodeTypeDescription[] {
	return NODE_SOURCES.map((file) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exports = require(path.join(__dirname, '../../nodes', file)) as Record<
			string,
			new () => INodeType
		>;
		const NodeClass = Object.values(exports).find((e) => typeof e === 'function');
		if (!NodeClass) throw new Error(`${file} exports no node class`);
		return new NodeClass().description;
	});
}

export function versionsOf(description: INodeTypeDescription): number[] {
	return Array.isArray(description.version) ? [...description.version] : [description.version];
}

export function snapshotFile(node: string, version: number): string {
	return path.join(SNAPSHOT_DIR, `${node}.v${version}.json`);
}

/** Sorted keys (and sorted scalar arrays), so equal meaning gives equal text. */
function stable(value: unknown): unknown {
	if (Array.isArray(value)) {
		const items = value.map(stable);
		return items.every((v) => typeof v !== 'object' || v === null)
			? [...items].sort((a, b) => String(a).localeCompare(String(b)))
			: items;
	}
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value as object)
				.sort()
				.map((k) => [k, stable((value as Record<string, unknown>)[k])]),
		);
	}
	return value;
}

type Condition = number | { _cnd: Record<string, number | number[]> };

/** Whether an `@version` condition list lets `version` in. */
function versionMatches(conditions: Condition[], version: number): boolean {
	return conditions.some((c) => {
		if (typeof c === 'number') return c === version;
		const [op, operand] = Object.entries(c._cnd ?? {})[0] ?? [];
		const n = operand as number;
		switch (op) {
			case 'gte':
				return version >= n;
			case 'lte':
				return version <= n;
			case 'gt':
				return version > n;
			case 'lt':
				return version < n;
			case 'eq':
				return version === n;
			case 'not':
				return version !== n;
			case 'between': {
				const range = operand as unknown as { from: number; to: number };
				return version >= range.from && version <= range.to;
			}
			default:
				return true;
		}
	});
}

/** Whether a parameter exists in `version` at all, by its `@version` display conditions. */
function inVersion(property: INodeProperties, version: number): boolean {
	const show = property.displayOptions?.show?.['@version'] as Condition[] | undefined;
	const hide = property.displayOptions?.hide?.['@version'] as Condition[] | undefined;
	if (show && !versionMatches(show, version)) return false;
	if (hide && versionMatches(hide, version)) return false;
	return true;
}

function displayConditions(property: INodeProperties): Record<string, unknown> | undefined {
	const out: Record<string, unknown> = {};
	for (const side of ['show', 'hide'] as const) {
		const rules = { ...(property.displayOptions?.[side] ?? {}) };
		delete rules['@version'];
		if (Object.keys(rules).length) out[side] = stable(rules);
	}
	return Object.keys(out).length ? out : undefined;
}

function entriesOf(properties: INodeProperties[], version: number, prefix = ''): ParamEntry[] {
	const entries: ParamEntry[] = [];
	for (const property of properties) {
		if (property.type === 'notice' || property.type === 'callout' || !inVersion(property, version))
			continue;
		const at = prefix + property.name;
		const entry: ParamEntry = {
			path: at,
			type: property.type,
			default: stable(property.default ?? null),
		};
		if (property.required) entry.required = true;
		const conditions = displayConditions(property);
		if (conditions) entry.displayOptions = conditions;
		if (property.typeOptions?.multipleValues) entry.multipleValues = true;
		if (
			(property.type === 'options' || property.type === 'multiOptions') &&
			Array.isArray(property.options)
		) {
			entry.options = stable(
				(property.options as Array<{ value: unknown }>).map((o) => o.value),
			) as unknown[];
		}
		if (property.type === 'resourceLocator' && property.modes)
			entry.modes = property.modes.map((m) => m.name).sort();
		if (property.type === 'resourceMapper' && property.typeOptions?.resourceMapper?.supportAutoMap)
			entry.supportAutoMap = true;
		entries.push(entry);
		if (property.type === 'collection' && property.options) {
			entries.push(...entriesOf(property.options as INodeProperties[], version, `${at}.`));
		}
		if (property.type === 'fixedCollection' && property.options) {
			for (const group of property.options as INodePropertyCollection[]) {
				entries.push(...entriesOf(group.values, version, `${at}.${group.name}.`));
			}
		}
	}
	return entries;
}

/** A parameter's key: its path and display conditions (n8n allows one name under several). */
export const keyOf = (e: ParamEntry) => `${e.path} ${JSON.stringify(e.displayOptions ?? {})}`;

export function snapshotOf(description: INodeTypeDescription, version: number): Snapshot {
	const parameters = entriesOf(description.properties, version);
	const seen = new Set<string>();
	const unique = parameters.filter((p) =>
		seen.has(keyOf(p)) ? false : (seen.add(keyOf(p)), true),
	);
	unique.sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
	return { node: description.name, version, parameters: unique };
}

const same = (a: unknown, b: unknown) => JSON.stringify(stable(a)) === JSON.stringify(stable(b));

const parentPath = (path: string) => path.split('.').slice(0, -1).join('.');

/** What would change the meaning of a saved workflow going from `saved` to `now`. */
export function breakingChanges(saved: Snapshot, now: Snapshot): string[] {
	const current = new Map(now.parameters.map((p) => [keyOf(p), p]));
	const collections = new Set(
		now.parameters.filter((p) => p.type === 'collection').map((p) => p.path),
	);
	const problems: string[] = [];
	for (const old of saved.parameters) {
		const where = `${old.path}${old.displayOptions ? ` (shown when ${JSON.stringify(old.displayOptions)})` : ''}`;
		const p = current.get(keyOf(old));
		if (!p) {
			const moved = now.parameters.filter((n) => n.path === old.path);
			problems.push(
				moved.length
					? `${where}: display conditions changed, now ${moved.map((m) => JSON.stringify(m.displayOptions ?? 'always shown')).join(' or ')}`
					: `${where}: removed or renamed`,
			);
			continue;
		}
		if (p.type !== old.type) problems.push(`${where}: type changed from ${old.type} to ${p.type}`);
		// An option of a collection is stored whenever it is added, even at its default
		// (n8n-workflow node-helpers.js getNodeParameters, `parentType === 'collection'`):
		// its default only sets the toggle a user adds, so a change leaves saved workflows alone.
		if (!same(p.default, old.default) && !collections.has(parentPath(old.path)))
			problems.push(
				`${where}: default changed from ${JSON.stringify(old.default)} to ${JSON.stringify(p.default)}`,
			);
		if (p.required && !old.required) problems.push(`${where}: became required`);
		if (Boolean(p.multipleValues) !== Boolean(old.multipleValues))
			problems.push(`${where}: multipleValues changed (the saved shape of its value)`);
		const gone = (old.options ?? []).filter((v) => !(p.options ?? []).some((n) => same(n, v)));
		if (old.options && gone.length)
			problems.push(
				`${where}: option value(s) removed: ${gone.map((v) => JSON.stringify(v)).join(', ')}`,
			);
		const modesGone = (old.modes ?? []).filter((m) => !(p.modes ?? []).includes(m));
		if (modesGone.length)
			problems.push(`${where}: locator mode(s) removed: ${modesGone.join(', ')}`);
		if (old.supportAutoMap && !p.supportAutoMap)
			problems.push(`${where}: "Map Automatically" removed`);
	}
	return problems;
}

export function readSnapshot(file: string): Snapshot {
	return JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
}

/** One parameter a line: a change shows as that parameter's line in a diff. */
export function snapshotText(snapshot: Snapshot): string {
	const lines = snapshot.parameters.map((p) => `\t\t${JSON.stringify(p)}`);
	return `{\n\t"node": ${JSON.stringify(snapshot.node)},\n\t"version": ${snapshot.version},\n\t"parameters": [\n${lines.join(',\n')}\n\t]\n}\n`;
}

/** The snapshot files on disk, as node -> versions. */
export function savedVersions(): Map<string, number[]> {
	const out = new Map<string, number[]>();
	if (!existsSync(SNAPSHOT_DIR)) return out;
	for (const file of readdirSync(SNAPSHOT_DIR)) {
		const match = /^(.+)\.v(\d+(?:\.\d+)?)\.json$/.exec(file);
		if (!match) continue;
		out.set(match[1], [...(out.get(match[1]) ?? []), Number(match[2])]);
	}
	return out;
}

/** Why the node's version must rise, as the test and the update command say it. */
export function bumpAdvice(node: string, version: number): string {
	return (
		`${node} v${version}: these changes alter what saved workflows mean. Keep v${version} as it is and raise the node's ` +
		`version instead (description.version: [..., ${version}, <next>], the changed parameters shown only for the new ` +
		`version with displayOptions @version), then run \`${UPDATE_COMMAND}\`: it adds the new version's snapshot and keeps this one.`
	);
}
