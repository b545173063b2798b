import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { toggle } from '../shared/api/parameters';
import { apiPath } from '../shared/api/endpoints';
import { fetchEnvelopeFile } from '../shared/files/envelopeFile';
import { statusName } from '../shared/api/envelopeStatus';
import { apiErrorFields } from '../shared/http/errors';
import type { PageSize } from '../shared/http/pagination';
import { type Budget, inOrder, type PollBudget } from './budget';
import { type FileCarry, fileCarry } from './carry';
import { type NodeMemory, pageSize, rememberPageSize } from './memory';
import type { EnvelopeListItem, StatusMemory } from './poller';
import { afterWalk, FINAL_STATUSES, prune, readChanged, readFrom, record, takeNew } from './poller';
import { asNodeError, walkList } from './walk';

/** "Envelope Reached a Status": one run item per envelope that reached a chosen status. */

/** What one poll of the statuses gathers. */
interface StatusRun {
	output: INodeExecutionData[];
	/** Envelopes emitted by this poll: one listed under two statuses starts once. */
	emitted: Set<string>;
	/** A request failed after some envelopes were emitted: the poll ends with those. */
	stopped: boolean;
	budget: PollBudget;
	size: PageSize;
	download: boolean;
}

export async function pollStatuses(
	this: IPollFunctions,
	statuses: string[],
	budget: PollBudget,
): Promise<INodeExecutionData[][] | null> {
	const memory = this.getWorkflowStaticData('node') as NodeMemory;
	const known = memory.statuses ?? {};
	const run: StatusRun = {
		output: [],
		emitted: new Set(),
		stopped: false,
		budget,
		size: pageSize.call(this),
		download: toggle(this.getNodeParameter('downloadSignedPdf', false), false),
	};
	const next: Record<string, StatusMemory> = {};
	for (const [index, status] of statuses.entries()) {
		// A copy: the memory changes only once the poll's output is complete.
		const state: StatusMemory = {
			...(known[status] ?? {}),
			seen: { ...(known[status]?.seen ?? {}) },
		};
		next[status] = state;
		// Each status still to read gets an equal share of the time left: one backlog cannot hold up the others.
		if (!run.stopped)
			await readStatus.call(this, status, state, run, budget.share(statuses.length - index));
	}
	// Statuses no longer chosen are forgotten; choosing one again starts a new baseline.
	memory.statuses = next;
	rememberPageSize(memory, run.size);
	return run.output.length > 0 ? [run.output] : null;
}

async function readStatus(
	this: IPollFunctions,
	status: string,
	state: StatusMemory,
	run: StatusRun,
	share: Budget,
): Promise<void> {
	// The first read of a final status needs only the newest change (one page); it starts nothing.
	if (state.cursor === undefined && !state.readAll && FINAL_STATUSES.has(status)) {
		const { items, ordered } = await readChanged.call(this, status, undefined, false, run.size);
		if (!ordered) state.readAll = true;
		takeNew(status, state, items, Date.now());
		return;
	}
	if (!state.readAll) {
		// Of another status, every envelope in it (any may change later without being new).
		if (state.cursor === undefined) state.baseline = true;
		const walked = await walkList.call(this, {
			path: apiPath('envelopes'),
			qs: { status },
			size: run.size,
			floor: readFrom(state),
			hint: state.hint,
			budget: share,
			handle: async (items: EnvelopeListItem[]) =>
				await handleItems.call(this, state, run, share, items),
			more: () => !run.stopped && (!run.download || share.allows('file')),
		});
		if (afterWalk(state, walked, run.budget.startedAt)) return prune(status, state);
	}
	await readEveryPage.call(this, status, state, run, share);
}

/** A list in another order than assumed: every page, each poll; what is new starts oldest first. */
async function readEveryPage(
	this: IPollFunctions,
	status: string,
	state: StatusMemory,
	run: StatusRun,
	share: Budget,
): Promise<void> {
	const first = state.cursor === undefined;
	const { items } = await readChanged.call(this, status, readFrom(state), true, run.size, share);
	if (first) {
		takeNew(status, state, items, Date.now());
		delete state.baseline;
		return;
	}
	const changed = (item: EnvelopeListItem) => Date.parse(item.updatedAt);
	items.sort((a, b) => changed(a) - changed(b) || a.id.localeCompare(b.id));
	await handleItems.call(this, state, run, share, items);
	prune(status, state);
}

/**
 * Handles listed envelopes, oldest change first: those not seen before become run items (with
 * their signed PDF when asked, a few at a time, while the budget allows). Returns how many were
 * handled; the memory records exactly those.
 */
async function handleItems(
	this: IPollFunctions,
	state: StatusMemory,
	run: StatusRun,
	share: Budget,
	items: EnvelopeListItem[],
): Promise<number> {
	if (run.stopped) return 0;
	const starts = new Set(
		items
			.filter((i) => !state.baseline && !(i.id in state.seen) && !run.emitted.has(i.id))
			.map((i) => i.id),
	);
	const carry = run.download ? filesKept.call(this) : undefined;
	const keptFor = (item: EnvelopeListItem) => carry?.get(item.id, item.updatedAt);
	const download = (item: EnvelopeListItem) =>
		run.download && starts.has(item.id) && item.status === 'completed' && !keptFor(item);
	const done = await inOrder(items, share, 'file', download, async (item) =>
		starts.has(item.id)
			? (keptFor(item) ?? (await toItem.call(this, item, run.download)))
			: undefined,
	);
	// Files downloaded past the envelopes this poll can emit go out with a later poll.
	for (const [k, out] of done.past)
		if (out?.binary) carry?.keep(items[k].id, items[k].updatedAt, out);
	const now = Date.now();
	done.results.forEach((out, k) => {
		carry?.drop(items[k].id, items[k].updatedAt);
		record(state, items[k], now);
		if (!out || run.emitted.has(items[k].id)) return;
		run.output.push(out);
		run.emitted.add(items[k].id);
	});
	const failed = done.failure !== undefined && !run.budget.cut(done.failure);
	if (failed) {
		// A download failing after its retries. With nothing emitted yet the poll fails (n8n
		// shows it and backs off); after some, those go out and the next poll starts here.
		if (run.output.length === 0) throw asNodeError(this, done.failure);
		run.stopped = true;
	}
	return done.results.length;
}

/** The signed PDFs kept for this trigger by an earlier poll (carry.ts). */
function filesKept(this: IPollFunctions): FileCarry {
	return fileCarry.call(this, this.getNodeParameter('binaryPropertyName', 'data') as string);
}

/** A test run: the newest envelope of each status, and no memory changed. */
export async function newestOfEachStatus(
	this: IPollFunctions,
	statuses: string[],
): Promise<INodeExecutionData[][] | null> {
	const newest: EnvelopeListItem[] = [];
	const size = pageSize.call(this);
	for (const status of statuses) {
		const { items } = await readChanged.call(this, status, undefined, false, size);
		const first = items.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
		if (first) newest.push(first);
	}
	if (newest.length === 0) return null;
	// One envelope may be listed under two statuses: it is shown once.
	const unique = [...new Map(newest.map((envelope) => [envelope.id, envelope])).values()];
	const download = toggle(this.getNodeParameter('downloadSignedPdf', false), false);
	const items: INodeExecutionData[] = [];
	for (const envelope of unique) items.push(await toItem.call(this, envelope, download));
	return [items];
}

/** The list item, named for workflows; the signed PDF attached when asked and completed. */
async function toItem(
	this: IPollFunctions,
	envelope: EnvelopeListItem,
	download: boolean,
): Promise<INodeExecutionData> {
	const json: IDataObject = {
		envelopeId: envelope.id,
		...envelope,
		statusName: statusName(envelope.status),
	};
	if (!download) return { json };
	if (envelope.status !== 'completed') {
		return {
			json: {
				...json,
				signedPdf: null,
				signedPdfSkipped: `The envelope is ${envelope.status}: only a completed envelope has a signed PDF, so no file is attached`,
			},
		};
	}

	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', 'data') as string;
	let file: INodeExecutionData;
	try {
		file = await fetchEnvelopeFile.call(this, envelope.id, { binaryPropertyName });
	} catch (error) {
		// The service refuses this envelope's file (4xx): the envelope still starts, with the
		// reason, so one file cannot hold back every later envelope. Anything else (the service
		// or storage unreachable after retries) ends the poll at this envelope.
		const { httpCode } = apiErrorFields(error);
		if (!httpCode?.startsWith('4')) throw asNodeError(this, error);
		const message = error instanceof Error ? error.message : String(error);
		return { json: { ...json, signedPdf: null, signedPdfError: { message, httpCode } } };
	}
	const { fileName, size } = file.json;
	return { json: { ...json, signedPdf: { fileName, size } }, binary: file.binary };
}
