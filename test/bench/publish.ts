/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: writes the bench's results into docs/, not published (package.json "files" is dist/ only) */
/**
 * Writes a bench run into the docs: docs/benchmarks.json (the rows of the latest run of
 * every scenario: a run of some scenarios, or of scenario 6 alone, replaces only those),
 * docs/benchmarks.svg (chart.ts) and the table between the bench markers of
 * docs/benchmarks.md. Returns the table.
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';

import { renderChart } from './chart';
import { type Kind, markdownTable, mergeRows, type Row } from './verdict';

const DOCS = path.resolve(__dirname, '..', '..', 'docs');
const JSON_FILE = path.join(DOCS, 'benchmarks.json');
const BEGIN = '<!-- bench:table -->';
const END = '<!-- /bench:table -->';

/** A run whose rows are in the file: the command, the scenarios it still stands for, machine, date, load. */
export interface RunNote {
	command: string;
	scenarios: string[];
	text: string;
}

interface Saved {
	rows: Row[];
	runs: RunNote[];
}

/** The runs behind the merged rows: a fresh run takes its scenarios from the earlier ones. */
export function mergeRuns(previous: RunNote[], fresh: RunNote): RunNote[] {
	const kept = previous
		.map((r) => ({ ...r, scenarios: r.scenarios.filter((s) => !fresh.scenarios.includes(s)) }))
		.filter((r) => r.scenarios.length > 0);
	return fresh.scenarios.length > 0 ? [...kept, fresh] : kept;
}

export const runLine = (r: RunNote): string =>
	`${r.command} (scenarios ${r.scenarios.join(', ')}): ${r.text}`;

/** Cores, memory, Node and n8n versions, the date and the load average now. */
export function machine(totalS: number): string {
	const cpu = os.cpus();
	const load = os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ');
	return `${new Date().toISOString().slice(0, 16)}Z, ${cpu.length} cores (${cpu[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, bench on Node ${process.version}, n8n 2.41.1 on Node 24; ${Math.round(totalS)} s in all; load average at the end ${load}`;
}

export function publish(
	command: string,
	fresh: Row[],
	description: string,
	against: Kind[],
): string {
	const saved: Saved = existsSync(JSON_FILE)
		? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as Saved)
		: { rows: [], runs: [] };
	const rows = mergeRows(saved.rows, fresh);
	const runs = mergeRuns(Array.isArray(saved.runs) ? saved.runs : [], {
		command,
		scenarios: [...new Set(fresh.map((r) => r.scenario))].sort((a, b) => Number(a) - Number(b)),
		text: description,
	});
	writeFileSync(JSON_FILE, `${JSON.stringify({ rows, runs }, null, '\t')}\n`);
	writeFileSync(path.join(DOCS, 'benchmarks.svg'), renderChart(rows, runs.map(runLine), against));
	const table = `${runs.map((r) => `- ${runLine(r)}`).join('\n')}\n\n${markdownTable(rows, against)}`;
	const mdFile = path.join(DOCS, 'benchmarks.md');
	const md = readFileSync(mdFile, 'utf8');
	const a = md.indexOf(BEGIN);
	const b = md.indexOf(END);
	if (a >= 0 && b > a)
		writeFileSync(mdFile, `${md.slice(0, a + BEGIN.length)}\n${table}\n${md.slice(b)}`);
	return table;
}
