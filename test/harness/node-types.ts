/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The node types a harness workflow can use: this package's nodes, imported from source,
 * and "Seed", a start node that emits given items. Seed stores binary data through n8n's
 * `prepareBinaryData`, so nodes downstream read it as they would in n8n.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	INodeTypeDescription,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';

export const SEED_NODE_TYPE = 'harnessSeed';

/** An item to seed: JSON plus binary properties given as bytes. */
export interface SeedItem {
	json: IDataObject;
	binary?: Record<string, { data: Buffer; fileName?: string; mimeType?: string }>;
}

// Seed items live here, not in node parameters, so large files stay out of the workflow.
const seeds = new Map<string, SeedItem[]>();
let seedCount = 0;

export function registerSeed(items: SeedItem[]): string {
	const key = `seed-${++seedCount}`;
	seeds.set(key, items);
	return key;
}

class Seed implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Seed',
		name: SEED_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits the items given to the harness',
		defaults: { name: 'Seed' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Seed Key', name: 'seedKey', type: 'string', default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = seeds.get(this.getNodeParameter('seedKey', 0) as string) ?? [];
		const output: INodeExecutionData[] = [];
		for (const [index, item] of items.entries()) {
			const out: INodeExecutionData = { json: item.json, pairedItem: { item: index } };
			if (item.binary) {
				out.binary = {};
				for (const [property, file] of Object.entries(item.binary)) {
					out.binary[property] = await this.helpers.prepareBinaryData(
						file.data,
						file.fileName,
						file.mimeType,
					);
				}
			}
			output.push(out);
		}
		return [output];
	}
}

const types: Record<string, INodeType | IVersionedNodeType> = {
	documentSigning: new DocumentSigning(),
	[SEED_NODE_TYPE]: new Seed(),
};

/** Adds a node type (e.g. a test-only node) under `name`. */
export function addNodeType(name: string, type: INodeType): void {
	types[name] = type;
}

export const nodeTypes: INodeTypes = {
	getByName: (name) => lookup(name),
	getByNameAndVersion: (name) => lookup(name) as INodeType,
	getKnownTypes: () => ({}),
};

function lookup(name: string): INodeType | IVersionedNodeType {
	const type = types[name.replace(/^.*\./, '')];
	if (!type) throw new Error(`Unknown node type "${name}"`);
	return type;
}
