/**
 * The benchmark's workflows, one per contender, each started by a webhook: the body's
 * `items` are split into n8n items (or, at users' size, a CSV file is read and split into
 * one item per row), then the API calls of each item (a read; or a create, then the send of
 * what it created) run in one node or two, and the last node's items are the answer.
 */
import type { SandboxInfo, WorkflowFixture } from '../../scripts/lib/stack';

export const CREDENTIAL_ID = 'DsBenchCred00001';
export const PACKAGE_NODE = 'n8n-nodes-document-signing.documentSigning';

/** The API-calling nodes of every contender, by name (their time is the figure). */
export const CALL_NODES = ['First Call', 'Second Call'];

let counter = 0;
const nodeId = (n: number) =>
	`b3c4d5e6-0000-4000-8000-${String(++counter * 10 + n).padStart(12, '0')}`;

/**
 * Where a workflow's items come from: the webhook body's `items` (default), or `csv`, a CSV
 * file read from disk the way a user's scheduled workflow reads one (Read/Write Files from
 * Disk, then Extract From File), one item per row.
 */
export interface Source {
	csv?: string;
}

function workflow(
	id: string,
	name: string,
	path: string,
	calls: Array<Record<string, unknown>>,
	source: Source = {},
): WorkflowFixture {
	const items = source.csv
		? [
				{
					id: nodeId(1),
					name: 'Read CSV',
					type: 'n8n-nodes-base.readWriteFile',
					typeVersion: 1.1,
					position: [200, 0],
					parameters: {
						operation: 'read',
						fileSelector: source.csv,
						options: { dataPropertyName: 'data' },
					},
				},
				{
					id: nodeId(7),
					name: 'Rows',
					type: 'n8n-nodes-base.extractFromFile',
					typeVersion: 1.1,
					position: [300, 0],
					parameters: { operation: 'csv', binaryPropertyName: 'data', options: {} },
				},
			]
		: [
				{
					id: nodeId(1),
					name: 'Items',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [200, 0],
					parameters: { fieldToSplitOut: 'body.items', options: {} },
				},
			];
	const nodes: Array<Record<string, unknown>> = [
		{
			id: nodeId(0),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: nodeId(9),
			parameters: {
				httpMethod: 'POST',
				path,
				responseMode: 'lastNode',
				// At users' size (a CSV) the answer is the first item only: a scheduled batch answers nobody.
				responseData: source.csv ? 'firstEntryJson' : 'allEntries',
				options: {},
			},
		},
		...items,
		...calls.map((call, k) => ({
			id: nodeId(2 + k),
			position: [400 + 200 * k, 0],
			...call,
			name: CALL_NODES[k],
		})),
	];
	const connections: Record<string, unknown> = {};
	const order = nodes.map((n) => n.name as string);
	for (let k = 0; k < order.length - 1; k++) {
		connections[order[k]] = { main: [[{ node: order[k + 1], type: 'main', index: 0 }]] };
	}
	return { id, name, active: true, nodes, connections, settings: { executionOrder: 'v1' } };
}

const packageCredential = {
	documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing bench' },
};

/** This package's node: Get Status of each item's envelope (one GET per item), default settings. */
export function packageReadWorkflow(id: string, path: string): WorkflowFixture {
	return workflow(id, `Bench: this node, reads ${path}`, path, [
		{
			type: PACKAGE_NODE,
			typeVersion: 1,
			credentials: packageCredential,
			onError: 'continueRegularOutput',
			parameters: {
				resource: 'envelope',
				operation: 'getStatus',
				envelopeId: { __rl: true, mode: 'id', value: '={{ $json.envelopeId }}' },
			},
		},
	]);
}

/** n8n's HTTP Request node: GET the status of each item's envelope; `options` such as batching. */
export function httpReadWorkflow(
	id: string,
	path: string,
	sandbox: SandboxInfo,
	options: Record<string, unknown> = {},
): WorkflowFixture {
	return workflow(id, `Bench: HTTP Request, reads ${path}`, path, [
		{
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				method: 'GET',
				url: `=${sandbox.baseUrl}/envelopes/{{ $json.envelopeId }}/status`,
				sendHeaders: true,
				headerParameters: {
					parameters: [{ name: 'Authorization', value: `Bearer ${sandbox.apiKey}` }],
				},
				options,
			},
		},
	]);
}

/** getMany with Return All. */
export function listWorkflow(id: string, path: string): WorkflowFixture {
	return workflow(id, 'Bench: get many, return all', path, [
		{
			type: PACKAGE_NODE,
			typeVersion: 1,
			credentials: packageCredential,
			parameters: { resource: 'envelope', operation: 'getMany', returnAll: true },
		},
	]);
}

/** The template every document of the template scenarios comes from (scripts/lib/example-data.ts). */
export const TEMPLATE_ID = 'tpl_example_lease';
const TENANT = { name: 'Ravi Kumar', email: 'ravi@example.com' };
const LANDLORD = { name: 'Kiran Desai', email: 'landlord@example.com' };

const mapper = (value: Record<string, unknown>, ids: Array<[string, string]>) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: ids.map(([id, type]) => ({
		id,
		displayName: id,
		required: false,
		defaultMatch: false,
		display: true,
		type,
		canBeUsedToMatch: false,
	})),
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** The tenant of each document: fixed, or the row's `name` and `email` when the items come from a CSV. */
const tenantOf = (source: Source) =>
	source.csv ? { name: '={{ $json.name }}', email: '={{ $json.email }}' } : TENANT;

/**
 * This package's node: Create Document from the template with Send Immediately, so one
 * node makes both calls for each item (the way the node is meant to be used for this).
 */
export function packageTemplateWorkflow(
	id: string,
	path: string,
	batching: Record<string, number>,
	credential: { id: string; name: string } = packageCredential.documentSigningApi,
	source: Source = {},
): WorkflowFixture {
	const tenant = tenantOf(source);
	const common = {
		type: PACKAGE_NODE,
		typeVersion: 1,
		credentials: { documentSigningApi: credential },
		onError: 'continueRegularOutput',
	};
	return workflow(
		id,
		`Bench: this node, template documents ${path}`,
		path,
		[
			{
				...common,
				parameters: {
					resource: 'template',
					operation: 'createDocument',
					templateId: { __rl: true, mode: 'id', value: TEMPLATE_ID },
					title: '={{ $json.title }}',
					recipientMapping: mapper(
						{
							'tenant.name': tenant.name,
							'tenant.email': tenant.email,
							'landlord.name': LANDLORD.name,
							'landlord.email': LANDLORD.email,
						},
						[
							['tenant.name', 'string'],
							['tenant.email', 'string'],
							['landlord.name', 'string'],
							['landlord.email', 'string'],
						],
					),
					prefill: mapper({ property_address: '12 MG Road', monthly_rent: 25000 }, [
						['property_address', 'string'],
						['monthly_rent', 'number'],
					]),
					sendImmediately: true,
					batching,
				},
			},
		],
		source,
	);
}

/** The body of POST /templates/{id}/documents for one title (the HTTP Request and raw contenders). */
export function documentBody(
	title: string,
	tenant: { name: string; email: string } = TENANT,
): Record<string, unknown> {
	return {
		title,
		recipientMapping: [
			{ templateRecipientId: 'tenant', ...tenant },
			{ templateRecipientId: 'landlord', ...LANDLORD },
		],
		prefillValues: [
			{ fieldId: 'f-address', fieldKey: 'property_address', value: '12 MG Road' },
			{ fieldId: 'f-rent', fieldKey: 'monthly_rent', value: 25000 },
		],
	};
}

/** n8n's HTTP Request node: create the document from the template, then send it. */
export function httpTemplateWorkflow(
	id: string,
	path: string,
	sandbox: SandboxInfo,
	options: Record<string, unknown> = {},
	settings: Record<string, unknown> = {},
	source: Source = {},
): WorkflowFixture {
	const auth = {
		sendHeaders: true,
		headerParameters: {
			parameters: [{ name: 'Authorization', value: `Bearer ${sandbox.apiKey}` }],
		},
	};
	const common = { type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, ...settings };
	const tenant = source.csv ? { name: 'NAME', email: 'EMAIL' } : TENANT;
	const body = JSON.stringify(documentBody('TITLE', tenant))
		.replace('"TITLE"', '$json.title')
		.replace('"NAME"', '$json.name')
		.replace('"EMAIL"', '$json.email');
	return workflow(
		id,
		`Bench: HTTP Request, template documents ${path}`,
		path,
		[
			{
				...common,
				parameters: {
					method: 'POST',
					url: `${sandbox.baseUrl}/templates/${TEMPLATE_ID}/documents`,
					...auth,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: `={{ JSON.stringify(${body}) }}`,
					options,
				},
			},
			{
				...common,
				parameters: {
					method: 'POST',
					url: `=${sandbox.baseUrl}/documents/{{ $json.envelopeId }}/send`,
					...auth,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '{}',
					options,
				},
			},
		],
		source,
	);
}
