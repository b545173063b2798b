/**
 * Helpers of the variant suite: the action node against the sandbox in its variant mode
 * (docs/sandbox.md, "The variant mode"), where every choice the specification leaves open
 * differs from the nodes' guesses.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Harness } from '../harness';
import { errorText, type OpRun } from '../envelope/helpers';

export {
	errorText,
	estampParams,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	SIGNER,
	APPROVER,
	seedEnvelope,
	waitFor,
	type OpRun,
} from '../envelope/helpers';
export { byId, runTemplateOp, seedTemplate, keyWith } from '../template/helpers';
export { runWorkflowOp, seedWorkflow, runParams, configFor } from '../workflow/helpers';

/** The credential fields a user sets for the variant service (the credential's path fields). */
export const VARIANT_PATHS = {
	creditBalancePath: '/credits/wallet',
	workflowListPath: '/workflow-definitions',
	workflowGetPath: '/workflow-definitions/{workflowId}',
};

/** The run succeeded: no workflow error, one output item without an error. */
export function expectWorks(run: OpRun): IDataObject {
	expect(errorText(run)).toBe('');
	expect(run.items).toHaveLength(1);
	expect(run.items[0].json.error).toBeUndefined();
	return run.items[0].json;
}

/** The run failed with a message holding every text of `parts` (the assumption and the setting). */
export function expectFails(run: OpRun, parts: string[]): string {
	const text = errorText(run);
	expect(text).not.toBe('');
	for (const part of parts) expect(text).toContain(part);
	return text;
}

/** Query parameters of the logged list requests of `path`, in order. */
export function listQueries(
	run: OpRun,
	path: string,
): Array<{ status: number; limit: string | undefined; page: string | undefined }> {
	return run.requests
		.filter((r) => r.method === 'GET' && r.path === `/api/v1${path}`)
		.map((r) => {
			const query = (r.query ?? {}) as IDataObject;
			return {
				status: r.status,
				limit: query.limit as string | undefined,
				page: query.page as string | undefined,
			};
		});
}

export async function setStatus(h: Harness, envelopeId: string, status: string): Promise<void> {
	const response = await fetch(`${h.sandbox.origin}/__sandbox/envelopes/${envelopeId}/status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ status }),
	});
	if (!response.ok) throw new Error(`set status: ${response.status} ${await response.text()}`);
}
