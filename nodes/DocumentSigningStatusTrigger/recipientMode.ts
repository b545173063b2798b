import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { NodeMemory } from './poller';
import { inFlight, pageSize, rememberPageSize } from './poller';
import type { RecipientFilters } from './recipients';
import { newestAction, pollRecipients } from './recipients';

/** Recipient Acted: one run per recipient action seen since the last poll. */
export async function pollRecipientMode(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const filters: RecipientFilters = {
		roles: (this.getNodeParameter('roles', []) as string[]) ?? [],
		changes: (this.getNodeParameter('recipientChanges', []) as string[]) ?? [],
	};
	if (filters.roles.length === 0 || filters.changes.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`${filters.roles.length === 0 ? 'Roles' : 'Changes'}: choose at least one option, or no recipient action can start a run`,
		);
	}
	const size = pageSize.call(this);
	if (this.getMode() === 'manual') {
		const items = await newestAction.call(this, size, filters);
		return items.length > 0 ? [items] : null;
	}
	const key = `${this.getWorkflow().id}:${this.getNode().id}`;
	if (inFlight.has(key)) return null;
	inFlight.add(key);
	try {
		const memory = this.getWorkflowStaticData('node') as NodeMemory;
		const result = await pollRecipients.call(this, memory.recipients, size, filters);
		// Kept only once the poll's output is complete.
		memory.recipients = result.memory;
		rememberPageSize(memory, size);
		return result.items.length > 0 ? [result.items] : null;
	} finally {
		inFlight.delete(key);
	}
}
