import type { INodeProperties } from 'n8n-workflow';

import * as addRecipients from './addRecipients.operation';
import * as checkEstamp from './checkEstamp.operation';
import * as create from './create.operation';
import * as downloadFile from './downloadFile.operation';
import * as getFields from './getFields.operation';
import * as getMany from './getMany.operation';
import * as getStatus from './getStatus.operation';
import * as send from './send.operation';

export { addRecipients, checkEstamp, create, downloadFile, getFields, getMany, getStatus, send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['envelope'] } },
		options: [
			{
				name: 'Add Recipients',
				value: 'addRecipients',
				description: 'Add recipients to a draft envelope, or replace them',
				action: 'Add recipients to an envelope',
			},
			{
				name: 'Check E-Stamp',
				value: 'checkEstamp',
				description: 'Ask the service to re-check a pending e-stamp now',
				// A template literal: the lint's sentence-case check (node-param-operation-option-
				// action-miscased) compares against sentence-case's output, which turns the
				// hyphen of "e-stamp" into a space, so any hyphenated action reads as miscased.
				action: `Check the e-stamp of an envelope`,
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a draft envelope and upload its PDF',
				action: 'Create an envelope',
			},
			{
				name: 'Download File',
				value: 'downloadFile',
				description:
					'Download the PDF of an envelope: the signed PDF once completed, the PDF as sent before (the output says which)',
				action: 'Download the PDF of an envelope',
			},
			{
				name: 'Get Fields',
				value: 'getFields',
				description: 'Get the form fields of an envelope',
				action: 'Get the fields of an envelope',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					"List the API key's envelopes (an organization key: the organization's), optionally filtered by status or title",
				action: 'Get many envelopes',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description:
					'Get the signing progress of an envelope: status, e-stamp state, percentage and each recipient',
				action: 'Get the status of an envelope',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Send a draft envelope to its recipients (after e-stamping, if enabled)',
				action: 'Send an envelope',
			},
		],
		default: 'create',
	},
	...create.description,
	...getMany.description,
	...getStatus.description,
	...send.description,
	...downloadFile.description,
	...getFields.description,
	...addRecipients.description,
	...checkEstamp.description,
];
