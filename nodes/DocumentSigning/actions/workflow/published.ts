import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import type { WorkflowParticipant } from '../../../shared/schemas';
import { apiRequest } from '../../../shared/transport';

export interface PublishedWorkflow {
	name: string;
	version: number;
	participants: WorkflowParticipant[];
}

/**
 * The latest published version of a signing workflow (GET /workflows/{id} answers the
 * definition, the latest version and `publishedVersion`), or undefined when none is published.
 */
export async function fetchPublished(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	workflowId: string,
	itemIndex?: number,
): Promise<PublishedWorkflow | undefined> {
	const response = (await apiRequest.call(this, 'GET', apiPath('workflow', workflowId), { itemIndex })) as IDataObject;
	const definition = (response.definition ?? {}) as IDataObject;
	const published = response.publishedVersion as IDataObject | null | undefined;
	if (!published || typeof published !== 'object') return undefined;
	const config = (published.config ?? {}) as IDataObject;
	return {
		name: String(definition.name ?? workflowId),
		version: Number(published.version),
		participants: Array.isArray(config.participants) ? (config.participants as WorkflowParticipant[]) : [],
	};
}

/** One read per workflow and node run: items running the same workflow share it. */
const byRun = new WeakMap<object, Map<string, Promise<PublishedWorkflow | undefined>>>();

/** The published version a run of item `i` uses; refused with what to do when there is none. */
export async function publishedForRun(
	this: IExecuteFunctions,
	workflowId: string,
	i: number,
): Promise<PublishedWorkflow> {
	let cache = byRun.get(this);
	if (!cache) byRun.set(this, (cache = new Map()));
	let pending = cache.get(workflowId);
	if (!pending) {
		pending = fetchPublished.call(this, workflowId, i);
		cache.set(workflowId, pending);
		pending.catch(() => cache.delete(workflowId));
	}
	const published = await pending;
	if (!published) {
		throw new NodeOperationError(
			this.getNode(),
			`Signing Workflow ${workflowId} has no published version, so it cannot run`,
			{
				itemIndex: i,
				description:
					'Publish it first (this node: Signing Workflow > Publish, or in the service), then run it again. A run always uses the latest published version.',
			},
		);
	}
	return published;
}
