import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceHints, resourceProperties } from './actions/resources';
import { router, runSettingsDescription } from './actions/router';
import { NODE_VERSIONS } from './actions/shared/versions';
import { CREDENTIAL_TEST_NAME, testCredential } from '../shared/http/credentialTest';
import { listSearch, loadOptions, resourceMapping } from './methods';

const PROPERTIES = [...resourceProperties, ...runSettingsDescription];

export class DocumentSigning implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Signing',
		name: 'documentSigning',
		icon: {
			light: 'file:../../icons/documentSigning.svg',
			dark: 'file:../../icons/documentSigning.dark.svg',
		},
		group: ['transform'],
		version: NODE_VERSIONS,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Send PDFs for signature, create documents from templates, run signing workflows and read credits',
		defaults: {
			name: 'Document Signing',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'documentSigningApi',
				required: true,
				testedBy: 'documentSigningApiTest',
			},
		],
		properties: PROPERTIES,
		hints: resourceHints,
	};

	methods = {
		listSearch,
		loadOptions,
		resourceMapping,
		credentialTest: { [CREDENTIAL_TEST_NAME]: testCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, PROPERTIES);
	}
}
