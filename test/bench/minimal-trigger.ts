/* Bench tooling, not published: a custom node n8n loads from a folder of its own, where only type imports resolve (so 'main', not NodeConnectionTypes), and it registers nothing anywhere */
/**
 * The least a community webhook trigger can be: no credential, no parameters read, no static
 * data; it starts a run with the body and n8n answers once the run exists (responseMode
 * onReceived, as the Document Signing Trigger). Loaded by the delivery bench as a custom node
 * (N8N_CUSTOM_EXTENSIONS), it shows what n8n itself costs per delivery for any webhook node
 * that is not its own Webhook node: n8n 2.41.1 skips the webhook phase's expression isolate
 * only for n8n-nodes-base.webhook (live-webhooks.js webhookPhaseNeedsIsolate).
 * MinimalRememberingTrigger adds the least a trigger that remembers each delivery before it is
 * answered can do: one small write to its static data when n8n reads the answer body (after the
 * execution exists in 2.x), which n8n saves before it answers (live-webhooks.js, the success
 * callback). It shows the floor of any exactly-once memory kept where n8n lets a webhook node
 * keep one. MinimalLargeRememberingTrigger saves 20 KB more with it, about what the Document
 * Signing Trigger's memory holds at 2,000 ids: what the size of a save costs. Plain JavaScript
 * once transpiled: only type imports.
 */
import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

/** The two nodes' description: a trigger with one POST webhook that n8n answers once the run exists. */
function minimalDescription(
	name: string,
	displayName: string,
	version: number | number[],
	description: string,
	webhook: Partial<IWebhookDescription> = {},
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['trigger'],
		version,
		description,
		defaults: { name: displayName },
		inputs: [],
		outputs: ['main'],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
				...webhook,
			},
		],
		properties: [],
	};
}

export class MinimalWebhookTrigger implements INodeType {
	// 1: n8n 2.41.1 evaluates the expression `$parameter["options"]["binaryData"]` on every
	// delivery to a webhook node of version 1 (webhook-helpers.js parseRequestBody); 1.1 not.
	description = minimalDescription(
		'minimalWebhookTrigger',
		'Minimal Webhook Trigger',
		[1, 1.1],
		'Starts a run with the request body (bench only)',
	);

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}

/**
 * The result of a delivery whose answer body, read by n8n once the run exists, writes the
 * body's id (and `also`) into the node's static data: n8n saves it, then answers.
 */
function rememberingResult(
	context: IWebhookFunctions,
	also: IDataObject = {},
): IWebhookResponseData {
	const body = context.getBodyData();
	const store = context.getWorkflowStaticData('node');
	const result: IWebhookResponseData = { workflowData: [[{ json: body }]] };
	// Written at the read, after run() has reset n8n's changed flag.
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: false,
		get: (): IDataObject => {
			Object.assign(store, also, { last: String(body.id ?? '') });
			return { received: true };
		},
	});
	return result;
}

export class MinimalRememberingTrigger implements INodeType {
	// responseData '': n8n answers with the result's webhookResponse, read once the run exists.
	description = minimalDescription(
		'minimalRememberingTrigger',
		'Minimal Remembering Trigger',
		1.1,
		'Starts a run with the request body and saves its id first (bench only)',
		{ responseData: '' },
	);

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return rememberingResult(this);
	}
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/**
 * 20,000 random base64url characters, as incompressible as hashed ids: about what the
 * Document Signing Trigger's memory saves at 2,000 ids.
 */
const LARGE_VALUE = Array.from(
	{ length: 20_000 },
	() => BASE64URL[Math.floor(Math.random() * 64)],
).join('');

/** The remembering trigger saving 20 KB more with each delivery: what the size of a save costs. */
export class MinimalLargeRememberingTrigger implements INodeType {
	description = minimalDescription(
		'minimalLargeRememberingTrigger',
		'Minimal Large Remembering Trigger',
		1.1,
		'Starts a run with the request body and saves its id and 20 KB first (bench only)',
		{ responseData: '' },
	);

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return rememberingResult(this, { large: LARGE_VALUE });
	}
}
