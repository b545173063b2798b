/**
 * n8n's credential test ("Test" / saving a credential in the editor), named by every node
 * of the package (`testedBy`). A function rather than the credential's declarative `test`,
 * so it can check the Base URL first (baseUrl.ts) and judge redirects itself (redirects.ts):
 * the declarative request follows redirects to any host with the key.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { isListAnswer } from '../api/answerShape';
import { GUESSED_SCOPES } from '../api/assumptions';
import { checkBaseUrl } from '../guard/baseUrl';
import { ENDPOINTS } from '../api/endpoints';
import { redactSecret } from './errors';
import { bodyText, messageOf } from '../pacing/failures';
import { isRedirect, nextRedirect } from './redirects';
import { credentialSafetySetting } from '../api/parameters';

export const CREDENTIAL_TEST_NAME = 'documentSigningApiTest';

export const CREDENTIAL_TEST_MESSAGES = {
	ok: 'Connection successful: the API key was accepted',
	unauthorized: 'The API key was not accepted: check it in the dashboard (Settings, API Keys)',
	forbidden: `The API key is disabled, or it lacks the ${GUESSED_SCOPES.documentsRead} permission`,
	notFound: 'Nothing found at this Base URL: it should end in /api/v1',
	notTheApi:
		"The Base URL answered, but not as the Document Signing API does (a list of envelopes was expected): check that it is the service's address ending in /api/v1",
};

const TIMEOUT_MS = 30_000;

interface Answer {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** Whether the body is the API's paginated list (api/answerShape.ts). */
function isEnvelopeList(text: string): boolean {
	try {
		return isListAnswer(JSON.parse(text));
	} catch {
		return false;
	}
}

/** Reads one envelope of the key's workspace: a cheap read every key may do. */
export async function testCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted<ICredentialDataDecryptedObject>,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const key = String(data.apiKey ?? '');
	const base = checkBaseUrl(
		data.baseUrl,
		credentialSafetySetting('allowInsecureHttp', data.allowInsecureHttp),
	);
	if (!base.ok) return { status: 'Error', message: base.message };

	// n8n-workflow's ICredentialTestFunctions offers one HTTP helper, `request` (no
	// `httpRequest`); the community lint calls it deprecated, but a credential test has no
	// other, and the declarative test it would leave follows redirects with the key.
	const { request: send } = this.helpers;
	let address = `${base.url}${ENDPOINTS.envelopes}?limit=1`;
	let answer: Answer;
	for (let followed = 0; ; followed++) {
		try {
			answer = (await send({
				method: 'GET',
				uri: address,
				headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
				followRedirect: false,
				followAllRedirects: false,
				simple: false,
				resolveWithFullResponse: true,
				json: false,
				timeout: TIMEOUT_MS,
			})) as Answer;
		} catch (error) {
			return {
				status: 'Error',
				message: `n8n could not reach the Base URL: ${redactSecret(messageOf(error), [key, String(data.webhookSecret ?? '')])}`,
			};
		}
		if (!isRedirect(answer.statusCode)) break;
		const step = nextRedirect({
			statusCode: answer.statusCode,
			location: answer.headers?.location,
			from: address,
			origin: base.origin,
			method: 'GET',
			followed,
		});
		if ('refuse' in step) return { status: 'Error', message: step.refuse };
		address = step.follow;
	}

	const { statusCode } = answer;
	if (statusCode === 401)
		return { status: 'Error', message: CREDENTIAL_TEST_MESSAGES.unauthorized };
	if (statusCode === 403) return { status: 'Error', message: CREDENTIAL_TEST_MESSAGES.forbidden };
	if (statusCode === 404) return { status: 'Error', message: CREDENTIAL_TEST_MESSAGES.notFound };
	if (statusCode >= 300) {
		return {
			status: 'Error',
			message: `The service answered HTTP ${statusCode}: check the Base URL, or try again later`,
		};
	}
	if (!isEnvelopeList(bodyText(answer.body)))
		return { status: 'Error', message: CREDENTIAL_TEST_MESSAGES.notTheApi };
	return { status: 'OK', message: CREDENTIAL_TEST_MESSAGES.ok };
}
