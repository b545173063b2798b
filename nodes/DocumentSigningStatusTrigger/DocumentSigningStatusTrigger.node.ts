import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { fetchEnvelopeFile } from '../DocumentSigning/actions/envelope/downloadFile.operation';
import { ENVELOPE_STATUS_OPTIONS } from '../DocumentSigning/actions/envelope/statusOptions';
import { GUESSED_VALUES } from '../shared/assumptions';
import type { EnvelopeListItem, StatusMemory } from './poller';
import { FINAL_STATUSES, readChanged, readFrom, takeNew } from './poller';

const STATUS_NAMES = new Map(ENVELOPE_STATUS_OPTIONS.map((o) => [o.value as string, o.name]));

const STATUS_DESCRIPTIONS: Record<string, string> = {
	draft: 'Created, not sent yet',
	estamping: 'Sent with e-stamping; the stamp is being bought',
	estamp_failed: 'The e-stamp purchase failed for good',
	pending: 'Sent; waiting for recipients to sign or approve',
	completed: 'Every signer signed and every approver approved',
};

/** What the node keeps in the workflow's static data. */
interface NodeMemory extends IDataObject {
	statuses?: Record<string, StatusMemory>;
}

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
		version: 1,
		subtitle: '={{ "When an envelope is " + ($parameter["statuses"] || []).join(" or ") }}',
		description: 'Starts a workflow when an envelope is completed (or reaches another status)',
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
			},
		],
		properties: [
			{
				displayName:
					'Checks the envelope list at the times set below and starts once for each envelope that reached the status since the last check. Envelopes already there when the workflow is published do not start it.',
				name: 'pollNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On Status',
				name: 'statuses',
				type: 'multiOptions',
				options: ENVELOPE_STATUS_OPTIONS.map((option) => ({
					...option,
					description: STATUS_DESCRIPTIONS[option.value],
				})),
				default: ['completed'],
				required: true,
				description:
					'Start when an envelope reaches one of these statuses (Completed: every signer signed)',
			},
			{
				displayName: 'Download Signed PDF',
				name: 'downloadSignedPdf',
				type: 'boolean',
				default: false,
				description:
					'Whether to attach the signed PDF as binary data to each completed envelope (other statuses get no file)',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				required: true,
				hint: 'The name of the output binary field to put the signed PDF in',
				displayOptions: { show: { downloadSignedPdf: [true] } },
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const statuses = readStatuses.call(this);
		const manual = this.getMode() === 'manual';

		let envelopes: EnvelopeListItem[] = [];
		if (manual) {
			// A test run shows the newest envelope of each status and changes no memory.
			for (const status of statuses) {
				const { items: listed } = await readChanged.call(this, status, undefined, false);
				const newest = listed.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
				if (newest) envelopes.push(newest);
			}
		} else {
			const memory = this.getWorkflowStaticData('node') as NodeMemory;
			const known = memory.statuses ?? {};
			const next: Record<string, StatusMemory> = {};
			const now = Date.now();
			for (const status of statuses) {
				const state: StatusMemory = known[status] ?? { seen: {} };
				// The first read of a final status needs only the newest change; of another
				// status, every envelope in it (any may change later without being new).
				const allPages = state.readAll === true || (state.cursor === undefined && !FINAL_STATUSES.has(status));
				const { items, ordered } = await readChanged.call(this, status, readFrom(state), allPages);
				if (!ordered) state.readAll = true;
				envelopes.push(...takeNew(status, state, items, now));
				next[status] = state;
			}
			// Statuses no longer chosen are forgotten; choosing one again starts a new baseline.
			memory.statuses = next;
		}

		if (envelopes.length === 0) return null;
		envelopes = dedupe(envelopes);
		return [await Promise.all(envelopes.map(async (envelope) => await toItem.call(this, envelope)))];
	}
}

function readStatuses(this: IPollFunctions): string[] {
	const chosen = this.getNodeParameter('statuses', []) as string[];
	const known: readonly string[] = GUESSED_VALUES.envelopeStatuses;
	const unknown = chosen.filter((status) => !known.includes(status));
	if (chosen.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Trigger On Status: choose one or more of ${known.join(', ')}${unknown.length ? ` (not a status: ${unknown.join(', ')})` : ''}`,
		);
	}
	return [...new Set(chosen)];
}

/** One envelope may be listed under two statuses within a poll: it starts once. */
function dedupe(envelopes: EnvelopeListItem[]): EnvelopeListItem[] {
	const byId = new Map<string, EnvelopeListItem>();
	for (const envelope of envelopes) byId.set(envelope.id, envelope);
	return [...byId.values()];
}

/** The list item, named for workflows; the signed PDF attached when asked and completed. */
async function toItem(this: IPollFunctions, envelope: EnvelopeListItem): Promise<INodeExecutionData> {
	const json: IDataObject = {
		envelopeId: envelope.id,
		...envelope,
		statusName: STATUS_NAMES.get(envelope.status) ?? envelope.status,
	};
	const download = this.getNodeParameter('downloadSignedPdf', false) as boolean;
	if (!download || envelope.status !== 'completed') return { json };

	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', 'data') as string;
	const file = await fetchEnvelopeFile.call(this, envelope.id, { binaryPropertyName });
	const { fileName, size } = file.json;
	return { json: { ...json, signedPdf: { fileName, size } }, binary: file.binary };
}
