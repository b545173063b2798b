/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/node-connection-type-literal -- test code: test-only node types, not published (package.json "files" is dist/ only); "main" as a literal keeps the file free of runtime imports (the e2e run loads it alone) */
/**
 * The differential check of nodes/shared/api/runParameters.ts, which reads `{{ $json.x }}` from
 * the item itself instead of asking n8n: the expressions, the item values and a probe node
 * that reads every parameter of every item through the shortcut and through n8n's own
 * `getNodeParameter`, and lists each difference (value, type or error).
 *
 * One list of cases for both runs of it: in-process in n8n-core's engine
 * (test/reliability/run-parameters-diff.test.ts, with the source) and in a real n8n of each
 * line (test/e2e/suites/80-run-parameters.ts, with the built package). Only type imports:
 * the e2e run compiles this file alone into plain JS for n8n to load.
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

export const PROBE_TYPE = 'parameterProbe';
export const VALUES_TYPE = 'parameterValues';

const locator = (value: string, mode = 'id') => ({ __rl: true, mode, value });

/** Each parameter: its stored value, and the n8n type it is declared with. */
export const CASES: Record<
	string,
	{ value: NodeParameterValueType; type?: INodeProperties['type'] }
> = {
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
export const VALUES: unknown[] = [
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

/** The options each parameter is read with: a resource locator also with extractValue. */
const readOptions = (name: string): Array<IGetNodeParameterOptions | undefined> =>
	CASES[name].type === 'resourceLocator' ? [undefined, { extractValue: true }] : [undefined];

/** How many readings the probe compares over all of VALUES. */
export const COMPARISONS =
	VALUES.length * Object.keys(CASES).reduce((sum, name) => sum + readOptions(name).length, 0);

/** The probe's input: each value as `v`, under a spaced key, nested and in an array. */
export const probeItems = (): INodeExecutionData[] =>
	VALUES.map((v) => ({
		json: { v, 'a b': v, nested: { a: { b: v } }, arr: [v] } as IDataObject,
	}));

/** The probe's stored parameters. */
export const probeParameters = () =>
	Object.fromEntries(Object.entries(CASES).map(([name, { value }]) => [name, value]));

/** The probe's answer: how many readings it compared, and each one that differed. */
export interface ProbeAnswer {
	compared: number;
	differences: Array<{
		name: string;
		item: number;
		options: IGetNodeParameterOptions | null;
		shortcut: Reading;
		n8n: Reading;
	}>;
}
type Reading = { type: string; value: unknown } | { error: string };

function readWith(
	context: IExecuteFunctions,
	name: string,
	item: number,
	options?: IGetNodeParameterOptions,
): Reading {
	try {
		const value: unknown = context.getNodeParameter(name, item, undefined, options);
		return {
			type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value,
			value: value === undefined ? '(undefined)' : value,
		};
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/** Reads each parameter of each item through `shortcut(context)` and through n8n. */
export function compareReadings(
	context: IExecuteFunctions,
	shortcut: (context: IExecuteFunctions) => IExecuteFunctions,
): ProbeAnswer {
	const run = shortcut(context);
	const answer: ProbeAnswer = { compared: 0, differences: [] };
	for (let item = 0; item < context.getInputData().length; item++) {
		for (const name of Object.keys(CASES)) {
			for (const options of readOptions(name)) {
				const fromShortcut = readWith(run, name, item, options);
				const fromN8n = readWith(context, name, item, options);
				answer.compared++;
				if (JSON.stringify(fromShortcut) !== JSON.stringify(fromN8n))
					answer.differences.push({
						name,
						item,
						options: options ?? null,
						shortcut: fromShortcut,
						n8n: fromN8n,
					});
			}
		}
	}
	return answer;
}

function property(name: string, type: INodeProperties['type'] | undefined): INodeProperties {
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
}

/** The probe node: one output item, the ProbeAnswer over all its input items. */
export class ParameterProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Probe',
		name: PROBE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Reads each parameter through the shortcut and through n8n',
		defaults: { name: 'Params' },
		inputs: ['main'],
		outputs: ['main'],
		properties: Object.entries(CASES).map(([name, { type }]) => property(name, type)),
	};

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	constructor(shortcut: (context: IExecuteFunctions) => IExecuteFunctions) {
		// n8n calls execute with the run's context as `this`: the shortcut is kept by closure.
		this.execute = async function (this: IExecuteFunctions) {
			return [[{ json: compareReadings(this, shortcut) as unknown as IDataObject }]];
		};
	}
}

/** The probe's input in a real n8n: one item per value (probeItems). */
export class ParameterValues implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Values',
		name: VALUES_TYPE,
		group: ['transform'],
		version: 1,
		description: 'The values the parameter probe reads',
		defaults: { name: 'Values' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	};

	async execute(): Promise<INodeExecutionData[][]> {
		return [probeItems()];
	}
}
