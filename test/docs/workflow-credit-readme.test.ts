/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { readFileSync } from 'fs';
import { join } from 'path';

import * as credit from '../../nodes/DocumentSigning/actions/credit/Credit.resource';
import * as workflow from '../../nodes/DocumentSigning/actions/workflow/Workflow.resource';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README: signing workflow and credit operations', () => {
	it.each([
		['### Signing Workflow operations', workflow.description, 6],
		['### Credit operations', credit.description, 3],
	])('%s lists every operation value with an example', (heading, description, count) => {
		const operation = description.find((p) => p.name === 'operation');
		const values = (operation?.options ?? []).map((o) => (o as { value: string }).value);
		expect(values).toHaveLength(count);
		const section = readme.split(heading)[1].split('\n### ')[0];
		for (const value of values) expect(section).toContain(`| \`${value}\` |`);
		expect((section.match(/\*Example:\*/g) ?? []).length).toBeGreaterThanOrEqual(count);
	});
});
