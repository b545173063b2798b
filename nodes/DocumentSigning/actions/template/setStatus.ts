import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import type { TemplateStatusSchema } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { getTemplateId } from '../shared/locators';

/** Archive and Restore: PATCH the template's status (the same body twice gives the same result). */
export async function setTemplateStatus(
	this: IExecuteFunctions,
	i: number,
	status: (typeof TemplateStatusSchema.options)[number],
): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const response = (await apiRequest.call(this, 'PATCH', apiPath('template', templateId), {
		body: { status },
		itemIndex: i,
		idempotent: true,
	})) as IDataObject;
	return [{ json: response }];
}
