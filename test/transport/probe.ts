/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/require-node-api-error -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * A test-only node that calls the shared API module directly from a real n8n execution
 * context, so transport, pagination and upload are exercised exactly as operations use
 * them. Parameter `call` picks the function; `args` (JSON, per item) holds its arguments.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { inspect } from 'util';

import { apiRequestAllItems } from '../../nodes/shared/http/pagination';
import { apiRequest } from '../../nodes/shared/http/transport';
import type { Resolver } from '../../nodes/shared/guard/addressGuard';
import { fetchGuarded } from '../../nodes/shared/files/guardedFetch';
import {
	MAX_PDF_BYTES,
	readPdfFromItem,
	readPdfFromUrl,
	uploadPdf,
} from '../../nodes/shared/files/upload';
import { actionNode } from '../harness';

export const PROBE_TYPE = 'transportProbe';

export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: PROBE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Calls the shared API module',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentSigningApi', required: true }],
		properties: [
			{ displayName: 'Call', name: 'call', type: 'string', default: 'request' },
			{ displayName: 'Args', name: 'args', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const raw = this.getNodeParameter('args', i);
			const args = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject;
			try {
				output.push({
					json: await runCall.call(this, i, args),
					pairedItem: { item: i },
				});
			} catch (error) {
				if (!args.captureError) throw error;
				// The live error object, before n8n serialises it: everything it holds, inspected.
				const live = {
					name: (error as Error).constructor.name,
					message: (error as Error).message,
					json: JSON.stringify(error),
					inspected: inspect(error, { depth: 12, showHidden: true }),
				};
				output.push({ json: live, pairedItem: { item: i } });
			}
		}
		return [output];
	}
}

async function runCall(
	this: IExecuteFunctions,
	i: number,
	args: IDataObject,
): Promise<IDataObject> {
	const call = this.getNodeParameter('call', i) as string;
	let json: IDataObject;
	if (call === 'request') {
		json = (await apiRequest.call(
			this,
			args.method as IHttpRequestMethods,
			args.endpoint as string,
			{
				body: args.body as IDataObject | undefined,
				qs: args.qs as IDataObject | undefined,
				idempotent: args.idempotent as boolean | undefined,
				oncePerRun: args.oncePerRun as boolean | undefined,
				itemIndex: i,
			},
		)) as IDataObject;
	} else if (call === 'allItems') {
		const items = await apiRequestAllItems.call(
			this,
			args.endpoint as string,
			(args.qs as IDataObject) ?? {},
			{
				returnAll: args.returnAll as boolean,
				limit: args.limit as number | undefined,
			},
		);
		json = {
			count: items.length,
			ids: items.map((item) => (item as IDataObject).id),
		};
	} else if (call === 'readPdf' || call === 'upload') {
		const pdf = await readPdfFromItem.call(this, i, (args.property as string) ?? 'data');
		json = { fileName: pdf.fileName, mimeType: pdf.mimeType, size: pdf.size };
		if (call === 'upload') {
			const upload = args.upload as {
				url: string;
				fields?: Record<string, string>;
			};
			json.result = await uploadPdf.call(
				this,
				upload,
				pdf,
				(args.method as 'post' | 'put') ?? 'post',
			);
		}
	} else if (call === 'readPdfUrl') {
		const pdf = await readPdfFromUrl.call(this, i, args.url, args.allowInternal === true);
		json = { fileName: pdf.fileName, size: pdf.size };
	} else if (call === 'fetchGuarded') {
		// `hosts` plays the name server: { name: address } (a test cannot edit the machine's).
		const hosts = (args.hosts ?? {}) as Record<string, string>;
		const resolver: Resolver = async (name) => {
			const address = hosts[name];
			if (!address)
				throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
			return [{ address, family: address.includes(':') ? 6 : 4 }];
		};
		// `asN8n1`: the helpers as n8n 1.x gives them, without a name lookup for nodes.
		const context = args.asN8n1
			? (Object.create(this, {
					helpers: { value: { ...this.helpers, getSecureEgressFilter: undefined } },
				}) as IExecuteFunctions)
			: this;
		const fetched = await fetchGuarded.call(context, args.url as string, {
			field: 'PDF URL',
			rule: (args.rule as 'user' | 'service') ?? 'user',
			allowInternal: args.allowInternal === true,
			maxBytes: (args.maxBytes as number) ?? MAX_PDF_BYTES,
			itemIndex: i,
			// Without `hosts`, n8n's own lookup (the one nodes get) answers.
			resolver: args.hosts ? resolver : undefined,
		});
		json = { size: fetched.buffer.length, url: fetched.url.href };
	} else {
		throw new Error(`unknown call ${call}`);
	}
	return json;
}

/** A probe node in a harness workflow. */
export function probeNode(call: string, args: IDataObject | string) {
	return {
		...actionNode({}, { name: 'Probe' }),
		id: 'probe',
		type: PROBE_TYPE,
		parameters: {
			call,
			args: typeof args === 'string' ? args : JSON.stringify(args),
		},
	};
}
