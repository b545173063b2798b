import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { isToolRun } from '../../../shared/runCache';

/**
 * The "Simplify" option of the operations whose answers are long: the fields a person or
 * an AI agent acts on instead of the whole answer. Off by default on the regular node, so
 * saved workflows keep their output; on by default on the tool variant, whose output
 * goes only to the AI model (no later node reads it) and should stay short.
 * Everything here reads what the API returned and keeps only what is present.
 */

type Json = IDataObject;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);

/** `source` with only `keys` (absent keys stay absent). */
function pick(source: unknown, keys: string[]): Json {
	const from = obj(source);
	const out: Json = {};
	for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
	return out;
}

/** A workflow answer may hold the definition and its versions, or be the definition itself. */
function workflowParts(json: Json): { definition: Json; config: Json } {
	const definition = json.definition ? obj(json.definition) : json;
	const versions = list(json.versions);
	const version = obj(
		json.publishedVersion ?? json.latestVersion ?? json.version ?? versions.find((v) => v.status === 'published') ?? versions.at(-1),
	);
	return { definition, config: obj(version.config ?? json.config) };
}

const SIMPLIFIERS: Record<string, Record<string, (json: Json) => Json>> = {
	envelope: {
		getMany: (json) => pick(json, ['id', 'title', 'status', 'totalRecipients', 'completedActions', 'updatedAt']),
		getStatus: (json) => {
			const out = pick(json, ['envelopeId', 'status', 'percentage', 'completedCount', 'totalRecipients']);
			out.recipients = list(json.recipients).map((r) => pick(r, ['name', 'email', 'status', 'signedAt']));
			if (json.estamp) out.estamp = pick(json.estamp, ['status', 'certificateId', 'lastError']);
			return out;
		},
		getFields: (json) => ({
			...pick(json, ['envelopeId', 'total']),
			fields: list(json.items).map((f) => pick(f, ['id', 'fieldKey', 'type', 'label', 'required', 'pageNumber', 'recipientId'])),
		}),
	},
	template: {
		getMany: (json) => pick(json, ['id', 'name', 'status', 'recipientsCount', 'usageCount', 'updatedAt']),
		get: (json) => {
			const fields = list(json.formFields);
			return {
				...pick(json, ['id', 'name', 'description', 'status', 'usageCount', 'updatedAt']),
				roles: list(json.recipients).map((r) => pick(r, ['id', 'name', 'role', 'order'])),
				prefillFields: fields
					.filter((f) => obj(f.assignee).type === 'sender_prefill')
					.map((f) => pick(f, ['fieldKey', 'label', 'type', 'required', 'defaultValue'])),
				fieldCount: fields.length,
			};
		},
		getDocumentPayload: (json) => ({
			...pick(json, ['templateId', 'title']),
			recipientMapping: list(json.recipientMapping).map((r) => pick(r, ['templateRecipientId', 'name', 'email', 'phone'])),
			prefillValues: list(json.prefillValues).map((p) => pick(p, ['fieldKey', 'value'])),
		}),
	},
	workflow: {
		getMany: (json) =>
			pick(workflowParts(json).definition, ['id', 'name', 'status', 'latestPublishedVersion', 'updatedAt']),
		get: (json) => {
			const { definition, config } = workflowParts(json);
			return {
				...pick(definition, ['id', 'name', 'description', 'status', 'latestPublishedVersion', 'updatedAt']),
				documents: list(config.documents).map((d) => pick(d, ['templateId', 'label', 'required'])),
				participants: list(config.participants).map((p) => pick(p, ['key', 'label', 'role', 'order'])),
			};
		},
	},
	credit: {
		getTransactions: (json) => pick(json, ['id', 'type', 'amount', 'balanceAfter', 'reason', 'envelopeId', 'createdAt']),
	},
};

const DESCRIPTION = 'Whether to return a simplified version of the response instead of the raw data';

/** The Simplify toggle of each operation above: off on the node, on on its tool variant. */
export const simplifyProperties: INodeProperties[] = Object.entries(SIMPLIFIERS).flatMap(([resource, operations]) =>
	Object.keys(operations).flatMap((operation): INodeProperties[] => [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description: DESCRIPTION,
			displayOptions: { show: { '@tool': [false], resource: [resource], operation: [operation] } },
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: DESCRIPTION,
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		},
	]),
);

/** The operation's output items, simplified when the item's Simplify is on (binary data kept). */
export function simplifyOutput(this: IExecuteFunctions, i: number, items: INodeExecutionData[]): INodeExecutionData[] {
	const resource = this.getNodeParameter('resource', i) as string;
	const operation = this.getNodeParameter('operation', i) as string;
	const simplifier = SIMPLIFIERS[resource]?.[operation];
	const isTool = isToolRun(this);
	if (!simplifier || !(this.getNodeParameter('simplify', i, isTool) as boolean)) return items;
	return items.map((item) => ({ ...item, json: simplifier(item.json) }));
}
