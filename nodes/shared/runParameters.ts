import type { IExecuteFunctions, IGetNodeParameterOptions, INodeParameters, NodeParameterValueType } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

/**
 * A node run's context that reads each parameter as few times as its value allows. n8n
 * resolves every `getNodeParameter` call through its expression machinery (a copy of the
 * value, then evaluation in its sandbox: 1-2 ms per expression per item in a real n8n,
 * docs/benchmarks.md). A parameter whose stored value holds no expression (no string in
 * it starts with "=") is the same for every item: it is read once per run. One with an
 * expression is read once per item, however often the operation asks. Every caller gets
 * its own copy of an object, as from n8n.
 */
export function readingOncePerRun(context: IExecuteFunctions): IExecuteFunctions {
	const stored = context.getNode().parameters;
	const answers = new Map<string, unknown>();
	const read = context.getNodeParameter.bind(context) as (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	) => unknown;
	const run = Object.create(context) as IExecuteFunctions;
	const getNodeParameter = (name: string, itemIndex: number, fallback?: unknown, options?: IGetNodeParameterOptions) => {
		const value = valueAt(stored, name);
		// Not stored (n8n fills in the default itself): left to n8n.
		if (value === undefined) return read(name, itemIndex, fallback, options);
		const key = `${name}\n${options ? JSON.stringify(options) : ''}\n${hasExpression(value) ? itemIndex : ''}`;
		if (!answers.has(key)) answers.set(key, read(name, itemIndex, fallback, options));
		const answer = answers.get(key);
		return typeof answer === 'object' && answer !== null ? deepCopy(answer) : answer;
	};
	run.getNodeParameter = getNodeParameter as IExecuteFunctions['getNodeParameter'];
	return run;
}

/** The stored value at a dotted path (`options.uploadMethod`). */
function valueAt(parameters: INodeParameters, path: string): NodeParameterValueType | undefined {
	let value: unknown = parameters;
	for (const part of path.split('.')) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value as NodeParameterValueType | undefined;
}

function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (typeof value === 'object' && value !== null) return Object.values(value).some(hasExpression);
	return false;
}
