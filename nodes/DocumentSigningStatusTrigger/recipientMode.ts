import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PollBudget } from './budget';
import { type NodeMemory, pageSize, rememberPageSize } from './memory';
import type { RecipientFilters } from './recipients';
import { newestAction, pollRecipients } from './recipients';

/** Roles and Changes, checked before any request. */
export function recipientFilters(context: IPollFunctions): RecipientFilters {
	const filters: RecipientFilters = {
		roles: (context.getNodeParameter('roles', []) as string[]) ?? [],
		changes: (context.getNodeParameter('recipientChanges', []) as string[]) ?? [],
	};
	if (filters.roles.length === 0 || filters.changes.length === 0) {
		throw new NodeOperationError(
			context.getNode(),
			`${filters.roles.length === 0 ? 'Roles' : 'Changes'}: choose at least one option, or no recipient action can start a run`,
		);
	}
	return filters;
}

/** A test run: the newest recipient action, and no memory changed. */
export async function sampleRecipientAction(
	this: IPollFunctions,
	filters: RecipientFilters,
): Promise<INodeExecutionData[][] | null> {
	const items = await newestAction.call(this, pageSize.call(this), filters);
	return items.length > 0 ? [items] : null;
}

/** Recipient Acted: one run per recipient action seen since the last poll. */
export async function pollRecipientMode(
	this: IPollFunctions,
	filters: RecipientFilters,
	budget: PollBudget,
): Promise<INodeExecutionData[][] | null> {
	const size = pageSize.call(this);
	const memory = this.getWorkflowStaticData('node') as NodeMemory;
	const result = await pollRecipients.call(this, memory.recipients, size, filters, budget);
	// Kept only once the poll's output is complete.
	memory.recipients = result.memory;
	rememberPageSize(memory, size);
	return result.items.length > 0 ? [result.items] : null;
}
