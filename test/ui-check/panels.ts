/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- local tooling: reads the built nodes of dist/, not published (package.json "files" is dist/ only) */
/**
 * The panels the editor check opens, derived from the built node descriptions (dist/), so a
 * new resource, operation, parameter or loader is covered without editing this file.
 *
 * For every node of package.json's `n8n.nodes`: one panel per combination of the options
 * that have `noDataExpression` and drive `displayOptions` (resource and operation for the
 * action node), plus, where it shows more, the same panel with every gate opened: each
 * boolean that shows other parameters set to true, each option that shows other
 * parameters set to the first value those parameters name, each multi-option that shows
 * other parameters set to all its values.
 */
import path from 'path';
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ROOT } from '../../scripts/lib/stack';

export interface Panel {
	/** `Resource › Operation` as the editor shows them, or the node name for a trigger. */
	title: string;
	/** A file-name-safe id: node, resource, operation, variant. */
	id: string;
	nodeType: string;
	description: INodeTypeDescription;
	parameters: INodeParameters;
}

/** A parameter the editor must render, with what it loads, if anything. */
export interface Expected {
	name: string;
	displayName: string;
	type: string;
	/** Loader method names: options (`loadOptionsMethod`), list search, resource mapper. */
	loadOptions?: string;
	searchList?: string;
	resourceMapper?: string;
	/** Loaders inside the entries of this list or collection (added with its Add button). */
	nested?: Array<{ name: string; displayName: string; entry: string; loadOptions: string }>;
}

/** Options loaders inside a fixed collection's entries or a collection's options. */
function nestedLoaders(property: INodeProperties): Expected['nested'] {
	const found: NonNullable<Expected['nested']> = [];
	for (const option of property.options ?? []) {
		const inner =
			'values' in option ? (option.values as INodeProperties[]) : [option as INodeProperties];
		for (const value of inner) {
			const method = value.typeOptions?.loadOptionsMethod;
			if (method && 'displayName' in option)
				found.push({
					name: value.name,
					displayName: value.displayName,
					entry: String(option.displayName),
					loadOptions: method,
				});
		}
	}
	return found.length > 0 ? found : undefined;
}

export function nodeDescriptions(): Array<{ type: string; description: INodeTypeDescription }> {
	const pkg = require(path.join(ROOT, 'package.json')) as {
		name: string;
		n8n: { nodes: string[] };
	};
	return pkg.n8n.nodes.map((file) => {
		const exports = require(path.join(ROOT, file)) as Record<
			string,
			new () => { description: INodeTypeDescription }
		>;
		const NodeClass = Object.values(exports)[0];
		const description = new NodeClass().description;
		return { type: `${pkg.name}.${description.name}`, description };
	});
}

/** The fields of the package's credential (package.json's `n8n.credentials`), as its form shows them. */
export function credentialFields(): Array<{ name: string; displayName: string }> {
	const pkg = require(path.join(ROOT, 'package.json')) as { n8n: { credentials: string[] } };
	const exports = require(path.join(ROOT, pkg.n8n.credentials[0])) as Record<
		string,
		new () => { properties: INodeProperties[] }
	>;
	const properties = new (Object.values(exports)[0])().properties;
	return properties
		.filter((p) => p.type !== 'hidden' && p.type !== 'notice')
		.map((p) => ({ name: p.name, displayName: p.displayName }));
}

const shownBy = (properties: INodeProperties[], name: string): unknown[] =>
	properties.flatMap((p) => (p.displayOptions?.show?.[name] as unknown[] | undefined) ?? []);

function optionLabel(property: INodeProperties | undefined, value: unknown): string {
	const option = property?.options?.find((o) => 'value' in o && o.value === value);
	return option && 'name' in option ? option.name : String(value);
}

/** The version the editor gives a new node (saved workflows of older versions keep theirs). */
export const latestVersion = (description: INodeTypeDescription): number =>
	Math.max(...[description.version].flat());

const slug = (text: string) =>
	text
		.replace(/[^A-Za-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.toLowerCase();

/** The parameters shown for these values (top level, as the panel lists them). */
export function visibleParameters(
	description: INodeTypeDescription,
	parameters: INodeParameters,
): Expected[] {
	const values =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			{ typeVersion: latestVersion(description) },
			description,
		) ?? {};
	return description.properties
		.filter(
			(p) =>
				p.type !== 'hidden' &&
				NodeHelpers.displayParameter(
					values,
					p,
					{ typeVersion: latestVersion(description) },
					description,
				),
		)
		.map((p) => ({
			name: p.name,
			displayName: p.displayName,
			type: p.type,
			loadOptions: p.typeOptions?.loadOptionsMethod,
			searchList: p.modes?.find((m) => m.typeOptions?.searchListMethod)?.typeOptions
				?.searchListMethod,
			resourceMapper: p.typeOptions?.resourceMapper?.resourceMapperMethod,
			nested:
				p.type === 'fixedCollection' || p.type === 'collection' ? nestedLoaders(p) : undefined,
		}));
}

/** The values that open every gate shown for `base` (see the file comment). */
function openGates(description: INodeTypeDescription, base: INodeParameters): INodeParameters {
	const properties = description.properties;
	const opened: INodeParameters = { ...base };
	// Gates can nest (a state shown only once e-stamping is on): open them in rounds.
	for (let round = 0; round < 4; round++) {
		for (const p of visibleParameters(description, opened)) {
			if (p.name in base || p.name in opened) continue;
			const property = properties.find((q) => q.name === p.name && q.type === p.type);
			const shown = shownBy(properties, p.name);
			if (!property || shown.length === 0) continue;
			if (property.type === 'boolean' && shown.includes(true)) opened[p.name] = true;
			if (property.type === 'options') {
				const value = shown.find(
					(v) =>
						v !== property.default && property.options?.some((o) => 'value' in o && o.value === v),
				);
				if (value !== undefined) opened[p.name] = value as string;
			}
			if (property.type === 'multiOptions')
				opened[p.name] = (property.options ?? []).map((o) =>
					'value' in o ? o.value : '',
				) as string[];
		}
	}
	return opened;
}

/** Every panel of every node of the package. */
export function panels(): Panel[] {
	const result: Panel[] = [];
	for (const { type, description } of nodeDescriptions()) {
		const properties = description.properties;
		// The selectors that drive the rest: resource, then operation (per resource).
		const resource = properties.find((p) => p.name === 'resource' && p.type === 'options');
		const resources = resource?.options?.map((o) => ('value' in o ? (o.value as string) : '')) ?? [
			undefined,
		];
		for (const resourceValue of resources) {
			const scope: INodeParameters = resourceValue === undefined ? {} : { resource: resourceValue };
			const operation = properties.find(
				(p) =>
					p.name === 'operation' &&
					p.type === 'options' &&
					NodeHelpers.displayParameter(
						scope,
						p,
						{ typeVersion: latestVersion(description) },
						description,
					),
			);
			const operations = operation?.options?.map((o) =>
				'value' in o ? (o.value as string) : '',
			) ?? [undefined];
			for (const operationValue of operations) {
				const base: INodeParameters =
					operationValue === undefined ? { ...scope } : { ...scope, operation: operationValue };
				const title = [
					description.displayName,
					resourceValue && optionLabel(resource, resourceValue),
					operationValue && optionLabel(operation, operationValue),
				]
					.filter(Boolean)
					.join(' › ');
				const id = slug(
					[description.name, resourceValue, operationValue].filter(Boolean).join('-'),
				);
				result.push({ title, id, nodeType: type, description, parameters: base });
				const opened = openGates(description, base);
				const names = (values: INodeParameters) =>
					visibleParameters(description, values)
						.map((p) => p.name)
						.join();
				if (names(opened) !== names(base)) {
					const gates = Object.keys(opened).filter((k) => !(k in base));
					result.push({
						title: `${title} (with ${gates.join(', ')})`,
						id: `${id}-open`,
						nodeType: type,
						description,
						parameters: opened,
					});
				}
			}
		}
	}
	return result;
}
