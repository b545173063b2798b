import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULTS } from '../shared/assumptions';
import { apiPath } from '../shared/endpoints';
import { statusName } from '../shared/envelopeStatus';
import type { Page, PageSize } from '../shared/pagination';
import { followShortPage, readPage } from '../shared/pagination';
import { apiRequest } from '../shared/transport';
import { FINAL_STATUSES } from './poller';

/**
 * The "Recipient Acted" mode. The service sends no event for a recipient's action, so each
 * poll reads the envelope list (every page) and compares each envelope's `status`,
 * `completedActions` and `updatedAt` with the last poll; only an envelope that changed is
 * read in detail (`GET /envelopes/{id}/status`), and its recipients' statuses are compared
 * with those seen last. A poll costs ceil(N / page size) list requests plus one per changed
 * envelope.
 */

/** Tunables; a test may lower them. */
export const RECIPIENT_POLL = {
	/** Most open envelopes remembered (the most recently changed are kept). */
	envelopeLimit: 20_000,
};

/** One envelope as remembered: status, completedActions, updatedAt, recipient statuses. */
export interface EnvelopeMemory {
	s: string;
	c: number;
	u: string;
	/** Recipient key → status; absent while every recipient is taken as not having acted. */
	r?: Record<string, string>;
}

export interface RecipientMemory {
	/** Open envelopes by id. Envelopes in a final status are dropped once handled. */
	envelopes: Record<string, EnvelopeMemory>;
	/** The newest `createdAt` listed by the last poll: an unknown envelope older than it is not new. */
	createdUpTo?: string;
}

interface ListItem extends IDataObject {
	id: string;
	title?: string;
	status: string;
	createdAt?: string;
	updatedAt?: string;
	totalRecipients?: number;
	completedActions?: number;
}

interface ProgressRecipient extends IDataObject {
	id?: string;
	name?: string;
	email?: string | null;
	role?: string;
	order?: number;
	status?: string;
	signedAt?: string;
}

export interface RecipientFilters {
	roles: string[];
	changes: string[];
}

const ALL_ROLES = ['signer', 'approver', 'cc'];

/** A recipient's key: the id when the service gives one (the specification's read has none). */
const keyOf = (r: ProgressRecipient): string =>
	typeof r.id === 'string' && r.id !== ''
		? r.id
		: `${r.order ?? ''}|${r.email ?? ''}|${r.name ?? ''}`;

/** The status a recipient has before acting (the specification shows `pending`). */
const NOT_ACTED = 'pending';

/** Every envelope of the list, every page; the page size the service took is kept in `size`. */
async function readList(this: IPollFunctions, size: PageSize): Promise<ListItem[]> {
	const path = apiPath('envelopes');
	const found = new Map<string, ListItem>();
	for (let page = DEFAULTS.page; ; page++) {
		const response = (await readPage.call(this, path, {}, page, size)) as Page<ListItem>;
		const items = Array.isArray(response.items) ? response.items : [];
		for (const item of items) {
			if (item && typeof item.id === 'string' && typeof item.status === 'string')
				found.set(item.id, item);
		}
		if (!response.pageInfo?.hasNext || items.length === 0) break;
		followShortPage(this, response, size, path, page);
	}
	return [...found.values()];
}

/** The signing progress (2.7): the envelope's status and counts with its recipients, one read. */
interface Progress {
	status?: string;
	totalRecipients?: number;
	completedCount?: number;
	recipients: ProgressRecipient[];
}

async function readProgress(this: IPollFunctions, envelopeId: string): Promise<Progress> {
	const progress = (await apiRequest.call(
		this,
		'GET',
		apiPath('envelopeStatus', envelopeId),
	)) as IDataObject;
	const recipients = progress.recipients;
	if (!Array.isArray(recipients)) {
		throw new NodeOperationError(
			this.getNode(),
			`The signing progress of envelope ${envelopeId} holds no recipients list`,
			{
				description:
					'Recipient Acted compares the recipients[] of GET /envelopes/{id}/status (specification 2.7) from poll to poll. Check that the API Base URL points at the service that holds this envelope.',
			},
		);
	}
	return {
		status: typeof progress.status === 'string' ? progress.status : undefined,
		totalRecipients:
			typeof progress.totalRecipients === 'number' ? progress.totalRecipients : undefined,
		completedCount:
			typeof progress.completedCount === 'number' ? progress.completedCount : undefined,
		recipients: recipients.filter(
			(r): r is ProgressRecipient => r !== null && typeof r === 'object',
		),
	};
}

/**
 * The envelope as of its progress read: a recipient who acted between the list read and this
 * read is reported with the status and counts that include the action, not the list's older ones.
 */
const asOf = (envelope: ListItem, progress: Progress): ListItem => ({
	...envelope,
	status: progress.status ?? envelope.status,
	totalRecipients: progress.totalRecipients ?? envelope.totalRecipients,
	completedActions: progress.completedCount ?? envelope.completedActions,
});

const statusesOf = (recipients: ProgressRecipient[]): Record<string, string> =>
	Object.fromEntries(recipients.map((r) => [keyOf(r), String(r.status ?? '')]));

function toItem(
	envelope: ListItem,
	recipient: ProgressRecipient,
	previous: string,
): INodeExecutionData {
	const status = String(recipient.status ?? '');
	return {
		json: {
			envelopeId: envelope.id,
			title: envelope.title ?? null,
			status: envelope.status,
			statusName: statusName(envelope.status),
			completedActions: envelope.completedActions ?? null,
			totalRecipients: envelope.totalRecipients ?? null,
			change: status === 'signed' ? 'signed' : 'other',
			recipient: {
				id: recipient.id ?? null,
				name: recipient.name ?? null,
				email: recipient.email ?? null,
				role: recipient.role ?? null,
				order: recipient.order ?? null,
				status,
				previousStatus: previous,
				...(recipient.signedAt ? { signedAt: recipient.signedAt } : {}),
			},
		},
	};
}

/** Whether a recipient's action passes the Roles and Changes filters. */
export function passes(filters: RecipientFilters, recipient: ProgressRecipient): boolean {
	const change = recipient.status === 'signed' ? 'signed' : 'other';
	if (!filters.changes.includes(change)) return false;
	// A role the service does not give passes only when every role is chosen.
	const role = typeof recipient.role === 'string' ? recipient.role : undefined;
	if (role === undefined) return ALL_ROLES.every((r) => filters.roles.includes(r));
	return filters.roles.includes(role) || !ALL_ROLES.includes(role);
}

/**
 * One poll. `memory` undefined: the first poll after activation, which records what it sees
 * and starts nothing. Returns the items and the memory to keep once they are out.
 */
export async function pollRecipients(
	this: IPollFunctions,
	memory: RecipientMemory | undefined,
	size: PageSize,
	filters: RecipientFilters,
): Promise<{ items: INodeExecutionData[]; memory: RecipientMemory }> {
	const listed = await readList.call(this, size);
	const known = memory?.envelopes ?? {};
	const next: Record<string, EnvelopeMemory> = {};
	const items: INodeExecutionData[] = [];
	let createdUpTo = memory?.createdUpTo;

	for (const envelope of listed) {
		const before = known[envelope.id];
		const now: EnvelopeMemory = {
			s: envelope.status,
			c: Number(envelope.completedActions ?? 0),
			u: String(envelope.updatedAt ?? ''),
		};
		const created = String(envelope.createdAt ?? '');
		if (createdUpTo === undefined || created > createdUpTo) createdUpTo = created;
		const unchanged =
			before !== undefined && before.s === now.s && before.c === now.c && before.u === now.u;
		// Listed by an earlier poll and dropped as final, or older than the last poll's newest (a
		// baseline): not new.
		const seenBefore =
			memory === undefined ||
			(before === undefined &&
				memory.createdUpTo !== undefined &&
				created !== '' &&
				created <= memory.createdUpTo);

		if (unchanged) {
			next[envelope.id] = before;
			continue;
		}
		// A new envelope nobody acted on yet: nothing to read.
		const fresh = before === undefined && now.c === 0 && (now.s === 'draft' || now.s === 'pending');
		if (fresh && !seenBefore) {
			next[envelope.id] = now;
			continue;
		}
		if (before === undefined && seenBefore) {
			// Recorded as it is. Recipients are read only where some already acted.
			if (FINAL_STATUSES.has(now.s)) continue;
			if (now.c > 0) now.r = statusesOf((await readProgress.call(this, envelope.id)).recipients);
			next[envelope.id] = now;
			continue;
		}
		// Changed since the last poll, or new since it: read in detail and compare.
		const progress = await readProgress.call(this, envelope.id);
		const current = asOf(envelope, progress);
		const previous = before?.r ?? {};
		for (const recipient of progress.recipients) {
			const was = previous[keyOf(recipient)] ?? NOT_ACTED;
			const status = String(recipient.status ?? '');
			if (status === '' || status === was) continue;
			if (passes(filters, recipient)) items.push(toItem(current, recipient, was));
		}
		now.r = statusesOf(progress.recipients);
		if (!FINAL_STATUSES.has(now.s)) next[envelope.id] = now;
	}

	return { items, memory: { envelopes: bound(next), ...(createdUpTo ? { createdUpTo } : {}) } };
}

/** Keeps the most recently changed open envelopes. */
function bound(envelopes: Record<string, EnvelopeMemory>): Record<string, EnvelopeMemory> {
	const entries = Object.entries(envelopes);
	if (entries.length <= RECIPIENT_POLL.envelopeLimit) return envelopes;
	entries.sort((a, b) => (a[1].u < b[1].u ? 1 : a[1].u > b[1].u ? -1 : 0));
	return Object.fromEntries(entries.slice(0, RECIPIENT_POLL.envelopeLimit));
}

/** A test run: the newest action seen in the list's most recently changed envelope that has one. */
export async function newestAction(
	this: IPollFunctions,
	size: PageSize,
	filters: RecipientFilters,
): Promise<INodeExecutionData[]> {
	const listed = (await readList.call(this, size))
		.filter((e) => Number(e.completedActions ?? 0) > 0)
		.sort((a, b) => Date.parse(String(b.updatedAt)) - Date.parse(String(a.updatedAt)));
	for (const envelope of listed.slice(0, 5)) {
		const progress = await readProgress.call(this, envelope.id);
		const acted = progress.recipients
			.filter((r) => r.status && r.status !== NOT_ACTED && passes(filters, r))
			.sort(
				(a, b) => Date.parse(String(b.signedAt ?? '')) - Date.parse(String(a.signedAt ?? '')) || 0,
			);
		if (acted[0]) return [toItem(asOf(envelope, progress), acted[0], NOT_ACTED)];
	}
	return [];
}
