import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { guessedRequest, pathSetting } from '../../../shared/http/paths';
import type { WorkflowParticipant } from '../../../shared/api/schemas';

export interface PublishedWorkflow {
	name: string;
	version: number;
	participants: WorkflowParticipant[];
}

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The published version in a workflow read. Its shape is not in the specification: the
 * guess (`definition`, `version`, `publishedVersion`) and a definition record of 2.11
 * (`latestPublishedVersion` with its `versions[]`) are both read. `null` when none is
 * published; undefined when the answer has neither shape.
 */
export function publishedIn(
	response: IDataObject,
	workflowId: string,
): PublishedWorkflow | null | undefined {
	const definition = isObject(response.definition) ? response.definition : response;
	const name = String(definition.name ?? workflowId);
	let published: unknown;
	if ('publishedVersion' in response) published = response.publishedVersion;
	else if ('latestPublishedVersion' in definition) {
		const number = definition.latestPublishedVersion;
		if (number === null || number === undefined) return null;
		const versions = Array.isArray(response.versions) ? (response.versions as unknown[]) : [];
		published = versions.find((v) => isObject(v) && Number(v.version) === Number(number));
		if (!published) return undefined;
	} else return undefined;
	if (!published) return null;
	if (!isObject(published)) return undefined;
	const config = isObject(published.config) ? published.config : {};
	return {
		name,
		version: Number(published.version),
		participants: Array.isArray(config.participants)
			? (config.participants as WorkflowParticipant[])
			: [],
	};
}

/**
 * The latest published version of a signing workflow, for the participant list of Run
 * (a run itself never reads the workflow: it needs only `workflows:write`).
 */
export async function fetchPublished(
	this: ILoadOptionsFunctions,
	workflowId: string,
): Promise<PublishedWorkflow | null> {
	const response = (await guessedRequest.call(this, 'workflow', { id: workflowId })) as IDataObject;
	const published = publishedIn(response, workflowId);
	if (published === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			'The signing workflow was read, but its answer shows no published version in a shape this node knows',
			{
				description: `Expected "publishedVersion", or "latestPublishedVersion" with "versions[]" (assumption "Reusable workflow list and get"). Check ${pathSetting('workflow')}, or type the participant keys (Expression) or give the recipients as JSON.`,
			},
		);
	}
	return published;
}
