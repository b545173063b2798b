import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as publish from './publish.operation';
import * as run from './run.operation';
import * as update from './update.operation';

export { create, get, getMany, publish, run, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workflow'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a reusable signing workflow from templates and participants, as draft version 1: publish it before running it',
				action: 'Create a signing workflow',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a signing workflow with its latest and its published version',
				action: 'Get a signing workflow',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					"List the signing workflows of the API key's workspace, one item each with its definition (Get gives the configuration)",
				action: 'Get many signing workflows',
			},
			{
				name: 'Publish',
				value: 'publish',
				description:
					'Publish the draft version so runs use it (the previously published one is archived)',
				action: 'Publish a signing workflow',
			},
			{
				name: 'Run',
				value: 'run',
				description:
					'Start a run of the latest published version: its envelopes are created from the templates for the given recipients and sent (or held for approval)',
				action: 'Run a signing workflow',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the name, description or configuration (a new draft after publication)',
				action: 'Update a signing workflow',
			},
		],
		default: 'run',
	},
	...create.description,
	...update.description,
	...publish.description,
	...run.description,
	...getMany.description,
	...get.description,
];
