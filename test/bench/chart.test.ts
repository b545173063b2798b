import { COLORS, escapeXml, renderChart, wrap } from './chart';
import type { Row } from './verdict';

const row = (over: Partial<Row>): Row => ({
	scenario: '2',
	contender: 'x',
	kind: 'other',
	value: 1,
	failed: 0,
	duplicates: 0,
	rateLimited: 0,
	serverErrors: 0,
	requests: 500,
	...over,
});

describe('bench chart', () => {
	const rows = [
		row({ contender: 'this node, defaults', kind: 'node', value: 4.5 }),
		row({ contender: 'HTTP Request, defaults', kind: 'httpDefault', value: 1.5, failed: 500 }),
		row({ contender: 'HTTP Request, batching 100 per 1000 ms', kind: 'httpTuned', value: 4 }),
		row({ contender: 'raw fetch, 3 at once <best>', kind: 'raw', value: 5 }),
	];
	const svg = renderChart(rows, ['Machine & load', 'queue: second line']);

	test('one bar per contender, scaled to the largest of the figures and the target', () => {
		const bars = [...svg.matchAll(/<rect x="340" y="[\d.]+" width="([\d.]+)"/g)].map((m) =>
			Number(m[1]),
		);
		expect(bars).toHaveLength(4);
		// the scale's top is 1.12 x the largest figure (5 s, above the 4.2 s target): 430 px
		expect(bars[3]).toBeCloseTo((430 * 5) / (5 * 1.12), 0);
		expect(bars[0] / bars[2]).toBeCloseTo(4.5 / 4, 2);
	});

	test('the target line sits at 1.05 x the best clean contender; lost items are hatched and said', () => {
		const line = svg.match(/<line x1="([\d.]+)"[^>]*class="t"/);
		expect(Number(line?.[1])).toBeCloseTo(340 + (430 * 4.2) / 5.6, 0);
		expect(svg).toContain('target 4.20');
		expect(svg).toContain('fill="url(#hatch)" stroke="#9ca3af"');
		expect(svg).toContain('1.50 — 500 failed');
		expect(svg).toContain(`fill="${COLORS.node}"`);
	});

	test('text is escaped and the document is one well-formed svg', () => {
		expect(escapeXml('a < b & "c"')).toBe('a &lt; b &amp; &quot;c&quot;');
		expect(svg).toContain('raw fetch, 3 at once &lt;best&gt;');
		expect(svg).toContain('Machine &amp; load</text>');
		expect(svg).toContain('>queue: second line</text>');
		expect(svg.startsWith('<svg ')).toBe(true);
		expect(svg.trim().endsWith('</svg>')).toBe(true);
		expect(svg.match(/<text/g)?.length).toBe(svg.match(/<\/text>/g)?.length);
	});

	test('a label too long for its column is drawn narrower to fit; a short one as it is', () => {
		const long = 'a minimal trigger saving one value per delivery, with a credential, 25 at once';
		const chart = renderChart([row({ contender: long }), row({ contender: 'short' })], []);
		expect(chart).toContain(
			`text-anchor="end" textLength="320" lengthAdjust="spacingAndGlyphs">${long}</text>`,
		);
		expect(chart).toContain('text-anchor="end">short</text>');
	});

	test('a 200 s scenario beside a 4 s one: each panel on its own scale, the floor target and the memory said', () => {
		const both = renderChart(
			[
				row({
					scenario: '10',
					contender: 'this node, defaults',
					kind: 'node',
					value: 4.3,
					floor: 4.025,
				}),
				row({ scenario: '10', contender: 'HTTP Request, tuned', kind: 'httpTuned', value: 4.9 }),
				row({
					scenario: '11',
					contender: 'this node, defaults',
					kind: 'node',
					value: 205,
					floor: 199.025,
					memoryMb: 380,
					memoryLimitMb: 490,
				}),
				row({ scenario: '11', contender: 'HTTP Request, tuned', kind: 'httpTuned', value: 230 }),
			],
			[],
		);
		const bars = [...both.matchAll(/<rect x="340" y="[\d.]+" width="([\d.]+)"/g)].map((m) =>
			Number(m[1]),
		);
		// the largest figure of each panel is 430 / 1.12 px wide, whatever its seconds
		expect(bars[1]).toBeCloseTo(430 / 1.12, 0);
		expect(bars[3]).toBeCloseTo(430 / 1.12, 0);
		expect(bars[0]).toBeCloseTo((430 * 4.3) / (4.9 * 1.12), 0);
		expect(both).toContain('target 4.23');
		expect(both).toContain('target 208.98');
		expect(both).toContain('205.00 (n8n +380.0 MB)');
	});

	test('long captions wrap after a separator', () => {
		expect(wrap('aaaa; bbbb, cccc dddd', 12)).toEqual(['aaaa; bbbb,', '  cccc dddd']);
		expect(wrap('short')).toEqual(['short']);
	});
});
