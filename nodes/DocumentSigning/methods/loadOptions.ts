import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { articleOptions } from '../actions/shared/estamp';

/** Article choices for the selected e-stamp state (no request: the catalog is bundled). */
export async function getEstampArticles(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const state = (this.getCurrentNodeParameter('estampState') as string | undefined) ?? '';
	return articleOptions(state);
}
