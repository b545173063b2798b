import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiErrorFields } from '../../shared/errors';
import * as envelope from './envelope/Envelope.resource';
import type { OperationModule } from './node.type';

/** Resource modules by resource value; each exports its operation modules by operation value. */
const resources: Record<string, Record<string, unknown>> = { envelope };

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

/**
 * Runs the operation for one item: its output items are paired with item `itemIndex`;
 * under "Continue On Fail" a failure becomes one error item paired the same way.
 * Each item is independent, so items could later run with bounded concurrency.
 */
async function runItem(
	this: IExecuteFunctions,
	operation: OperationModule,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	try {
		const output = await operation.execute.call(this, itemIndex);
		return this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } });
	} catch (error) {
		if (this.continueOnFail()) {
			const message = error instanceof Error ? error.message : String(error);
			return [
				{ json: { error: message, ...apiErrorFields(error) }, pairedItem: { item: itemIndex } },
			];
		}
		const failure =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		failure.context.itemIndex ??= itemIndex;
		throw failure;
	}
}

/** Loops the input items once and returns the node's single output. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation.call(this, resource, operationName);

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		returnData.push(...(await runItem.call(this, operation, itemIndex)));
	}
	return [returnData];
}
