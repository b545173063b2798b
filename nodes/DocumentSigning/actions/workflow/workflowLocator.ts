import type { IExecuteFunctions } from 'n8n-workflow';

import { readLocatorId, resourceLocator } from '../shared/locator';

const workflow = { label: 'Signing Workflow', name: 'workflowId', exampleId: 'wf_8f3a2c' };

/** The signing workflow picker: its list offers the reusable workflows of the key's workspace. */
export const workflowIdProperty = resourceLocator({
	...workflow,
	searchListMethod: 'searchWorkflows',
	description: "The reusable signing workflow (defined in the service or with this node's Create)",
	listPlaceholder: 'Select a signing workflow...',
});

/** The signing workflow id of item `i`, checked by the one id rule. */
export function getWorkflowId(this: IExecuteFunctions, i: number): string {
	return readLocatorId.call(this, workflow.name, workflow.label, i);
}
