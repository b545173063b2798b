import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { toggle, withTypedParameters } from '../shared/api/parameters';
import { fetchEnvelopeFile } from '../shared/envelopeFile';
import { statusName } from '../shared/envelopeStatus';
import { CREDENTIAL_TEST_NAME, testCredential } from '../shared/credentialTest';
import { apiErrorFields } from '../shared/errors';
import type { EnvelopeListItem, NodeMemory, StatusMemory } from './poller';
import {
	FINAL_STATUSES,
	inFlight,
	pageSize,
	readChanged,
	readFrom,
	rememberPageSize,
	takeNew,
} from './poller';
import { statusTriggerProperties } from './description';
import { pollRecipientMode } from './recipientMode';

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
	{
		if (this.getNodeParameter('event', 'statusReached') === 'recipientActed')
			return await pollRecipientMode.call(this);
		const statuses = readStatuses.call(this);
		if (this.getMode() === 'manual') {
			// A test run shows the newest envelope of each status and changes no memory.
			const newest: EnvelopeListItem[] = [];
			const size = pageSize.call(this);
			for (const status of statuses) {
				const { items } = await readChanged.call(this, status, undefined, false, size);
				const first = items.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
				if (first) newest.push(first);
			}
			return await toOutput.call(this, newest);
		}

		// A poll still running when the next is due (a slow service): the next one skips.
		const key = `${this.getWorkflow().id}:${this.getNode().id}`;
		if (inFlight.has(key)) return null;
		inFlight.add(key);
		try {
			const memory = this.getWorkflowStaticData('node') as NodeMemory;
			const known = memory.statuses ?? {};
			const next: Record<string, StatusMemory> = {};
			const envelopes: EnvelopeListItem[] = [];
			const now = Date.now();
			const size = pageSize.call(this);
			for (const status of statuses) {
				// A copy: the memory changes only once the poll's output is complete.
				const state: StatusMemory = {
					...(known[status] ?? {}),
					seen: { ...(known[status]?.seen ?? {}) },
				};
				// The first read of a final status needs only the newest change; of another
				// status, every envelope in it (any may change later without being new).
				const allPages =
					state.readAll === true || (state.cursor === undefined && !FINAL_STATUSES.has(status));
				const { items, ordered } = await readChanged.call(
					this,
					status,
					readFrom(state),
					allPages,
					size,
				);
				if (!ordered) state.readAll = true;
				envelopes.push(...takeNew(status, state, items, now));
				next[status] = state;
			}
			// A download failing after its retries throws before this: the next poll starts the same envelopes.
			const output = await toOutput.call(this, envelopes);
			// Statuses no longer chosen are forgotten; choosing one again starts a new baseline.
			memory.statuses = next;
			rememberPageSize(memory, size);
			return output;
		} finally {
			inFlight.delete(key);
		}
	}
}

async function toOutput(
	this: IPollFunctions,
	envelopes: EnvelopeListItem[],
): Promise<INodeExecutionData[][] | null> {
	if (envelopes.length === 0) return null;
	// One envelope may be listed under two statuses within a poll: it starts once.
	const unique = [...new Map(envelopes.map((envelope) => [envelope.id, envelope])).values()];
	// A few signed PDFs at a time: a poll with hundreds of completed envelopes does not flood the service.
	const items: INodeExecutionData[] = new Array(unique.length);
	let next = 0;
	const worker = async () => {
		while (next < unique.length) {
			const k = next++;
			items[k] = await toItem.call(this, unique[k]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(DOWNLOADS_AT_ONCE, unique.length) }, worker));
	return [items];
}

/** Signed PDFs fetched at the same time within one poll. */
const DOWNLOADS_AT_ONCE = 5;

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

/** The list item, named for workflows; the signed PDF attached when asked and completed. */
async function toItem(
	this: IPollFunctions,
	envelope: EnvelopeListItem,
): Promise<INodeExecutionData> {
	const json: IDataObject = {
		envelopeId: envelope.id,
		...envelope,
		statusName: statusName(envelope.status),
	};
	const download = toggle(this.getNodeParameter('downloadSignedPdf', false), false);
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
		// or storage unreachable after retries) fails the check, and the next check starts the
		// same envelopes.
		const { httpCode } = apiErrorFields(error);
		if (!httpCode?.startsWith('4')) {
			const failure =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error);
			throw failure;
		}
		const message = error instanceof Error ? error.message : String(error);
		return { json: { ...json, signedPdf: null, signedPdfError: { message, httpCode } } };
	}
	const { fileName, size } = file.json;
	return { json: { ...json, signedPdf: { fileName, size } }, binary: file.binary };
}
