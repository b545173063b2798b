import type { INodeProperties, NodeHint } from 'n8n-workflow';

import * as credit from './credit/Credit.resource';
import * as envelope from './envelope/Envelope.resource';
import * as template from './template/Template.resource';
import type { DocumentSigningResource } from './node.type';
import { safeguardProperties } from './shared/safeguards';
import { outputProperties } from './shared/output';
import { toolDescriptionProperties } from './shared/toolDescriptions';
import * as workflow from './workflow/Workflow.resource';

/**
 * A resource module (`<resource>/<Resource>.resource.ts`): its `description` (the
 * operation dropdown and every operation's parameters), optionally node `hints` (each
 * with a display condition naming its operation), and one export per operation value,
 * each an OperationModule.
 */
export type ResourceModule = { description: INodeProperties[]; hints?: NodeHint[] } & Record<
	string,
	unknown
>;

/**
 * The node's resources. Adding a resource is one import and one entry here: the node's
 * Resource dropdown, its parameters and the router all follow.
 */
const RESOURCES: Array<{ name: string; value: DocumentSigningResource; module: ResourceModule }> = [
	{ name: 'Envelope', value: 'envelope', module: envelope },
	{ name: 'Template', value: 'template', module: template },
	{ name: 'Signing Workflow', value: 'workflow', module: workflow },
	{ name: 'Credit', value: 'credit', module: credit },
];

/** Resource modules by resource value, for the router. */
export const resourceModules: Partial<Record<string, ResourceModule>> = Object.fromEntries(
	RESOURCES.map(({ value, module }) => [value, module]),
);

/** The Resource dropdown (alphabetical, as n8n lists options) and every resource's parameters. */
export const resourceProperties: INodeProperties[] = [
	// First, where n8n puts its own tool description (tool variant only).
	...toolDescriptionProperties,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCES.map(({ name, value }) => ({ name, value })).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
		default: 'envelope',
	},
	...RESOURCES.flatMap(({ module }) => module.description),
	...safeguardProperties,
	...outputProperties,
];

/** Every resource's node hints (n8n shows each where its display condition holds). */
export const resourceHints: NodeHint[] = RESOURCES.flatMap(({ module }) => module.hints ?? []);
