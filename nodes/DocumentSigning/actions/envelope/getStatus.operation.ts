import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { apiRequest } from '../../../shared/http/transport';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { simplifyOutput } from '../shared/output';

const properties: INodeProperties[] = [envelopeIdProperty];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['getStatus'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const progress = (await apiRequest.call(this, 'GET', apiPath('envelopeStatus', envelopeId), {
		itemIndex: i,
	})) as IDataObject;
	return simplifyOutput.call(this, i, [{ json: progress }]);
}
