import type { INodeProperties } from 'n8n-workflow';

import * as archive from './archive.operation';
import * as create from './create.operation';
import * as createDocument from './createDocument.operation';
import * as deleteTemplate from './deleteTemplate.operation';
import * as duplicate from './duplicate.operation';
import * as get from './get.operation';
import * as getDocumentPayload from './getDocumentPayload.operation';
import * as getMany from './getMany.operation';
import * as restore from './restore.operation';
import * as sendDocument from './sendDocument.operation';
import * as update from './update.operation';

export {
	archive,
	create,
	createDocument,
	deleteTemplate,
	duplicate,
	get,
	getDocumentPayload,
	getMany,
	restore,
	sendDocument,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				description: 'Archive a template so no document can be created from it',
				action: 'Archive a template',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a template with its roles and fields, and upload its PDF',
				action: 'Create a template',
			},
			{
				name: 'Create Document',
				value: 'createDocument',
				description:
					'Create a document (a draft envelope) from a template, optionally sending it at once',
				action: 'Create a document from a template',
			},
			{
				name: 'Delete',
				value: 'deleteTemplate',
				description: 'Delete a template permanently',
				action: 'Delete a template',
			},
			{
				name: 'Duplicate',
				value: 'duplicate',
				description: 'Copy a template under a new name',
				action: 'Duplicate a template',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a template with its recipients, fields and signing settings',
				action: 'Get a template',
			},
			{
				name: 'Get Document Payload',
				value: 'getDocumentPayload',
				description:
					"Get an editable body for creating a document from a template: title, one recipient mapping per role, the signing settings and the sender's prefill fields with their stored defaults",
				action: 'Get the document payload of a template',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					"List the API key's templates (an organization key: the organization's), one item each, active or archived, optionally searched by name",
				action: 'Get many templates',
			},
			{
				name: 'Restore',
				value: 'restore',
				description: 'Make an archived template active again',
				action: 'Restore a template',
			},
			{
				name: 'Send Document',
				value: 'sendDocument',
				description: 'Send a document created from a template to its recipients',
				action: 'Send a document created from a template',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the name, description, recipients, fields or signing settings of a template',
				action: 'Update a template',
			},
		],
		default: 'getMany',
	},
	...create.description,
	...getMany.description,
	...get.description,
	...update.description,
	...archive.description,
	...restore.description,
	...duplicate.description,
	...deleteTemplate.description,
	...getDocumentPayload.description,
	...createDocument.description,
	...sendDocument.description,
];
