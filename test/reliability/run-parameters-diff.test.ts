/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test code: a test-only node type, not published (package.json "files" is dist/ only) */
/**
 * runParameters.ts reads `{{ $json.x }}` from the item itself instead of asking n8n. This
 * runs expressions over item values of every type through both, in one real n8n execution
 * (n8n-core's WorkflowExecute, the harness), and fails on any difference: value, type or error.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { readingOncePerRun } from '../../nodes/shared/runParameters';
import { chain, type Harness, seedNode, startHarness } from '../harness';

const PARAMS_TYPE = 'parameterProbe';
const locator = (value: string, mode = 'id') => ({ __rl: true, mode, value });

/** Each parameter: its stored value, and the n8n type it is declared with. */
const CASES: Record<string, { value: NodeParameterValueType; type?: INodeProperties['type'] }> = {
	plain: { value: '={{ $json.v }}' },
	noSpaces: { value: '={{$json.v}}' },
	doubleQuoted: { value: '={{ $json["v"] }}' },
	singleQuoted: { value: "={{ $json['v'] }}" },
	spacedKey: { value: '={{ $json["a b"] }}' },
	nested: { value: '={{ $json.nested.a.b }}' },
	nestedObject: { value: '={{ $json.nested.a }}' },
	missing: { value: '={{ $json.missing }}' },
	missingDeep: { value: '={{ $json.missing.deeper }}' },
	inherited: { value: '={{ $json.constructor }}' },
	proto: { value: '={{ $json.__proto__ }}' },
	length: { value: '={{ $json.v.length }}' },
	arrayIndex: { value: '={{ $json.arr[0] }}' },
	prefixed: { value: '=id-{{ $json.v }}' },
	suffixed: { value: '={{ $json.v }} !' },
	twice: { value: '={{ $json.v }}{{ $json.v }}' },
	computed: { value: '={{ $json.v + 1 }}' },
	item: { value: '={{ $json }}' },
	notExpression: { value: '{{ $json.v }}' },
	number: { value: '={{ $json.v }}', type: 'number' },
	boolean: { value: '={{ $json.v }}', type: 'boolean' },
	locatorId: { value: locator('={{ $json.v }}'), type: 'resourceLocator' },
	locatorUrl: { value: locator('={{ $json.v }}', 'url'), type: 'resourceLocator' },
};

/** `v` in each item: values of every JSON type and the edge cases of each. */
const VALUES: unknown[] = [
	'text',
	'',
	'007',
	'naïve ✓',
	' padded ',
	42,
	0,
	-1.5,
	1e21,
	true,
	false,
	null,
	{ a: 1 },
	[1, 2],
	[],
];

class ParameterProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Probe',
		name: PARAMS_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Reads each parameter through the shortcut and through n8n',
		defaults: { name: 'Params' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: Object.entries(CASES).map(([name, { type }]): INodeProperties => {
			const base = { displayName: name, name, default: '' };
			if (type === 'resourceLocator') {
				return {
					...base,
					type,
					default: { mode: 'id', value: '' },
					modes: [
						{ displayName: 'ID', name: 'id', type: 'string' },
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							extractValue: { type: 'regex', regex: 'id-([a-z0-9]+)' },
						},
					],
				};
			}
			if (type === 'number') return { ...base, type, default: 0 };
			if (type === 'boolean') return { ...base, type, default: false };
			return { ...base, type: 'string' };
		}),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const run = readingOncePerRun(this);
		const read = (
			context: IExecuteFunctions,
			name: string,
			item: number,
			options?: IGetNodeParameterOptions,
		) => {
			try {
				const value: unknown = context.getNodeParameter(name, item, undefined, options);
				return {
					type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value,
					value: value === undefined ? '(undefined)' : value,
				};
			} catch (error) {
				return { error: (error as Error).message };
			}
		};
		const differences: IDataObject[] = [];
		let compared = 0;
		for (let item = 0; item < this.getInputData().length; item++) {
			for (const name of Object.keys(CASES)) {
				const variants =
					CASES[name].type === 'resourceLocator'
						? [undefined, { extractValue: true }]
						: [undefined];
				for (const options of variants) {
					const shortcut = read(run, name, item, options);
					const n8n = read(this, name, item, options);
					compared++;
					if (JSON.stringify(shortcut) !== JSON.stringify(n8n))
						differences.push({
							name,
							item,
							options: options ?? null,
							shortcut,
							n8n,
						} as IDataObject);
				}
			}
		}
		return [[{ json: { compared, differences } }]];
	}
}

let h: Harness;
beforeAll(async () => {
	h = await startHarness({ nodeTypes: { [PARAMS_TYPE]: new ParameterProbe() } });
});
afterAll(async () => await h.close());

it(`${Object.keys(CASES).length} expressions over ${VALUES.length} values of every type: the shortcut gives what n8n gives`, async () => {
	const input = VALUES.map((v) => ({
		json: { v, 'a b': v, nested: { a: { b: v } }, arr: [v] } as IDataObject,
	}));
	const parameters = Object.fromEntries(
		Object.entries(CASES).map(([name, { value }]) => [name, value]),
	);
	const result = await h.run({
		nodes: [
			seedNode(),
			{
				id: 'params',
				name: 'Params',
				type: PARAMS_TYPE,
				typeVersion: 1,
				position: [200, 0],
				parameters,
			},
		],
		connections: chain('Seed', 'Params'),
		input,
	});
	expect(result.error).toBeUndefined();
	const [{ json }] = result.items('Params');
	expect(json.compared).toBe(VALUES.length * (Object.keys(CASES).length + 2));
	expect(json.differences).toEqual([]);
});
