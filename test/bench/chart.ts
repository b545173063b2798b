/**
 * The chart of a bench run (docs/benchmarks.svg), written as SVG text: one panel per
 * scenario, one bar per contender (its figure on the scenario's own scale), and the
 * target of this node's row as a dashed line. Contenders that lost items or created
 * records twice are drawn hatched and say so. Pure: rows in, text out (chart.test.ts).
 */
import { clean, fmt, type Kind, type Row, SCENARIOS, targetOf, YARDSTICK } from './verdict';

const WIDTH = 900;
const LABEL_W = 330;
const BAR_X = LABEL_W + 10;
const BAR_W = 430;
const ROW_H = 22;
const HEAD_H = 28;
const GAP = 14;

export const COLORS: Record<Kind, string> = {
	node: '#0f766e',
	httpDefault: '#9ca3af',
	httpTuned: '#d97706',
	raw: '#2563eb',
	other: '#7c3aed',
};

const LEGEND: Array<[Kind, string]> = [
	['node', 'this node, defaults'],
	['httpDefault', 'HTTP Request, defaults'],
	['httpTuned', 'HTTP Request, tuned'],
	['raw', 'raw fetch loop'],
	['other', 'other figure'],
];

/** Characters of a label at about CHAR_W px each. */
const CHAR_W = 6.5;

/** A label too long for its column is drawn narrower to fit, not cut at the chart's edge. */
const fitted = (label: string): string =>
	label.length * CHAR_W > LABEL_W - 10
		? ` textLength="${LABEL_W - 10}" lengthAdjust="spacingAndGlyphs"`
		: '';

export function escapeXml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

/** `text` in lines of at most `width` characters, broken after "; " or ", " where possible. */
export function wrap(text: string, width = 130): string[] {
	const lines: string[] = [];
	let rest = text;
	while (rest.length > width) {
		const cut = Math.max(rest.lastIndexOf('; ', width), rest.lastIndexOf(', ', width));
		const at = cut > 0 ? cut + 2 : width;
		lines.push(rest.slice(0, at).trimEnd());
		rest = `  ${rest.slice(at)}`;
	}
	return [...lines, rest];
}

/** The SVG of `rows`; `captions` (per command: date, machine, load) go under the title, one line each. */
export function renderChart(rows: Row[], runs: string[], against: Kind[] = YARDSTICK): string {
	const captions = runs.flatMap((r) => wrap(r));
	const parts: string[] = [];
	let y = 38 + 16 * captions.length;
	const scenarios = [...new Set(rows.map((r) => r.scenario))];
	for (const scenario of scenarios) {
		const info = SCENARIOS[scenario] ?? { title: '', unit: 's' as const };
		const mine = rows.filter((r) => r.scenario === scenario);
		const target = targetOf(rows, scenario, against);
		const top = Math.max(...mine.map((r) => r.value), target?.limit ?? 0) * 1.12 || 1;
		const x = (value: number) => BAR_X + (BAR_W * value) / top;
		parts.push(
			`<text x="10" y="${y + 18}" class="h">${escapeXml(`${scenario}. ${info.title}`)} (${info.unit})</text>`,
		);
		y += HEAD_H;
		const panelTop = y;
		for (const r of mine) {
			const ok = clean(r);
			const w = Math.max(1, x(r.value) - BAR_X);
			parts.push(
				`<text x="${LABEL_W}" y="${y + 15}" class="l" text-anchor="end"${fitted(r.contender)}>${escapeXml(r.contender)}</text>`,
			);
			parts.push(
				`<rect x="${BAR_X}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW_H - 6}" fill="${ok ? COLORS[r.kind] : 'url(#hatch)'}"${ok ? '' : ` stroke="${COLORS[r.kind]}"`}/>`,
			);
			const flags = ok
				? ''
				: ` — ${r.failed} failed${r.duplicates ? `, ${r.duplicates} twice` : ''}`;
			const memory = r.memoryMb === undefined ? '' : ` (n8n +${fmt(r.memoryMb, 'MB')} MB)`;
			parts.push(
				`<text x="${(BAR_X + w + 5).toFixed(1)}" y="${y + 15}" class="v">${fmt(r.value, info.unit)}${flags}${memory}</text>`,
			);
			y += ROW_H;
		}
		if (target) {
			const tx = x(target.limit).toFixed(1);
			parts.push(`<line x1="${tx}" y1="${panelTop}" x2="${tx}" y2="${y + 2}" class="t"/>`);
			parts.push(
				`<text x="${tx}" y="${y + 13}" class="tl" text-anchor="middle">target ${fmt(target.limit, info.unit)}</text>`,
			);
			y += 10;
		}
		y += GAP;
	}
	let lx = 10;
	const legend = LEGEND.filter(([kind]) => rows.some((r) => r.kind === kind)).map(
		([kind, label]) => {
			const item = `<rect x="${lx}" y="${y + 4}" width="12" height="12" fill="${COLORS[kind]}"/><text x="${lx + 16}" y="${y + 14}" class="l">${escapeXml(label)}</text>`;
			lx += 30 + label.length * CHAR_W;
			return item;
		},
	);
	legend.push(
		`<rect x="${lx}" y="${y + 4}" width="12" height="12" fill="url(#hatch)" stroke="#444"/><text x="${lx + 16}" y="${y + 14}" class="l">items lost or created twice</text>`,
	);
	y += 30;
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" font-family="Helvetica, Arial, sans-serif">`,
		'<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fee2e2"/><line x1="0" y1="0" x2="0" y2="6" stroke="#dc2626" stroke-width="2"/></pattern>',
		'<style>.h{font-size:14px;font-weight:bold;fill:#111}.l{font-size:12px;fill:#333}.v{font-size:12px;fill:#111}.t{stroke:#dc2626;stroke-width:1.5;stroke-dasharray:4 3}.tl{font-size:11px;fill:#dc2626}.c{font-size:12px;fill:#555}</style></defs>',
		`<rect width="${WIDTH}" height="${y}" fill="#fff"/>`,
		'<text x="10" y="22" class="h">npm run bench: this node with defaults against n8n\'s HTTP Request node and a raw fetch loop</text>',
		...captions.map((c, k) => `<text x="10" y="${40 + 16 * k}" class="c">${escapeXml(c)}</text>`),
		...parts,
		...legend,
		'</svg>',
		'',
	].join('\n');
}
