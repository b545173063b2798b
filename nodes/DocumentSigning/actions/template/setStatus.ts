import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import type { TemplateStatusSchema } from '../../../shared/api/schemas';
import { getTemplateId } from '../shared/locators';
import { callApi } from '../shared/operation';

/** Archive and Restore: PATCH the template's status (the same body twice gives the same result). */
export async function setTemplateStatus(
	this: IExecuteFunctions,
	i: number,
	status: (typeof TemplateStatusSchema.options)[number],
): Promise<INodeExecutionData[]> {
	const templateId = getTemplateId.call(this, i);
	const path = apiPath('template', templateId);
	const options = { body: { status }, idempotent: true };
	return [{ json: await callApi.call(this, i, 'PATCH', path, options) }];
}
