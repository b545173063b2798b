/** Helpers of the template operation tests: runs of the node's template resource and API seeding. */
import type { IDataObject } from 'n8n-workflow';

import type { Harness, SeedItem } from '../harness';
import { makePdf, type OpRun, type Params, runOp } from '../envelope/helpers';
import { adminPost } from '../sandbox-admin';

export { errorText, makePdf, pdfItem, type OpRun, type Params } from '../envelope/helpers';

export const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

/** Runs Seed -> Document Signing with the template resource. */
export async function runTemplateOp(
	h: Harness,
	parameters: Params,
	input: SeedItem[] = [{ json: {} }],
	options: { continueOnFail?: boolean; credentials?: IDataObject } = {},
): Promise<OpRun> {
	return await runOp(h, { resource: 'template', ...parameters }, input, options);
}

/** Template roles in the node's "Fields" form. */
export const CLIENT = { id: 'client', name: 'Client', role: 'signer' };
export const LEGAL = { id: 'legal', name: 'Legal', role: 'approver' };

/** A template body in the API's shape (for seeding through the API). */
export function templateBody(over: IDataObject = {}): IDataObject {
	return {
		name: 'Service Agreement',
		fileName: 'service-agreement.pdf',
		recipients: [CLIENT, LEGAL],
		formFields: [
			{
				id: 'f-company',
				fieldKey: 'company',
				type: 'text',
				pageNumber: 1,
				x: 100,
				y: 700,
				width: 200,
				height: 20,
				required: true,
				assignee: { type: 'sender_prefill' },
			},
			{
				id: 'f-sign',
				fieldKey: 'client_signature',
				type: 'signature',
				pageNumber: 1,
				x: 100,
				y: 100,
				width: 200,
				height: 50,
				assignee: { type: 'recipient', templateRecipientId: 'client' },
			},
		],
		workflow: { mode: 'sequential', reminderEveryHours: 12 },
		...over,
	};
}

/** Creates a template through the API directly (setup, not the code under test), with its PDF. */
export async function seedTemplate(
	h: Harness,
	over: IDataObject = {},
	opts: { apiKey?: string; upload?: boolean } = {},
): Promise<IDataObject> {
	const created = await h.api<IDataObject>('POST', '/templates', templateBody(over), opts.apiKey);
	if (!created.id) throw new Error(`seed template failed: ${JSON.stringify(created)}`);
	if (opts.upload !== false) {
		const upload = created.upload as { url: string };
		const response = await fetch(upload.url, {
			method: 'PUT',
			headers: { 'content-type': 'application/pdf' },
			body: await makePdf(1, 'Template'),
		});
		if (!response.ok) throw new Error(`seed upload failed: ${response.status}`);
	}
	return created;
}

/** A new API key of the personal (or organization) workspace with only `scopes`. */
export async function keyWith(
	h: Harness,
	scopes: string[],
	workspace: 'personal' | 'organization' = 'personal',
): Promise<string> {
	const key = await adminPost<{ apiKey: string }>(h.sandbox, 'keys', { workspace, scopes });
	return key.apiKey;
}
