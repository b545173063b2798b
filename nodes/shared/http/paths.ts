import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ASSUMPTIONS_URL } from '../api/assumptions';
import { apiErrorFields } from './errors';
import { ENDPOINTS } from '../api/endpoints';
import type { GuessedEndpoint } from '../api/pathSettings';
import { GUESSED_PATHS, WHERE } from '../api/pathSettings';
import { credentialsOf } from '../run/runCache';
import { type ApiContext, CREDENTIAL_TYPE } from '../run/context';
import type { ApiRequestOptions } from './transport';
import { apiRequest } from './transport';

/** Where a guessed path is set, for messages. */
export function pathSetting(endpoint: GuessedEndpoint): string {
	return `"${GUESSED_PATHS[endpoint].label}" in ${WHERE}`;
}

/**
 * The path of a guessed endpoint as the credential sets it (the guess when empty), with
 * `{workflowId}` filled. A path must stay under the Base URL: the API key goes nowhere else.
 */
export async function guessedPath(
	this: ApiContext,
	endpoint: GuessedEndpoint,
	id?: string,
): Promise<string> {
	const setting = GUESSED_PATHS[endpoint];
	const credentials = await credentialsOf(this, CREDENTIAL_TYPE);
	const raw = String(credentials[setting.field] ?? '').trim() || ENDPOINTS[endpoint];
	const refuse = (rule: string) =>
		new NodeOperationError(this.getNode(), `${setting.label}: ${rule}`, {
			description: `Change it in ${WHERE}; the default is ${ENDPOINTS[endpoint]}.`,
		});
	if (!/^\/[^/\\]/.test(raw) || /\s|\.\.|[?#]/.test(raw)) {
		throw refuse(
			`"${raw}" is not a path under the Base URL (it starts with one "/", e.g. ${ENDPOINTS[endpoint]})`,
		);
	}
	if (!setting.parameter) return raw;
	const placeholder = `{${setting.parameter}}`;
	if (!raw.includes(placeholder)) throw refuse(`"${raw}" has no ${placeholder} where the ID goes`);
	return raw.split(placeholder).join(encodeURIComponent(id ?? ''));
}

/**
 * A GET of a guessed endpoint. A 404 (or 405) there may mean the service serves it
 * elsewhere: the error says the path is a guess and names the credential field to change.
 */
export async function guessedRequest<T = IDataObject>(
	this: ApiContext,
	endpoint: GuessedEndpoint,
	options: ApiRequestOptions & { id?: string } = {},
): Promise<T> {
	const path = await guessedPath.call(this, endpoint, options.id);
	try {
		return (await apiRequest.call(this, 'GET', path, options)) as T;
	} catch (error) {
		throw explainGuessedPath(error, endpoint, path);
	}
}

/** Adds to a 404 / 405 of a guessed path what the path is and where it is changed. */
export function explainGuessedPath(
	error: unknown,
	endpoint: GuessedEndpoint,
	path: string,
): unknown {
	const { httpCode } = apiErrorFields(error);
	if (!(error instanceof NodeApiError) || (httpCode !== '404' && httpCode !== '405')) return error;
	const setting = GUESSED_PATHS[endpoint];
	const what = setting.parameter ? ' (or the signing workflow does not exist)' : '';
	error.message = `${error.message} (GET ${path}: this path is a guess${what}; set ${pathSetting(endpoint)} if your service serves it elsewhere)`;
	error.description = [
		error.description,
		`The specification does not show this path (assumption "${setting.assumption}" at ${ASSUMPTIONS_URL}).`,
	]
		.filter(Boolean)
		.join('\n');
	return error;
}
