import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { WorkflowRunSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { checkAllowedRecipients } from '../shared/allowedRecipients';
import { readSigningLinks, refuseSendWhenDraftOnly } from '../shared/safeguards';
import { inputError, validateInput } from '../../../shared/api/validation';
import { compact, inputModeProperty, readJsonList, readText } from '../shared/params';
import { withEnvelopeId } from '../shared/envelopeId';
import { getWorkflowId, workflowIdProperty } from '../shared/locators';

const show = { resource: ['workflow'], operation: ['run'] };

const properties: INodeProperties[] = [
	{
		...workflowIdProperty,
		hint: 'Runs its latest published version. Outputs the created envelope and its approval state.',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Sale of 12 MG Road',
		description:
			'Title of the envelopes of this run (with several documents, each title ends with the document label)',
	},
	inputModeProperty({
		displayName: 'Recipients Input',
		name: 'recipientsInput',
		fields: 'Enter one recipient per participant below',
		json: 'An array of recipients, e.g. mapped from a previous node',
	}),
	{
		displayName: 'Recipients',
		name: 'runRecipients',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Recipient',
		default: {},
		description:
			'One recipient per participant of the workflow (every required participant needs one)',
		displayOptions: { show: { recipientsInput: ['fields'] } },
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				values: [
					{
						displayName: 'Participant Name or ID',
						name: 'participantKey',
						type: 'options',
						typeOptions: {
							loadOptionsMethod: 'getWorkflowParticipants',
							loadOptionsDependsOn: ['workflowId.value'],
						},
						default: '',
						required: true,
						description:
							'A participant of the latest published version. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						hint: 'The list shows the participants of the published version. If it stays empty, type the participant key as an expression (e.g. buyer): the run works without the list.',
					},
					{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						default: '',
						placeholder: 'e.g. name@email.com',
						hint: 'An email, a phone or both: at least one is needed',
					},
					{
						displayName: 'Phone',
						name: 'phone',
						type: 'string',
						default: '',
						placeholder: 'e.g. +919876543210',
						description: 'In international format (E.164)',
					},
				],
			},
		],
	},
	{
		displayName: 'Recipients (JSON)',
		name: 'recipientsJson',
		type: 'json',
		default:
			'[\n  { "participantKey": "buyer", "name": "Asha Rao", "email": "asha@example.com" }\n]',
		required: true,
		description: 'Array of { participantKey, name, email and/or phone }',
		displayOptions: { show: { recipientsInput: ['json'] } },
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotency',
		type: 'options',
		options: [
			{
				name: 'Automatic',
				value: 'auto',
				description:
					'From this execution, node and item: a retry of the node (Retry On Fail) or a resend after a lost answer returns the same run instead of starting another',
			},
			{
				name: 'Custom',
				value: 'custom',
				description: 'Your own key, e.g. an order number: one run per key, across executions',
			},
			{
				name: 'None',
				value: 'none',
				description: 'No key: a retry or a lost answer can start a second run with new envelopes',
			},
		],
		default: 'auto',
	},
	{
		displayName: 'Custom Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.orderId }}',
		description:
			'Up to 255 characters. The service answers a repeated key with the first run of this workflow.',
		displayOptions: { show: { idempotency: ['custom'] } },
	},
];

export const description = updateDisplayOptions({ show }, properties);

/** The key of an Automatic run: the same for every try of this item in this execution. */
export function automaticKey(this: IExecuteFunctions, i: number): string {
	const workflow = this.getWorkflow();
	return ['n8n', workflow.id ?? '', this.getExecutionId(), this.getNode().id, i].join(':');
}

function readRunRecipients(this: IExecuteFunctions, i: number): unknown {
	if (this.getNodeParameter('recipientsInput', i, 'fields') === 'json') {
		return (
			readJsonList.call(
				this,
				'recipientsJson',
				i,
				'Recipients (JSON)',
				'recipients',
				'recipients',
			) ?? []
		);
	}
	const rows = (this.getNodeParameter('runRecipients.recipient', i, []) as IDataObject[]) ?? [];
	return rows.map((row) => compact(row) ?? {});
}

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const workflowId = getWorkflowId.call(this, i);
	// A run creates and sends its envelope (the specification has no draft run).
	refuseSendWhenDraftOnly.call(
		this,
		i,
		`signing workflow ${workflowId} was not run (a run sends its envelope)`,
	);
	const mode = this.getNodeParameter('idempotency', i, 'auto') as string;
	let idempotencyKey: string | undefined;
	if (mode === 'custom') idempotencyKey = readText.call(this, 'idempotencyKey', i, 'Custom Key');
	else if (mode === 'auto') idempotencyKey = automaticKey.call(this, i);
	if (mode === 'custom' && !idempotencyKey) {
		throw inputError(
			this.getNode(),
			'Custom Key: an idempotency key is required (or choose Automatic)',
			i,
		);
	}

	const body = {
		title: readText.call(this, 'title', i, 'Title'),
		recipients: readRunRecipients.call(this, i),
		...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
	};
	const checked = validateInput(this, WorkflowRunSchema, body, i, 'run');
	checkAllowedRecipients.call(this, i, checked.recipients, 'Recipients');
	const asSet = readSigningLinks.call(this, i);

	// No read of the workflow first: its path is not in the specification and a run needs
	// only workflows:write. The service checks the participant keys and answers by name.
	// With a key the service answers a repeat with the first run: safe to resend.
	const response = (await apiRequest.call(this, 'POST', apiPath('workflowRuns', workflowId), {
		body: checked as IDataObject,
		itemIndex: i,
		idempotent: checked.idempotencyKey !== undefined,
	})) as IDataObject;
	return [{ json: asSet(withEnvelopeId(response)) }];
}
