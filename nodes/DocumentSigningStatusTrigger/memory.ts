import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { PageSize } from '../shared/http/pagination';
import type { StatusMemory } from './poller';
import { STATUS_POLL } from './pollPolicy';
import type { RecipientMemory } from './recipients';

/** What the node keeps in the workflow's static data. */
export interface NodeMemory extends IDataObject {
	statuses?: Record<string, StatusMemory>;
	/** Recipient Acted: what the last poll saw. */
	recipients?: RecipientMemory;
	/** The page size the service took (a refused size is not asked again). */
	pageSize?: number;
	/** Emitting polls so far: a poll that finds fewer than this process emitted waits for n8n's commit (overlap.ts). */
	pollSeq?: number;
}

/** The page size to ask: the one the service took last time, else the largest assumed. */
export function pageSize(this: IPollFunctions): PageSize {
	// A test run reads no memory: reading it would create the node's entry.
	if (this.getMode() === 'manual') return { limit: STATUS_POLL.pageSize };
	const kept = Number((this.getWorkflowStaticData('node') as NodeMemory).pageSize);
	const limit =
		Number.isInteger(kept) && kept >= 1
			? Math.min(kept, STATUS_POLL.pageSize)
			: STATUS_POLL.pageSize;
	return { limit };
}

/** A refused size is remembered, so later polls do not ask it (and get refused) again. */
export function rememberPageSize(memory: NodeMemory, size: PageSize): void {
	if (size.limit < STATUS_POLL.pageSize) memory.pageSize = size.limit;
	else delete memory.pageSize;
}
