import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiErrorFields } from '../../shared/errors';
import { configureRate, rateStatsOf } from '../../shared/rate';
import type { OperationModule } from './node.type';
import { resourceModules as resources } from './resources';

export const DEFAULT_PARALLEL_REQUESTS = 10;
const MAX_PARALLEL_REQUESTS = 50;
/** Items between two progress lines in n8n's log. */
const PROGRESS_EVERY = 100;

/** Node-level settings shown under every operation (the router applies them). */
export const runSettingsDescription: INodeProperties[] = [
	{
		displayName: 'Batching',
		name: 'batching',
		type: 'collection',
		placeholder: 'Add Batching Option',
		default: {},
		description:
			'How many items run at once and how fast requests are sent. Output order is kept.',
		options: [
			{
				displayName: 'Batch Size / Parallel Requests',
				name: 'parallelRequests',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
				default: DEFAULT_PARALLEL_REQUESTS,
				description:
					'How many items are processed at the same time. Use 1 to run items one after another.',
			},
			{
				displayName: 'Max Requests per Second',
				name: 'maxRequestsPerSecond',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 1 },
				default: 0,
				description:
					"Spaces requests evenly from the start, e.g. just below your plan's limit. 0 means no limit: the node slows down by itself when the service answers 429 Too Many Requests.",
			},
		],
	},
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
		);
	}
	return candidate as OperationModule;
}

type ItemResult =
	| { output: INodeExecutionData[]; failed?: true }
	| { error: NodeApiError | NodeOperationError };

/**
 * Runs the operation for one item: its output items are paired with item `itemIndex`;
 * under "Continue On Fail" a failure becomes one error item paired the same way.
 */
async function runItem(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Promise<ItemResult> {
	try {
		const output = await operation.execute.call(this, itemIndex);
		return {
			output: this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }),
		};
	} catch (error) {
		if (this.continueOnFail()) {
			const message = error instanceof Error ? error.message : String(error);
			const json = { error: message, ...apiErrorFields(error) };
			return { output: [{ json, pairedItem: { item: itemIndex } }], failed: true };
		}
		const failure =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		failure.context.itemIndex ??= itemIndex;
		return { error: failure };
	}
}

function readSettings(this: IExecuteFunctions) {
	const settings = this.getNodeParameter('batching', 0, {}) as {
		parallelRequests?: number;
		maxRequestsPerSecond?: number;
	};
	const parallel = Math.floor(Number(settings.parallelRequests ?? DEFAULT_PARALLEL_REQUESTS));
	return {
		parallel: Math.min(Math.max(Number.isFinite(parallel) ? parallel : 1, 1), MAX_PARALLEL_REQUESTS),
		maxPerSecond: Math.max(Number(settings.maxRequestsPerSecond) || 0, 0),
	};
}

/** A summary under the node's output when the run had to retry or wait, or was long. */
function reportProgress(this: IExecuteFunctions, items: number, failed: number, ms: number): void {
	const stats = rateStatsOf(this);
	if (items < 50 && !stats.retried && !stats.rateLimited) return;
	const parts = [`${items - failed} of ${items} items done in ${(ms / 1000).toFixed(1)} s`];
	if (failed) parts.push(`${failed} failed`);
	if (stats.retried) parts.push(`${stats.retried} requests sent again after a failure`);
	if (stats.rateLimited) {
		parts.push(
			`${stats.rateLimited} rate-limit answers (429), waited ${(stats.pausedMs / 1000).toFixed(1)} s in ${stats.pauses} pause(s) and slowed down`,
		);
	}
	const hint: NodeExecutionHint = {
		message: `${parts.join('; ')}.`,
		type: stats.rateLimited ? 'warning' : 'info',
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
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if (!items.length) return [[]];
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation.call(this, resource, operationName);
	const { parallel, maxPerSecond } = readSettings.call(this);
	configureRate(this, { maxPerSecond, parallel });

	const started = Date.now();
	const results: ItemResult[] = new Array(items.length);
	let next = 0;
	let done = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < items.length) {
			const itemIndex = next++;
			results[itemIndex] = await runItem.call(this, operation, itemIndex);
			if ('error' in results[itemIndex]) stopped = true;
			if (++done % PROGRESS_EVERY === 0) {
				this.logger?.debug(`Document Signing: ${done} of ${items.length} items done`);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));

	const returnData: INodeExecutionData[] = [];
	let failed = 0;
	for (const result of results) {
		if (!result) continue; // not started after a failure
		if ('error' in result) throw result.error;
		if (result.failed) failed++;
		returnData.push(...result.output);
	}
	reportProgress.call(this, items.length, failed, Date.now() - started);
	return [returnData];
}
