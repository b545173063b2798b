/** Envelopes brought to a status through the sandbox API, as a user's signers would. */
import type { IDataObject } from 'n8n-workflow';

import type { Harness } from '../harness';
import { makePdf } from '../envelope/helpers';

export const SIGNERS = [
	{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' },
	{ name: 'Vikram Shah', email: 'vikram@example.com', role: 'signer' },
];

export interface SentEnvelope {
	id: string;
	actionUrls: string[];
}

/** A draft with its PDF uploaded (by default one that carries its title). */
export async function draft(
	h: Harness,
	title: string,
	recipients = SIGNERS,
	pdf?: Uint8Array,
): Promise<string> {
	const created = await h.api<IDataObject>('POST', '/envelopes', {
		fileName: 'contract.pdf',
		title,
		recipients,
	});
	const upload = created.upload as { url: string };
	const put = await fetch(upload.url, {
		method: 'PUT',
		body: pdf ?? (await makePdf(1, title)),
		headers: { 'Content-Type': 'application/pdf' },
	});
	if (!put.ok) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
	return created.id as string;
}

/** A sent envelope (status pending) and its recipients' action links in signing order. */
export async function sent(h: Harness, title: string, recipients = SIGNERS): Promise<SentEnvelope> {
	const id = await draft(h, title, recipients);
	const response = await h.api<IDataObject>('POST', `/envelopes/${id}/send`, {});
	const links = (response.recipients as IDataObject[])
		.sort((a, b) => Number(a.order) - Number(b.order))
		.map((r) => r.actionUrl as string);
	return { id, actionUrls: links };
}

/** One recipient acts through their link. */
export async function act(url: string): Promise<void> {
	const response = await fetch(url, { method: 'POST' });
	if (!response.ok) throw new Error(`signing failed: ${response.status} ${await response.text()}`);
}

/** Every recipient of a sent envelope acts: the envelope is completed. */
export async function complete(envelope: SentEnvelope): Promise<string> {
	for (const url of envelope.actionUrls) await act(url);
	return envelope.id;
}

/** `count` envelopes created, sent and completed. */
export async function completedEnvelopes(
	h: Harness,
	count: number,
	prefix = 'Contract',
): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) ids.push(await complete(await sent(h, `${prefix} ${i + 1}`)));
	return ids;
}

/** The envelope list requests the sandbox saw since `from` (an index into its request log). */
export async function listRequests(h: Harness, from = 0): Promise<IDataObject[]> {
	const requests = await h.requests();
	return requests
		.slice(from)
		.filter((r) => r.method === 'GET' && r.path.endsWith('/envelopes'))
		.map((r) => r.query);
}
