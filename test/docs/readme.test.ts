/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { readFileSync } from 'fs';
import { join } from 'path';

import * as envelope from '../../nodes/DocumentSigning/actions/envelope/Envelope.resource';
import { ASSUMPTIONS } from '../../nodes/shared/assumptions';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
	it('lists every assumption of the code, word for word, in its Assumptions table', () => {
		const missing = ASSUMPTIONS.filter(
			({ topic, guess }) => !readme.includes(`| ${topic} | ${guess.replace(/\|/g, '\\|')} |`),
		).map((a) => a.topic);
		expect(missing).toEqual([]);
	});

	it('has no assumption row the code does not have', () => {
		const section = readme.split('## Assumptions')[1].split('\n## ')[0];
		const rows = section.split('\n').filter((line) => /^\| (?!Where|---)/.test(line));
		expect(rows).toHaveLength(ASSUMPTIONS.length);
	});

	it('documents every envelope operation with an example', () => {
		const operationProperty = envelope.description.find((p) => p.name === 'operation');
		const values = (operationProperty?.options ?? []).map((o) => (o as { value: string }).value);
		expect(values.length).toBe(8);
		const section = readme.split('### Envelope operations')[1].split('\n## ')[0];
		for (const value of values) {
			expect(section).toContain(`| \`${value}\` |`);
		}
		const examples = section.match(/^\*Example:\*/gm) ?? [];
		expect(examples.length).toBeGreaterThanOrEqual(values.length - 1); // Send shows its output example inline
	});
});
