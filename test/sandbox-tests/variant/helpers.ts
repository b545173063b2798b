/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** Helpers of the variant-mode tests: both modes, a published workflow, signing a recipient. */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { templateWithPdf } from '../templates/helpers';

export * from '../templates/helpers';

/** `describe.each(MODES)('%s mode', (_name, variant) => ...)` */
export const MODES: Array<[string, boolean]> = [
	['default', false],
	['variant', true],
];

/** Creates a workflow over a fresh template (signer `client`, approver `legal`); the answer as given. */
export async function createWorkflow(api: AxiosInstance): Promise<AxiosResponse> {
	const template = await templateWithPdf(api);
	return api.post('/workflows', {
		name: 'Onboarding',
		config: {
			documents: [{ templateId: template.id, label: 'Agreement' }],
			participants: [
				{ key: 'client', label: 'Client', order: 1, role: 'signer' },
				{ key: 'legal', label: 'Legal', order: 2, role: 'approver' },
			],
		},
	});
}

/** A published workflow made by `createWorkflow`. */
export async function publishedWorkflow(api: AxiosInstance): Promise<string> {
	const created = await createWorkflow(api);
	if (created.status !== 200)
		throw new Error(`workflow create failed: ${JSON.stringify(created.data)}`);
	const id = workflowIdOf(created.data);
	const published = await api.post(`/workflows/${id}/publish`);
	if (published.status !== 200)
		throw new Error(`publish failed: ${JSON.stringify(published.data)}`);
	return id;
}

export const workflowIdOf = (answer: any): string => answer.definition?.id ?? answer.id;

export const runBody = {
	title: 'Onboarding ACME',
	recipients: [
		{ participantKey: 'client', name: 'Asha Rao', email: 'asha@acme.example' },
		{ participantKey: 'legal', name: 'Lee Legal', email: 'lee@acme.example' },
	],
};

/** Signs (or approves) as the recipient behind an actionUrl. */
export async function act(actionUrl: string): Promise<any> {
	const answer = await axios.post(actionUrl, {}, { validateStatus: () => true });
	if (answer.status !== 200)
		throw new Error(`signing failed: ${answer.status} ${JSON.stringify(answer.data)}`);
	return answer.data;
}
