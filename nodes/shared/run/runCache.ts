import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiContext } from './context';

/** What a node run reads once and shares between its items (keyed by the run's context object). */

/**
 * The credential of a node run, read once: in a real n8n every read is a database query
 * and a decryption, which would otherwise happen twice for every request of a batch.
 */
const credentialsByRun = new WeakMap<object, Promise<ICredentialDataDecryptedObject>>();

export function credentialsOf(
	context: ApiContext,
	credentialType: string,
): Promise<ICredentialDataDecryptedObject> {
	let credentials = credentialsByRun.get(context);
	if (!credentials) {
		credentials = context.getCredentials(credentialType);
		credentialsByRun.set(context, credentials);
		credentials.catch(() => credentialsByRun.delete(context));
	}
	return credentials;
}

/** Answers read once per node run, by key. */
const readsByRun = new WeakMap<object, Map<string, Promise<string>>>();

/** `load()` once per run and key; a failed load is tried again by the next caller. */
export function oncePerRun(
	context: object,
	key: string,
	load: () => Promise<string>,
): Promise<string> {
	const reads = readsByRun.get(context) ?? new Map<string, Promise<string>>();
	readsByRun.set(context, reads);
	let answer = reads.get(key);
	if (!answer) {
		answer = load();
		reads.set(key, answer);
		answer.catch(() => reads.delete(key));
	}
	return answer;
}

/** Whether the run is the node's tool variant, asked once per run (n8n copies the whole node for every getNode()). */
const toolRuns = new WeakMap<object, boolean>();

export function isToolRun(context: IExecuteFunctions): boolean {
	let isTool = toolRuns.get(context);
	if (isTool === undefined) {
		isTool = context.getNode().type.endsWith('Tool');
		toolRuns.set(context, isTool);
	}
	return isTool;
}
