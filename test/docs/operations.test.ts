/** docs/operations.md documents every operation of every resource of the action node, each with an example. */
import { resourceModules, resourceProperties } from '../../nodes/DocumentSigning/actions/resources';
import { readDoc } from './markdown';

const reference = readDoc('docs/operations.md');

type Option = { name: string; value: string };

const resources = (resourceProperties.find((p) => p.name === 'resource')?.options ??
	[]) as Option[];

function operations(resource: string): Option[] {
	const property = resourceModules[resource]?.description.find((p) => p.name === 'operation');
	return (property?.options ?? []) as Option[];
}

/**
 * The parts of a resource's section, by the operation names they describe: `#### Name`
 * headings where the section has them, else top-level bullets `- **Name**: ...` (one bullet
 * may name several, as in `- **Archive** / **Restore**:`).
 */
function parts(section: string): Map<string, string> {
	const lines = section.split('\n');
	const byHeading = lines.some((line) => line.startsWith('#### '));
	const result = new Map<string, string>();
	let names: string[] = [];
	let body: string[] = [];
	const flush = () => names.forEach((name) => result.set(name, body.join('\n')));
	for (const line of lines) {
		const heading = byHeading ? /^#### (.+)$/.exec(line) : null;
		const bullet = !byHeading && line.startsWith('- **') ? line.split(':')[0] : null;
		if (heading || bullet !== null) {
			flush();
			names = heading
				? [heading[1].trim()]
				: [...bullet!.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]);
			body = [];
		}
		body.push(line);
	}
	flush();
	return result;
}

describe('docs/operations.md', () => {
	it('covers the four resources of the node', () => {
		expect(resources.map((r) => r.value).sort()).toEqual([
			'credit',
			'envelope',
			'template',
			'workflow',
		]);
	});

	it.each(resources.map((r) => [r.name, r.value]))(
		'%s: every operation is in the table and has its own part with an example',
		(name, value) => {
			const ops = operations(value);
			expect(ops.length).toBeGreaterThan(0);
			const heading = `\n### ${name} operations\n`;
			expect(reference).toContain(heading);
			const section = reference.split(heading)[1].split(/\n#{2,3} /)[0];
			const described = parts(section);
			const missing: string[] = [];
			for (const op of ops) {
				if (!section.includes(`| \`${op.value}\` |`))
					missing.push(`${op.name}: no table row for \`${op.value}\``);
				const part = described.get(op.name);
				if (part === undefined)
					missing.push(`${op.name}: no part headed "#### ${op.name}" or "- **${op.name}**:"`);
				else if (!part.includes('*Example:*')) missing.push(`${op.name}: no *Example:*`);
			}
			expect(missing).toEqual([]);
		},
	);
});
