import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fetchEnvelopeFile } from '../../../shared/envelopeFile';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';

const properties: INodeProperties[] = [
	envelopeIdProperty,
	{
		displayName: 'Include PDF as Binary Data',
		name: 'download',
		type: 'boolean',
		default: true,
		description:
			'Whether to fetch the PDF into the output as binary data. Otherwise only its temporary address (valid 1 hour) is returned.',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the PDF in',
		displayOptions: { show: { download: [true] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['envelope'], operation: ['downloadFile'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const download = this.getNodeParameter('download', i, true) as boolean;
	const binaryPropertyName = download
		? (this.getNodeParameter('binaryPropertyName', i, 'data') as string)
		: undefined;
	return [await fetchEnvelopeFile.call(this, envelopeId, { binaryPropertyName, itemIndex: i })];
}
