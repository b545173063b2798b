import type { INodeProperties } from 'n8n-workflow';

/**
 * The action node's versions. 1.1 changed defaults that saved workflows of 1 rely on (a
 * default is not stored with a workflow): version 1 keeps them. 1.2 adds Output in place of
 * Simplify and hides Batching on the tool; new nodes get 1.2.
 * docs/saved-workflows.md says how to add a version; test/snapshots holds each one.
 */
export const NODE_VERSIONS = [1, 1.1, 1.2];

/** The `@version` condition of 1.1 and later. */
export const FROM_1_1 = { _cnd: { gte: 1.1 } };

/** The `@version` conditions of 1.2 and later (Output, no Batching on the tool), and before. */
export const FROM_1_2 = { _cnd: { gte: 1.2 } };
export const UP_TO_1_1 = { _cnd: { lte: 1.1 } };

/** A parameter whose default changed in 1.1: version 1 keeps `v1Default`. */
export function defaultChangedIn1_1(
	property: INodeProperties,
	v1Default: INodeProperties['default'],
): INodeProperties[] {
	const show = property.displayOptions?.show ?? {};
	return [
		{
			...property,
			default: v1Default,
			displayOptions: {
				...property.displayOptions,
				show: { ...show, '@version': [1] },
			},
		},
		{
			...property,
			displayOptions: {
				...property.displayOptions,
				show: { ...show, '@version': [FROM_1_1] },
			},
		},
	];
}
