import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/endpoints';
import { apiRequest } from '../../../shared/transport';
import { getTemplateId, templateIdProperty } from './templateLocator';

const properties: INodeProperties[] = [
	templateIdProperty,
	{
		displayName:
			"Returns an editable document-creation body: title, one recipient mapping per template role, the signing settings and the sender's prefill fields with their stored defaults. Read-only; works on archived templates too.",
		name: 'getDocumentPayloadNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['getDocumentPayload'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const payload = (await apiRequest.call(this, 'GET', apiPath('templateDocumentPayload', templateId), {
		itemIndex: i,
	})) as IDataObject;
	return [{ json: { templateId, ...payload } }];
}
