/**
 * docs/assumptions.md lists the assumptions of the code (nodes/shared/api/assumptions.ts), word
 * for word, with what happens when the service differs, and no others.
 */
import { ASSUMPTIONS } from '../../nodes/shared/api/assumptions';
import { readDoc } from './markdown';

const page = readDoc('docs/assumptions.md');

describe('docs/assumptions.md', () => {
	it('lists every assumption of the code, word for word, in its table', () => {
		const cell = (text: string) => text.replace(/\|/g, '\\|');
		const missing = ASSUMPTIONS.filter(
			({ topic, guess, differs }) =>
				!page.includes(`| ${topic} | ${cell(guess)} | ${cell(differs)} |`),
		).map((a) => a.topic);
		expect(missing).toEqual([]);
	});

	it('says for every row what happens when the service differs', () => {
		expect(ASSUMPTIONS.filter((a) => a.differs.trim().length < 20).map((a) => a.topic)).toEqual([]);
	});

	it('has no row the code does not have', () => {
		const rows = page.split('\n').filter((line) => /^\| (?!Where|---)/.test(line));
		expect(rows).toHaveLength(ASSUMPTIONS.length);
	});
});
