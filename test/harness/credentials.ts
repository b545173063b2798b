/**
 * The credentials side of the harness: one set of `documentSigningApi` data, and
 * `authenticate` that applies the credential type's own generic `authenticate` block,
 * evaluating its expressions with n8n's expression engine (as n8n's CredentialsHelper does).
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';

export interface HarnessCredentials extends ICredentialDataDecryptedObject {
	baseUrl: string;
	apiKey: string;
	webhookSecret: string;
}

export const credentialTypes: Record<string, ICredentialType> = {
	documentSigningApi: new DocumentSigningApi(),
};

export class HarnessCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param data  read at each getDecrypted, so a test may change it between deliveries (a new secret)
	 * @param onRead  told of each read (how often a node reads its credential)
	 */
	constructor(
		private readonly data: HarnessCredentials,
		private readonly onRead?: () => void,
	) {
		super();
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		this.onRead?.();
		// A copy: n8n may add pre-authentication data to what it receives.
		return { ...this.data };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialTypes[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate || authenticate.type !== 'generic') return requestOptions;
		if (!workflow || !node) throw new Error('authenticate needs the workflow and node');

		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getParameterValue(value, null, 0, 0, node.name, [], 'internal', {
						$credentials: credentials,
					})
				: value;

		const result = { ...requestOptions } as IHttpRequestOptions & IDataObject;
		for (const [target, entries] of Object.entries(authenticate.properties)) {
			const merged: IDataObject = { ...((result[target] as IDataObject | undefined) ?? {}) };
			for (const [key, value] of Object.entries(entries as IDataObject)) {
				merged[String(resolve(key))] = resolve(value) as IDataObject[string];
			}
			result[target] = merged;
		}
		return result;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Encrypted credentials are not used by the harness');
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}
