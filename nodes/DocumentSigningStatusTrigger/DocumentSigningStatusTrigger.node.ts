import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { toggle, withTypedParameters } from '../shared/api/parameters';
import { fetchEnvelopeFile } from '../shared/envelopeFile';
import { ENVELOPE_STATUS_OPTIONS, statusName } from '../shared/envelopeStatus';
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
import { pollRecipientMode } from './recipientMode';

let propertiesOnce: INodeProperties[] | undefined;

const RECIPIENT_MODE = { show: { event: ['recipientActed'] } };

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
		properties: [
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Envelope Reached a Status',
						value: 'statusReached',
						description: 'One run per envelope that reaches a chosen status',
					},
					{
						name: 'Recipient Acted',
						value: 'recipientActed',
						description:
							'One run per recipient who signs, approves, declines or otherwise changes status',
					},
				],
				default: 'statusReached',
				hint: 'With Recipient Acted, Trigger on Status, Other Statuses and Download Signed PDF below are not used',
			},
			{
				displayName: 'Roles',
				name: 'roles',
				type: 'multiOptions',
				options: [
					{ name: 'Signer', value: 'signer' },
					{ name: 'Approver', value: 'approver' },
					{ name: 'Cc', value: 'cc' },
				],
				default: ['signer', 'approver', 'cc'],
				description: 'Start only for recipients of these roles',
				displayOptions: RECIPIENT_MODE,
			},
			{
				displayName: 'Changes',
				name: 'recipientChanges',
				type: 'multiOptions',
				options: [
					{ name: 'Signed', value: 'signed', description: 'The recipient status became signed' },
					{
						name: 'Any Other Status Change',
						value: 'other',
						description:
							'Any other new recipient status (approved, declined, ...), passed through as the service gives it',
					},
				],
				default: ['signed', 'other'],
				description: 'Which recipient status changes start a run',
				hint: 'Checked at the Poll Times above: one run per recipient action since the last check. Actions before the workflow is first published do not start it.',
				displayOptions: RECIPIENT_MODE,
			},
			{
				displayName: 'Trigger on Status',
				name: 'statuses',
				type: 'multiOptions',
				options: ENVELOPE_STATUS_OPTIONS,
				default: ['completed'],
				description:
					'Start when an envelope reaches one of these statuses (Completed: every signer signed)',
				hint: 'Checked at the Poll Times above: starts once for each envelope that reached a status since the last check. Envelopes already there when the workflow is first published do not start it.',
			},
			{
				displayName: 'Other Statuses',
				name: 'otherStatuses',
				type: 'string',
				default: '',
				placeholder: 'e.g. declined, expired',
				description:
					'Statuses your service uses beyond the list above, separated by commas; each is matched as the service writes it',
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
				displayName:
					'Only a completed envelope has a signed PDF: envelopes reaching another status chosen above start without a file, their <code>signedPdfSkipped</code> saying why',
				name: 'downloadOtherStatusesNotice',
				type: 'notice',
				default: '',
				displayOptions: {
					show: {
						event: ['statusReached'],
						downloadSignedPdf: [true],
						statuses: ENVELOPE_STATUS_OPTIONS.map((o) => o.value).filter((v) => v !== 'completed'),
					},
				},
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

	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Every parameter read by its declared type (a refused value fails the poll, naming it).
		const typed = withTypedParameters(this, DocumentSigningStatusTrigger.properties);
		return await pollTyped.call(typed);
	}

	/** The description's parameters, read by the typed reader. */
	static get properties(): INodeProperties[] {
		propertiesOnce ??= new DocumentSigningStatusTrigger().description.properties;
		return propertiesOnce;
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
