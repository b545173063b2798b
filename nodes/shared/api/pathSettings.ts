import type { INodeProperties } from 'n8n-workflow';

import { ENDPOINTS } from './endpoints';

/**
 * The endpoints whose path the specification does not show (the balance, the signing
 * workflow list and get). The guesses of endpoints.ts are the defaults of credential
 * fields, so a service that serves them elsewhere is followed by changing one field.
 */
export const GUESSED_PATHS = {
	creditBalance: {
		field: 'creditBalancePath',
		label: 'Credit Balance Path',
		assumption: 'Credit balance path and fields',
		parameter: undefined,
	},
	workflows: {
		field: 'workflowListPath',
		label: 'Signing Workflow List Path',
		assumption: 'Reusable workflow list and get',
		parameter: undefined,
	},
	workflow: {
		field: 'workflowGetPath',
		label: 'Signing Workflow Get Path',
		assumption: 'Reusable workflow list and get',
		parameter: 'workflowId',
	},
} as const;

export type GuessedEndpoint = keyof typeof GUESSED_PATHS;

export const WHERE = 'the credential (Document Signing API), below Webhook Secret';

/**
 * The credential's path fields (appended after the fields every user fills). No notice and no
 * switch: n8n's credential form shows a notice as a warning, and a field hidden behind a
 * switch is dropped from the credential before a node reads it, so a credential saved with a
 * changed path would lose it. The defaults are literals (a lint rule) equal to ENDPOINTS
 * (test/docs/endpoints.test.ts checks it).
 */
export const GUESSED_PATH_PROPERTIES: INodeProperties[] = [
	{
		displayName: GUESSED_PATHS.creditBalance.label,
		name: GUESSED_PATHS.creditBalance.field,
		type: 'string',
		default: '/credits/balance',
		placeholder: `e.g. ${ENDPOINTS.creditBalance}`,
		description: 'Path of the credit balance (Credit > Get Balance), after the Base URL',
		hint: 'Optional, like the two paths below: keep the default unless your service serves this endpoint elsewhere (its API reference or support tells you)',
	},
	{
		displayName: GUESSED_PATHS.workflows.label,
		name: GUESSED_PATHS.workflows.field,
		type: 'string',
		default: '/workflows',
		placeholder: `e.g. ${ENDPOINTS.workflows}`,
		description:
			'Path of the signing workflow list (Signing Workflow > Get Many and the workflow picker)',
	},
	{
		displayName: GUESSED_PATHS.workflow.label,
		name: GUESSED_PATHS.workflow.field,
		type: 'string',
		default: '/workflows/{workflowId}',
		placeholder: `e.g. ${ENDPOINTS.workflow}`,
		description:
			'Path of one signing workflow (Signing Workflow > Get and the participant list of Run); {workflowId} stands for its ID',
	},
];
