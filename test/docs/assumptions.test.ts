/** docs/assumptions.md lists the assumptions of the code (nodes/shared/assumptions.ts), word for word, and no others. */
import { ASSUMPTIONS } from '../../nodes/shared/assumptions';
import { readDoc } from './markdown';

const page = readDoc('docs/assumptions.md');

describe('docs/assumptions.md', () => {
	it('lists every assumption of the code, word for word, in its table', () => {
		const missing = ASSUMPTIONS.filter(
			({ topic, guess }) => !page.includes(`| ${topic} | ${guess.replace(/\|/g, '\\|')} |`),
		).map((a) => a.topic);
		expect(missing).toEqual([]);
	});

	it('has no row the code does not have', () => {
		const rows = page.split('\n').filter((line) => /^\| (?!Where|---)/.test(line));
		expect(rows).toHaveLength(ASSUMPTIONS.length);
	});
});
