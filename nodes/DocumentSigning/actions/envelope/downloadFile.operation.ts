import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import { fetchEnvelopeFile } from '../../../shared/files/envelopeFile';
import { apiRequest } from '../../../shared/http/transport';
import { envelopeIdProperty, getEnvelopeId } from '../shared/locators';
import { defaultChangedIn1_1 } from '../shared/versions';
import { toggle } from '../../../shared/api/parameters';
import { operationPanel } from '../shared/operation';

const properties: INodeProperties[] = [
	{
		displayName:
			"Downloads the PDF the service holds for the envelope now: the signed PDF once the envelope is completed (every recipient has acted), before that the PDF as sent (with the e-stamp certificate as page 1 once stamped). The output's <code>signed</code> says which.",
		name: 'downloadFileNotice',
		type: 'notice',
		default: '',
	},
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
	// New in 1.1, on; version 1 keeps it off, so its saved workflows send the requests they sent.
	...defaultChangedIn1_1(
		{
			displayName: 'Include Signing Status',
			name: 'includeStatus',
			type: 'boolean',
			default: true,
			description:
				"Whether to read the envelope's status too (one more request) and add <code>envelopeStatus</code> and <code>signed</code> (true when the envelope is completed: the file is the signed PDF) to the output",
		},
		false,
	),
];

export const description = operationPanel('envelope', 'downloadFile', properties);

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	const envelopeId = getEnvelopeId.call(this, i);
	const download = toggle(this.getNodeParameter('download', i, true), true);
	const binaryPropertyName = download
		? (this.getNodeParameter('binaryPropertyName', i, 'data') as string)
		: undefined;
	let signing = {};
	if (toggle(this.getNodeParameter('includeStatus', i, false), false)) {
		// Read before the file, so a status that moves on meanwhile never labels an older file as signed.
		const progress = (await apiRequest.call(this, 'GET', apiPath('envelopeStatus', envelopeId), {
			itemIndex: i,
		})) as { status?: unknown };
		const envelopeStatus = typeof progress.status === 'string' ? progress.status : null;
		signing = { envelopeStatus, signed: envelopeStatus === 'completed' };
	}
	const file = await fetchEnvelopeFile.call(this, envelopeId, { binaryPropertyName, itemIndex: i });
	return [{ ...file, json: { ...file.json, ...signing } }];
}
