import type { IDataObject, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';

import {
	actionNode,
	chain,
	type Harness,
	type RunResult,
	type SeedItem,
	seedNode,
} from '../harness';

export const NODE = 'Document Signing';

/** Node parameters as a test writes them (checked by n8n when the workflow runs). */
export type Params = Record<string, unknown>;

export { makePdf, waitFor } from '../fixtures';

export function pdfItem(pdf: Buffer, json: IDataObject = {}, fileName = 'agreement.pdf'): SeedItem {
	return { json, binary: { data: { data: pdf, fileName, mimeType: 'application/pdf' } } };
}

/** Recipients in the node's "Fields" form. */
export function recipientFields(recipients: IDataObject[]): IDataObject {
	return { recipient: recipients };
}

export const SIGNER = { name: 'Asha Rao', email: 'asha@example.com', role: 'signer' };
export const APPROVER = { name: 'Vikram Shah', email: 'vikram@example.com', role: 'approver' };

/** Parameters of a valid e-stamp (KA, a catalog article). */
export function estampParams(overrides: Params = {}) {
	return {
		estampEnabled: true,
		estampState: 'KA',
		estampArticle: 'Affidavit',
		estampAmount: 100,
		estampConsiderationAmount: 0,
		estampFirstPartyName: 'Asha Rao',
		estampFirstPartyEmail: 'asha@example.com',
		estampFirstPartyMobile: '9876543210',
		estampFirstPartyAddress: '12 MG Road, Bengaluru',
		estampSecondPartyName: 'Vikram Shah',
		estampSecondPartyEmail: 'vikram@example.com',
		estampSecondPartyAddress: '4 Park Street, Bengaluru',
		...overrides,
	};
}

export interface OpRun {
	result: RunResult;
	items: INodeExecutionData[];
	/** API and storage requests made by this run (the admin routes are not logged). */
	requests: Awaited<ReturnType<Harness['requests']>>;
}

/** Runs Seed -> Document Signing with the given envelope parameters. */
export async function runOp(
	h: Harness,
	parameters: Params,
	input: SeedItem[] = [{ json: {} }],
	options: { continueOnFail?: boolean; credentials?: IDataObject; typeVersion?: number } = {},
): Promise<OpRun> {
	const before = (await h.requests()).length;
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode(
				{ resource: 'envelope', ...parameters } as Record<string, NodeParameterValueType>,
				{
					continueOnFail: options.continueOnFail,
					typeVersion: options.typeVersion,
				},
			),
		],
		connections: chain('Seed', NODE),
		input,
		credentials: options.credentials as never,
	});
	const requests = (await h.requests()).slice(before);
	return { result, items: result.items(NODE), requests };
}

/** The workflow error's message and description, one text. */
export function errorText(run: OpRun): string {
	const error = run.result.error as (Error & { description?: string }) | undefined;
	if (!error) return '';
	return `${error.message}\n${error.description ?? ''}`;
}

/** Creates a draft through the API directly (setup, not the code under test). */
export async function seedEnvelope(
	h: Harness,
	body: IDataObject = {},
	opts: { upload?: Buffer; apiKey?: string } = {},
): Promise<IDataObject> {
	const created = await h.api<IDataObject>(
		'POST',
		'/envelopes',
		{ fileName: 'contract.pdf', title: 'Seeded', recipients: [SIGNER], ...body },
		opts.apiKey,
	);
	if (opts.upload) {
		const upload = created.upload as { url: string };
		const response = await fetch(upload.url, {
			method: 'PUT',
			headers: { 'content-type': 'application/pdf' },
			body: opts.upload,
		});
		if (!response.ok) throw new Error(`seed upload failed: ${response.status}`);
	}
	return created;
}
