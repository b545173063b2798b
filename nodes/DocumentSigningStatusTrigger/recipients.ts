import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ASSUMPTIONS_URL, DEFAULTS } from '../shared/api/assumptions';
import { apiPath } from '../shared/api/endpoints';
import { statusName } from '../shared/api/envelopeStatus';
import type { Page, PageSize } from '../shared/http/pagination';
import { followShortPage, readPage } from '../shared/http/pagination';
import { apiRequest } from '../shared/http/transport';
import { type Budget, inOrder, type PollBudget } from './budget';
import { afterWalk, FINAL_STATUSES, readFrom, type WalkedMemory } from './poller';
import { asNodeError, walkList } from './walk';

/**
 * The "Recipient Acted" mode. The service sends no event for a recipient's action, so each
 * poll walks the envelope list (newest change first, walk.ts) from its cursor up and compares
 * each envelope's `status`, `completedActions` and `updatedAt` with what it kept; only an
 * envelope that changed is read in detail (`GET /envelopes/{id}/status`), and its recipients'
 * statuses are compared with those seen last. A poll costs the list pages down to its cursor
 * plus one read per changed envelope; the first poll reads every page (and every open envelope
 * where someone already acted), over several polls when one budget is not enough.
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

export interface RecipientMemory extends WalkedMemory {
	/** Envelopes by id: open ones, and final ones while the next poll reads them again. */
	envelopes: Record<string, EnvelopeMemory>;
	/**
	 * The newest `createdAt` listed while every poll read every page (a memory kept before the
	 * walk, or a list in another order): an unknown envelope created up to it is not new.
	 */
	createdUpTo?: string;
	/** The newest change of an envelope dropped to bound the memory: one created up to it may be such. */
	droppedUpTo?: string;
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

/**
 * Every envelope of the list, every page; the page size the service took is kept in `size`.
 * With a budget, a list that does not fit in it fails the poll, saying so.
 */
async function readList(
	this: IPollFunctions,
	size: PageSize,
	budget?: Budget,
): Promise<ListItem[]> {
	const path = apiPath('envelopes');
	const found = new Map<string, ListItem>();
	for (let page = DEFAULTS.page; ; page++) {
		if (budget && page > DEFAULTS.page && !budget.allows('list'))
			throw wholeListTooLong(this, page - 1);
		const read = async () => await readPage.call(this, path, {}, page, size);
		const response = (await (budget ? budget.timed('list', read) : read())) as Page<ListItem>;
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

function wholeListTooLong(context: IPollFunctions, pages: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The envelope list is not in newest-change-first order, so each poll reads all of it, and ${pages} pages did not fit in the poll's budget`,
		{
			description: `Only a list in that order can be read over several polls (assumption "Envelope list order", ${ASSUMPTIONS_URL}). Raise N8N_SCHEDULER_POLL_TIMEOUT.`,
		},
	);
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

/** What one poll of Recipient Acted gathers and keeps. */
interface RecipientRun {
	state: RecipientMemory;
	filters: RecipientFilters;
	budget: PollBudget;
	items: INodeExecutionData[];
	/** A status read failed after some actions were found: the poll ends with those. */
	stopped: boolean;
}

/**
 * One poll. `memory` undefined: the first poll after activation, whose walk over the whole
 * list records what it sees and starts nothing (over several polls when the list is long).
 * Returns the items and the memory to keep once they are out.
 */
export async function pollRecipients(
	this: IPollFunctions,
	memory: RecipientMemory | undefined,
	size: PageSize,
	filters: RecipientFilters,
	budget: PollBudget,
): Promise<{ items: INodeExecutionData[]; memory: RecipientMemory }> {
	const run: RecipientRun = { state: startOf(memory), filters, budget, items: [], stopped: false };
	const { state } = run;
	if (!state.readAll) {
		const walked = await walkList.call(this, {
			path: apiPath('envelopes'),
			qs: {},
			size,
			floor: readFrom(state),
			hint: state.hint,
			budget,
			handle: async (listed: ListItem[]) => await handleEnvelopes.call(this, run, listed),
		});
		if (afterWalk(state, walked, budget.startedAt))
			return { items: run.items, memory: finish(state) };
	}
	// The list is in another order than assumed: every page each poll, as read.
	const listed = await readList.call(this, size, budget);
	const handled = await handleEnvelopes.call(this, run, listed);
	if (handled === listed.length) {
		delete state.baseline;
		for (const envelope of listed) {
			const created = String(envelope.createdAt ?? '');
			if (!state.createdUpTo || created > state.createdUpTo) state.createdUpTo = created;
		}
	}
	return { items: run.items, memory: finish(state) };
}

/** The memory this poll works on: a copy, and for one kept before the walk, its cursor. */
function startOf(memory: RecipientMemory | undefined): RecipientMemory {
	if (!memory) return { envelopes: {}, baseline: true };
	const state: RecipientMemory = { ...memory, envelopes: { ...(memory.envelopes ?? {}) } };
	if (state.cursor !== undefined || state.baseline || state.readAll) return state;
	// Kept before the walk: every poll read every page, so changes after it are newer than the
	// newest it recorded; an unknown envelope created up to createdUpTo was listed by it.
	const times = [...Object.values(state.envelopes).map((e) => e.u), state.createdUpTo]
		.map((u) => Date.parse(u ?? ''))
		.filter(Number.isFinite);
	if (times.length > 0) state.cursor = Math.max(...times);
	else state.baseline = true;
	return state;
}

/** What one listed envelope needs: nothing, to be recorded, read and recorded, or read and compared. */
type Step = 'keep' | 'record' | 'recordRead' | 'compare';

function stepOf(state: RecipientMemory, envelope: ListItem): Step {
	const before = state.envelopes[envelope.id];
	const c = Number(envelope.completedActions ?? 0);
	const u = String(envelope.updatedAt ?? '');
	if (before && before.s === envelope.status && before.c === c && before.u === u) return 'keep';
	if (before) return 'compare';
	const created = String(envelope.createdAt ?? '');
	// The baseline, or an envelope an earlier poll listed (and dropped as final, or to bound the
	// memory): recorded as it is. Recipients are read only where some already acted.
	const listedBefore =
		created !== '' &&
		((state.createdUpTo !== undefined && created <= state.createdUpTo) ||
			(state.droppedUpTo !== undefined && created <= state.droppedUpTo));
	if (state.baseline || listedBefore)
		return c > 0 && !FINAL_STATUSES.has(envelope.status) ? 'recordRead' : 'record';
	// A new envelope nobody acted on yet: nothing to read.
	if (c === 0 && (envelope.status === 'draft' || envelope.status === 'pending')) return 'record';
	// New since the last poll with actions already: read in detail and compare.
	return 'compare';
}

/**
 * Handles listed envelopes, oldest change first: an envelope that changed is read in detail
 * (a few at a time while the budget allows) and its recipients compared with those seen last.
 * Returns how many were handled; the memory records exactly those.
 */
async function handleEnvelopes(
	this: IPollFunctions,
	run: RecipientRun,
	listed: ListItem[],
): Promise<number> {
	if (run.stopped) return 0;
	const steps = listed.map((envelope) => stepOf(run.state, envelope));
	const reads = (k: number) => steps[k] === 'recordRead' || steps[k] === 'compare';
	const done = await inOrder(
		listed.map((_, k) => k),
		run.budget,
		'progress',
		reads,
		async (k) => (reads(k) ? await readProgress.call(this, listed[k].id) : undefined),
	);
	done.results.forEach((progress, k) => apply(run, listed[k], steps[k], progress));
	if (done.failure !== undefined && !run.budget.cut(done.failure)) {
		// A status read failing after its retries: with nothing found yet the poll fails (n8n
		// shows it and backs off); after some, those go out and the next poll starts here.
		if (run.items.length === 0) throw asNodeError(this, done.failure);
		run.stopped = true;
	}
	return done.results.length;
}

function apply(run: RecipientRun, envelope: ListItem, step: Step, progress?: Progress): void {
	const { state } = run;
	const t = Date.parse(String(envelope.updatedAt ?? ''));
	if (Number.isFinite(t)) state.cursor = Math.max(state.cursor ?? -Infinity, t);
	if (step === 'keep') return;
	const now: EnvelopeMemory = {
		s: envelope.status,
		c: Number(envelope.completedActions ?? 0),
		u: String(envelope.updatedAt ?? ''),
	};
	if (progress && step === 'compare') {
		const current = asOf(envelope, progress);
		const previous = state.envelopes[envelope.id]?.r ?? {};
		for (const recipient of progress.recipients) {
			const was = previous[keyOf(recipient)] ?? NOT_ACTED;
			const status = String(recipient.status ?? '');
			if (status === '' || status === was) continue;
			if (passes(run.filters, recipient)) run.items.push(toItem(current, recipient, was));
		}
	}
	if (progress) now.r = statusesOf(progress.recipients);
	state.envelopes[envelope.id] = now;
}

/**
 * The memory to keep: envelopes in a final status only while the next poll reads them again
 * (they change no more), and the most recently changed others up to the bound.
 */
function finish(state: RecipientMemory): RecipientMemory {
	const from = readFrom(state) ?? -Infinity;
	let entries = Object.entries(state.envelopes).filter(
		([, e]) => !FINAL_STATUSES.has(e.s) || !(Date.parse(e.u) < from),
	);
	if (entries.length > RECIPIENT_POLL.envelopeLimit) {
		entries.sort((a, b) => (a[1].u < b[1].u ? 1 : a[1].u > b[1].u ? -1 : 0));
		for (const [, dropped] of entries.slice(RECIPIENT_POLL.envelopeLimit)) {
			if (!state.droppedUpTo || dropped.u > state.droppedUpTo) state.droppedUpTo = dropped.u;
		}
		entries = entries.slice(0, RECIPIENT_POLL.envelopeLimit);
	}
	return { ...state, envelopes: Object.fromEntries(entries) };
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
