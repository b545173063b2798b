/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * A user starting from an example gets what a new node gets: every action node (and tool) in
 * examples/ is of the newest version (Output = Simplified, not the older Simplify switch), and
 * every parameter an example stores is one that version shows.
 */
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';

const DIR = path.join(__dirname, '..', '..', 'examples');
const PACKAGE = 'n8n-nodes-document-signing';
const ACTION = `${PACKAGE}.documentSigning`;
const action = new DocumentSigning().description;
const newest = Math.max(...[action.version].flat());

/** [example file, node] for every action node and tool of the examples. */
const nodes = readdirSync(DIR)
	.filter((file) => file.endsWith('.json'))
	.flatMap((file) =>
		(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as { nodes: INode[] }).nodes
			.filter((node) => node.type === ACTION || node.type === `${ACTION}Tool`)
			.map((node) => [`${file}: ${node.name}`, node] as const),
	);
/** The description n8n gives the node: the tool variant's name ends with Tool (its `@tool`). */
const descriptionOf = (node: INode): INodeTypeDescription =>
	node.type === ACTION ? action : { ...action, name: `${action.name}Tool` };

describe('the examples use the newest node versions', () => {
	it('finds the action node in the examples that send a PDF, e-stamp, run the CSV batch and watch credits', () => {
		const files = new Set(
			nodes
				.filter(([, n]) => n.type === `${PACKAGE}.documentSigning`)
				.map(([w]) => w.split(':')[0]),
		);
		for (const file of [
			'send-pdf-for-signature.json',
			'send-estamped-pdf.json',
			'scheduled-batch-from-csv.json',
			'low-credit-alert.json',
		])
			expect(files).toContain(file);
	});

	it.each(nodes)('%s is of its newest version', (_where, node) => {
		expect(node.typeVersion).toBe(newest);
	});

	it.each(nodes)('%s stores only parameters its version shows', (_where, node) => {
		const description = descriptionOf(node);
		const shown = NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) as INodeParameters;
		expect(Object.keys(node.parameters).filter((name) => !(name in (shown ?? {})))).toEqual([]);
	});
});
