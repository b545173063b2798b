import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { articleOptions } from '../actions/shared/estamp';
import { fetchPublished } from '../actions/workflow/published';
import { resourceId } from '../../shared/api/validation';

/** Article choices for the selected e-stamp state (no request: the catalog is bundled). */
export async function getEstampArticles(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const state = (this.getCurrentNodeParameter('estampState') as string | undefined) ?? '';
	return articleOptions(state);
}

/** Participant keys of the picked signing workflow's latest published version (a run names one recipient per key). */
export async function getWorkflowParticipants(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const picked = this.getCurrentNodeParameter('workflowId', { extractValue: true }) as
		| string
		| undefined;
	if (!picked) return [];
	const workflowId = resourceId(this, 'Signing Workflow', picked, 0);
	const published = await fetchPublished.call(this, workflowId);
	if (!published) {
		throw new NodeOperationError(
			this.getNode(),
			'This signing workflow has no published version yet: publish it to list its participants',
		);
	}
	// A workflow read that fails (a key with only workflows:write, another path) leaves the
	// keys to be typed: the field takes an expression, and Run does not need the read.
	return [...published.participants]
		.sort((a, b) => a.order - b.order)
		.map((p) => ({
			name: `${p.label} (${p.key})`,
			value: p.key,
			description: `${p.role ?? 'signer'}, order ${p.order}${p.required === false ? ', optional' : ''}`,
		}));
}
