/** Helpers of the signing workflow tests: runs of the node's workflow resource and API seeding. */
import type { IDataObject, INode, NodeParameterValueType } from 'n8n-workflow';

import { actionNode, chain, type Harness, type SeedItem, seedNode } from '../harness';
import { NODE, type OpRun, type Params } from '../envelope/helpers';
import { seedTemplate } from '../template/helpers';

export { errorText, type OpRun, type Params } from '../envelope/helpers';
export { byId, keyWith, seedTemplate } from '../template/helpers';

/** Runs Seed -> Document Signing (resource `workflow` unless given); `node` adds node settings such as Retry On Fail. */
export async function runWorkflowOp(
	h: Harness,
	parameters: Params,
	input: SeedItem[] = [{ json: {} }],
	options: { continueOnFail?: boolean; credentials?: IDataObject; node?: Partial<INode> } = {},
): Promise<OpRun> {
	const before = (await h.requests()).length;
	const node = {
		...actionNode(
			{ resource: 'workflow', ...parameters } as Record<string, NodeParameterValueType>,
			{
				continueOnFail: options.continueOnFail,
			},
		),
		...options.node,
	};
	const result = await h.run({
		nodes: [seedNode(), node],
		connections: chain('Seed', NODE),
		input,
		credentials: options.credentials as never,
	});
	const requests = (await h.requests()).slice(before);
	return { result, items: result.items(NODE), requests };
}

/** Participants matching the seeded template's roles (client signs, legal approves). */
export const PARTICIPANTS = [
	{ key: 'client', label: 'Client', order: 1, role: 'signer' },
	{ key: 'legal', label: 'Legal', order: 2, role: 'approver' },
];

/** A config in the API's shape for one template. */
export function configFor(templateId: string, over: IDataObject = {}): IDataObject {
	return {
		documents: [{ templateId, label: 'Agreement', required: true }],
		participants: PARTICIPANTS,
		execution: { mode: 'sequential', expiresInDays: 14 },
		approvalStages: [],
		allowedOverrides: [],
		...over,
	};
}

/** Creates (and by default publishes) a signing workflow through the API directly, with a new template. */
export async function seedWorkflow(
	h: Harness,
	opts: { publish?: boolean; apiKey?: string; config?: IDataObject; name?: string } = {},
): Promise<{ id: string; templateId: string }> {
	const template = await seedTemplate(h, {}, { apiKey: opts.apiKey });
	const templateId = template.id as string;
	const created = await h.api<{ definition: { id: string } }>(
		'POST',
		'/workflows',
		{ name: opts.name ?? 'Property sale', config: opts.config ?? configFor(templateId) },
		opts.apiKey,
	);
	const id = created.definition.id;
	if (opts.publish !== false)
		await h.api('POST', `/workflows/${id}/publish`, undefined, opts.apiKey);
	return { id, templateId };
}

/** Run recipients in the node's "Fields" form. */
export function runRecipients(rows: IDataObject[]): IDataObject {
	return { recipient: rows };
}

export const CLIENT_ROW = { participantKey: 'client', name: 'Asha Rao', email: 'asha@example.com' };
export const LEGAL_ROW = {
	participantKey: 'legal',
	name: 'Vikram Shah',
	email: 'vikram@example.com',
};

/** Parameters of a Run with both participants from the fields. */
export function runParams(workflowId: string, over: Params = {}): Params {
	return {
		operation: 'run',
		workflowId: { __rl: true, mode: 'id', value: workflowId },
		title: 'Sale of 12 MG Road',
		recipientsInput: 'fields',
		runRecipients: runRecipients([CLIENT_ROW, LEGAL_ROW]),
		...over,
	};
}

/** Envelopes in the sandbox (all, through the API). */
export async function envelopeCount(h: Harness): Promise<number> {
	const list = await h.api<{ pageInfo: { total: number } }>('GET', '/envelopes?limit=1');
	return list.pageInfo.total;
}
