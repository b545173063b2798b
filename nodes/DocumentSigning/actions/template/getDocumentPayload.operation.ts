import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { getTemplateId, templateIdProperty } from '../shared/locators';
import { simplifyOutput } from '../shared/output';

const properties: INodeProperties[] = [
	{
		...templateIdProperty,
		hint: 'Read-only; works on archived templates too (the list shows active ones: give an archived template by ID)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['getDocumentPayload'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const payload = (await apiRequest.call(
		this,
		'GET',
		apiPath('templateDocumentPayload', templateId),
		{
			itemIndex: i,
		},
	)) as IDataObject;
	return simplifyOutput.call(this, i, [{ json: { templateId, ...payload } }]);
}
