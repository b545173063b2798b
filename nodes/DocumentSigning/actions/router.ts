import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cancelSignalOf, ExecutionStopped, isStopped } from '../../shared/run/cancel';
import { apiErrorFields } from '../../shared/http/errors';
import {
	FixedLimit,
	openPacing,
	type RateSettings,
	type RateStats,
} from '../../shared/pacing/pacing';
import { readingOncePerRun } from '../../shared/api/runParameters';
import type { OperationModule } from './node.type';
import { resourceModules as resources } from './resources';
import { FROM_1_2, UP_TO_1_1 } from './shared/versions';
import { numberOr } from '../../shared/api/parameters';

/** The value the option takes when added; without it the number adapts (limiter.ts, which also starts at 10). */
export const DEFAULT_PARALLEL_REQUESTS = 10;
const MAX_PARALLEL_REQUESTS = 50;
/** Items between two progress lines in n8n's log. */
const PROGRESS_EVERY = 100;

const batching: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	type: 'collection',
	placeholder: 'Add Batching Option',
	default: {},
	description:
		'How many items run at once and how fast requests are sent, when the node receives many items (each item is one request or more); without options the node adapts to the service by itself. Output order is kept.',
	options: [
		{
			displayName: 'Batch Size / Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			default: DEFAULT_PARALLEL_REQUESTS,
			description:
				'How many items are processed at the same time, fixed. Without this option the node finds the number itself: it starts with 10 and runs more at once while the service answers as fast as before, fewer when it slows down or refuses. Use 1 to run items one after another.',
		},
		{
			displayName: 'Max Requests per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 1 },
			default: 0,
			description:
				"Spaces requests evenly from the start, e.g. just below your plan's limit. 0 means no limit: after a 429 Too Many Requests the node sends as many per window as the service accepted.",
		},
	],
};

/**
 * Node-level settings shown under every operation (the router applies them). Every operation
 * runs once per input item, so Batching matters wherever many items arrive; a model's tool
 * call is one item, so from 1.2 the tool variant does not show it (1 and 1.1 keep it as saved).
 */
export const runSettingsDescription: INodeProperties[] = [
	{ ...batching, displayOptions: { show: { '@version': [UP_TO_1_1] } } },
	{ ...batching, displayOptions: { show: { '@version': [FROM_1_2], '@tool': [false] } } },
];

function findOperation(
	this: IExecuteFunctions,
	resource: string,
	operation: string,
): OperationModule {
	const candidate = resources[resource]?.[operation] as Partial<OperationModule> | undefined;
	if (typeof candidate?.execute !== 'function') {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
			{
				description:
					'Choose the Resource and Operation again in the node: this version of the node has no such pair.',
			},
		);
	}
	return candidate as OperationModule;
}

type ItemResult =
	| { output: INodeExecutionData[]; failed?: true }
	| { error: NodeApiError | NodeOperationError }
	| { stopped: true };

/**
 * Runs the operation for one item: its output items are paired with item `itemIndex`;
 * under "Continue On Fail" a failure becomes one error item paired the same way. An item
 * cut short by n8n's Stop is neither done nor failed: the router reports it as stopped.
 */
async function runItem(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
	signal: AbortSignal | undefined,
): Promise<ItemResult> {
	try {
		const output = await operation.execute.call(this, itemIndex);
		return {
			output: this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }),
		};
	} catch (error) {
		if (error instanceof ExecutionStopped || isStopped(signal)) return { stopped: true };
		const failure =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		failure.context.itemIndex ??= itemIndex;
		if (this.continueOnFail()) {
			const fields = apiErrorFields(failure);
			// n8n (1.x and 2.x) moves an item to the error output when its json holds nothing
			// but `error` (and `message`); an `item.error` would work too, but 2.x then cuts the
			// json down to the message. So the error's facts go inside `error`, as n8n's HTTP
			// Request shows a failed call. "Continue (using regular output)" keeps the flat item.
			const json: IDataObject =
				this.getNode().onError === 'continueErrorOutput'
					? { error: { message: failure.message, ...descriptionOf(failure), ...fields } }
					: { error: failure.message, ...fields };
			return { output: [{ json, pairedItem: { item: itemIndex } }], failed: true };
		}
		return { error: failure };
	}
}

function descriptionOf(error: NodeApiError | NodeOperationError): IDataObject {
	return typeof error.description === 'string' && error.description
		? { description: error.description }
		: {};
}

/**
 * After Stop: one error saying which items were done, which were cut short while their
 * requests were under way (a create among them may have reached the service) and which
 * never started. Nothing that did not finish is reported as done.
 */
function stoppedError(
	this: IExecuteFunctions,
	results: ItemResult[],
	total: number,
): NodeOperationError {
	const underWay: number[] = [];
	let done = 0;
	let failed = 0;
	for (let i = 0; i < total; i++) {
		const result = results[i];
		if (!result) continue;
		if ('stopped' in result) underWay.push(i);
		else if ('error' in result || result.failed) failed++;
		else done++;
	}
	const notStarted = total - done - failed - underWay.length;
	const listed = underWay.slice(0, 50).join(', ') + (underWay.length > 50 ? ', ...' : '');
	const error = new NodeOperationError(
		this.getNode(),
		`The execution was stopped: ${done} of ${total} items done, ${failed} failed, ${underWay.length} cut short, ${notStarted} not started`,
		{
			description: underWay.length
				? `Items cut short (index ${listed}) were stopped while a request was under way: a create among them may have reached the service. Check the service before running them again.`
				: 'No request was under way when the execution was stopped.',
		},
	);
	Object.assign(error.context, { done, failed, cutShort: underWay, notStarted });
	return error;
}

/**
 * The user's Batching options. An option not added is not set (n8n stores a collection's
 * options only when added): items at once then adapt (limiter.ts).
 */
function readSettings(this: IExecuteFunctions): RateSettings {
	// Read typed (numbers or their text, within the panel's bounds): a refused value fails
	// the run, naming the field.
	const settings = (this.getNodeParameter('batching', 0, {}) ?? {}) as IDataObject;
	const maxPerSecond = Math.max(numberOr(settings.maxRequestsPerSecond, 0), 0);
	if (settings.parallelRequests === undefined) return { maxPerSecond };
	const parallel = Math.floor(numberOr(settings.parallelRequests, 1));
	return { parallel: Math.min(Math.max(parallel, 1), MAX_PARALLEL_REQUESTS), maxPerSecond };
}

/** A summary under the node's output when the run had to retry or wait, or was long. */
function reportProgress(
	this: IExecuteFunctions,
	stats: RateStats | undefined,
	items: number,
	failed: number,
	ms: number,
): void {
	if (items < 50 && !stats?.retried && !stats?.rateLimited) return;
	const parts = [`${items - failed} of ${items} items done in ${(ms / 1000).toFixed(1)} s`];
	if (failed) parts.push(`${failed} failed`);
	if (!stats) parts.push('the credential could not be used');
	else if (stats.retried) parts.push(`${stats.retried} requests sent again after a failure`);
	if (stats?.rateLimited) {
		parts.push(
			`${stats.rateLimited} rate-limit answers (429), waited ${(stats.pausedMs / 1000).toFixed(1)} s in ${stats.pauses} pause(s) and slowed down`,
		);
	}
	const hint: NodeExecutionHint = {
		message: `${parts.join('; ')}.`,
		type: stats?.rateLimited ? 'warning' : 'info',
		location: 'outputPane',
	};
	this.addExecutionHints?.(hint);
	this.logger?.info(`Document Signing: ${hint.message}`);
}

/**
 * Runs the items with bounded concurrency and returns the node's single output in item
 * order. Each operation's execute(i) depends on item i alone. Without "Continue On Fail"
 * no new item starts after a failure; the first failing item's error (by index) is thrown.
 */
export async function router(
	this: IExecuteFunctions,
	properties: ReadonlyArray<INodeProperties>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if (!items.length) return [[]];
	// Every item and operation reads its parameters through this run's context, typed by
	// the node's description.
	const run = readingOncePerRun(this, properties);
	const resource = run.getNodeParameter('resource', 0) as string;
	const operationName = run.getNodeParameter('operation', 0) as string;
	const operation = findOperation.call(run, resource, operationName);
	const settings = readSettings.call(run);
	// The credential, its Base URL, the limit and the pace, resolved once for every item.
	const opened = await openPacing(run, settings).catch(() => undefined);
	// Unreadable credential or refused Base URL: each item fails with the reason before any
	// request (its operation asks for the credential again), one at a time.
	const pacing = opened && 'rate' in opened ? opened : undefined;
	const limit = pacing?.limit ?? new FixedLimit(1);

	const started = Date.now();
	const results: ItemResult[] = new Array(items.length);
	// n8n's Stop (absent where n8n gives no signal): no item starts after it.
	const signal = cancelSignalOf(this);
	let done = 0;
	let stopped = isStopped(signal);
	const onStop = () => (stopped = true);
	signal?.addEventListener('abort', onStop, { once: true });
	const runOne = async (itemIndex: number) => {
		try {
			results[itemIndex] = await runItem.call(run, operation, itemIndex, signal);
		} finally {
			limit.release();
		}
		if (!('output' in results[itemIndex])) stopped = true;
		if (++done % PROGRESS_EVERY === 0) {
			this.logger?.debug(`Document Signing: ${done} of ${items.length} items done`);
		}
	};
	// One loop for a fixed and an adaptive limit: an item starts when it gets a place.
	const running = new Set<Promise<void>>();
	try {
		for (let itemIndex = 0; itemIndex < items.length && !stopped; itemIndex++) {
			try {
				await limit.acquire(signal); // stopped while waiting: no place was taken
			} catch {
				break;
			}
			if (stopped) {
				limit.release();
				break;
			}
			const item = runOne(itemIndex).finally(() => running.delete(item));
			running.add(item);
		}
		await Promise.all(running);
	} finally {
		pacing?.close();
	}
	signal?.removeEventListener('abort', onStop);
	if (isStopped(signal)) throw stoppedError.call(run, results, items.length);

	const returnData: INodeExecutionData[] = [];
	let failed = 0;
	for (const result of results) {
		if (!result) continue; // not started after a failure
		if ('error' in result) throw result.error;
		if ('stopped' in result) continue; // only without a signal, which cannot happen
		if (result.failed) failed++;
		returnData.push(...result.output);
	}
	reportProgress.call(run, pacing?.rate.stats, items.length, failed, Date.now() - started);
	return [returnData];
}
