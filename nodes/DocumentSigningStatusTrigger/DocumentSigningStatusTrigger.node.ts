import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { withTypedParameters } from '../shared/api/parameters';
import { CREDENTIAL_TEST_NAME, testCredential } from '../shared/http/credentialTest';
import { PollBudget, pollBudgetMs, withinBudget } from './budget';
import { statusTriggerProperties } from './description';
import { exclusive } from './overlap';
import { pollRecipientMode, recipientFilters, sampleRecipientAction } from './recipientMode';
import { newestOfEachStatus, pollStatuses } from './statusMode';

/**
 * Starts a workflow once per envelope that reaches a chosen status. The service sends no
 * webhook for signing or completion, so this trigger polls the envelope list with its
 * status filter.
 */
export class DocumentSigningStatusTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Signing Status Trigger',
		name: 'documentSigningStatusTrigger',
		icon: {
			light: 'file:../../icons/documentSigning.svg',
			dark: 'file:../../icons/documentSigning.dark.svg',
		},
		group: ['trigger'],
		// 1.1 shows each mode's fields only in that mode (1 keeps them all, as saved).
		version: [1, 1.1],
		subtitle:
			'={{ $parameter["event"] === "recipientActed" ? "When a recipient acts" : "When an envelope is " + ($parameter["statuses"] || []).join(" or ") }}',
		description:
			'Starts a workflow when an envelope is completed (or reaches another status), or when a recipient signs',
		defaults: {
			name: 'Document Signing Status Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'documentSigningApi',
				required: true,
				testedBy: 'documentSigningApiTest',
			},
		],
		properties: statusTriggerProperties,
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Every parameter read by its declared type (a refused value fails the poll, naming it).
		const typed = withTypedParameters(this, statusTriggerProperties);
		return await pollTyped.call(typed);
	}
}

async function pollTyped(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	// Every choice is checked before any request.
	const recipientActed = this.getNodeParameter('event', 'statusReached') === 'recipientActed';
	const filters = recipientActed ? recipientFilters(this) : undefined;
	const statuses = recipientActed ? [] : readStatuses.call(this);
	if (this.getMode() === 'manual') {
		return filters
			? await sampleRecipientAction.call(this, filters)
			: await newestOfEachStatus.call(this, statuses);
	}
	// The poll fits in n8n's budget: requests stop at its end, and what was handled is emitted.
	const budget = new PollBudget(pollBudgetMs(this));
	const bounded = withinBudget(this, budget);
	try {
		return await exclusive(this, budget, async () =>
			filters
				? await pollRecipientMode.call(bounded, filters, budget)
				: await pollStatuses.call(bounded, statuses, budget),
		);
	} finally {
		budget.close();
	}
}

function readStatuses(this: IPollFunctions): string[] {
	const chosen = (this.getNodeParameter('statuses', []) as string[]) ?? [];
	const other = String(this.getNodeParameter('otherStatuses', '') ?? '').split(',');
	// Any status is taken: beyond the four shown, the specification names none.
	const statuses = [
		...new Set([...chosen, ...other].map((status) => String(status).trim()).filter(Boolean)),
	];
	if (statuses.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'Trigger on Status: choose one or more statuses (or give them in Other Statuses)',
		);
	}
	return statuses;
}
