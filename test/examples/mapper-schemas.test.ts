/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * The examples' stored resource-mapper schemas are what the node's resourceMapping methods
 * load now (from the sandbox, with the template the example names). A stale schema shows
 * "Fields are outdated" and old labels when the example is opened in the editor.
 *
 * Also what the examples show by name: every workflow is an "Example: ...", and the people
 * the CSV example fills in are not the same person twice.
 */
import axios from 'axios';
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { EXAMPLE_TEMPLATE, EXAMPLE_TEMPLATE_ID } from '../../scripts/lib/example-data';
import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { type Harness, startHarness } from '../harness';
import { loadOptionsContext } from '../harness/load-options';

const DIR = path.join(__dirname, '..', '..', 'examples');
interface ExampleNode {
	name: string;
	type: string;
	parameters: IDataObject;
}
const examples = readdirSync(DIR)
	.filter((f) => f.endsWith('.json'))
	.map((file) => ({
		file,
		workflow: JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as {
			name: string;
			nodes: ExampleNode[];
		},
	}));

/** The templates the examples name, as the examples' setup creates them. */
const TEMPLATES: Record<string, object> = { [EXAMPLE_TEMPLATE_ID]: EXAMPLE_TEMPLATE };

/** Every stored resource-mapper value of the action node: [example, node, parameter, value]. */
const mappers = examples.flatMap(({ file, workflow }) =>
	workflow.nodes
		.filter((n) => n.type.endsWith('.documentSigning'))
		.flatMap((n) =>
			Object.entries(n.parameters)
				.filter(([, v]) => v && typeof v === 'object' && Array.isArray((v as IDataObject).schema))
				.map(([name, v]) => ({ file, node: n, name, value: v as { schema: IDataObject[] } })),
		),
);

/** What n8n keeps of a loaded field in a saved schema, for comparing. */
const comparable = (field: ResourceMapperField | IDataObject) => {
	const { id, displayName, required, type, defaultMatch, display, options } = field as IDataObject;
	return {
		id,
		displayName,
		required,
		type,
		defaultMatch,
		display,
		...(options ? { options } : {}),
	};
};

describe('examples', () => {
	let h: Harness;
	const { resourceMapping } = new DocumentSigning().methods;
	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());

	it('hold resource-mapper schemas (the test has something to compare)', () => {
		expect(mappers.length).toBeGreaterThan(0);
	});

	it.each(mappers.map((m) => [`${m.file} › ${m.node.name} › ${m.name}`, m] as const))(
		'%s: the stored schema is what the node loads now',
		async (_title, m) => {
			const locator = m.node.parameters.templateId as { value: string };
			const template = TEMPLATES[locator.value];
			expect(template).toBeDefined();
			const created = await axios.post(`${h.sandbox.baseUrl}/templates`, template, {
				headers: { Authorization: `Bearer ${h.sandbox.apiKey}` },
			});
			const parameters = {
				...m.node.parameters,
				templateId: { __rl: true, mode: 'id', value: created.data.id },
			} as INodeParameters;
			const mapper = (m.node.parameters as IDataObject)[m.name] as IDataObject;
			const method =
				m.name === 'prefill' ? resourceMapping.getPrefillFields : resourceMapping.getTemplateRoles;
			expect(mapper).toBeDefined();
			const { fields } = await method.call(loadOptionsContext(h, parameters));
			expect(m.value.schema.map(comparable)).toEqual(fields.map(comparable));
		},
	);

	it('are named "Example: ..."', () => {
		const unnamed = examples.filter(({ workflow }) => !workflow.name.startsWith('Example: '));
		expect(unnamed.map(({ file, workflow }) => `${file}: ${workflow.name}`)).toEqual([]);
	});

	it('the CSV example gives its landlord a name of no tenant of the CSV', () => {
		const csv = readFileSync(path.join(DIR, 'batch-recipients.csv'), 'utf8');
		const tenants = csv
			.split('\n')
			.slice(1)
			.map((line) => line.split(',')[0].trim())
			.filter(Boolean);
		const lease = mappers.find((m) => m.name === 'recipientMapping');
		const landlord = (lease?.node.parameters.recipientMapping as { value: IDataObject }).value[
			'landlord.name'
		];
		expect(typeof landlord).toBe('string');
		expect(tenants).not.toContain(landlord);
	});
});
