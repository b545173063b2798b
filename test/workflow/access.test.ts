/**
 * Who may do what with signing workflows (part 5): keys lacking `workflows:write` or
 * `workflows:read`, an organization key seeing only the organization's workflows; the
 * workflow picker and the participant list in n8n-core's load-options context.
 */
import type { INodeParameters } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { type Harness, startHarness } from '../harness';
import { loadOptionsContext } from '../harness/load-options';
import {
	byId,
	configFor,
	errorText,
	keyWith,
	type Params,
	PARTICIPANTS,
	runParams,
	runWorkflowOp,
	seedTemplate,
	seedWorkflow,
} from './helpers';

describe('signing workflow access', () => {
	let h: Harness;
	const { listSearch, loadOptions } = new DocumentSigning().methods;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const withKey = (apiKey: string) => ({ credentials: { apiKey } });

	it('a key without workflows:write may read but not create, update, publish or run', async () => {
		const { id, templateId } = await seedWorkflow(h);
		const key = await keyWith(h, ['workflows:read', 'templates:read']);
		const writes: Params[] = [
			{
				operation: 'create',
				name: 'X',
				configInput: 'json',
				configJson: JSON.stringify(configFor(templateId)),
			},
			{ operation: 'update', workflowId: byId(id), updateParts: ['name'], name: 'Y' },
			{ operation: 'publish', workflowId: byId(id) },
			runParams(id),
		];
		for (const params of writes) {
			const run = await runWorkflowOp(h, params, undefined, withKey(key));
			expect(errorText(run)).toContain('workflows:write');
			expect(errorText(run)).not.toContain(key);
		}
		expect(h.sandbox.state.workflowRuns.size).toBe(0);
		const get = await runWorkflowOp(
			h,
			{ operation: 'get', workflowId: byId(id) },
			undefined,
			withKey(key),
		);
		expect(get.result.error).toBeUndefined();
	});

	it('a key without workflows:read cannot list', async () => {
		const key = await keyWith(h, ['workflows:write']);
		const run = await runWorkflowOp(
			h,
			{ operation: 'getMany', returnAll: true },
			undefined,
			withKey(key),
		);
		expect(errorText(run)).toContain('workflows:read');
	});

	it('an organization key sees only the organization workflows; its runs use its wallet', async () => {
		const personal = await seedWorkflow(h, { name: 'Personal' });
		const org = await seedWorkflow(h, { name: 'Org', apiKey: h.sandbox.orgApiKey });
		const list = await runWorkflowOp(
			h,
			{ operation: 'getMany', returnAll: true },
			undefined,
			withKey(h.sandbox.orgApiKey),
		);
		expect(list.items.map((i) => i.json.name)).toEqual(['Org']);
		const other = await runWorkflowOp(
			h,
			runParams(personal.id),
			undefined,
			withKey(h.sandbox.orgApiKey),
		);
		expect(errorText(other)).toContain('NOT_FOUND');
		const own = await runWorkflowOp(h, runParams(org.id), undefined, withKey(h.sandbox.orgApiKey));
		expect(own.result.error).toBeUndefined();
	});

	it('searchWorkflows lists the workspace workflows by name and short id, filtered by name', async () => {
		const sale = await seedWorkflow(h, { name: 'Property sale', publish: false });
		await seedWorkflow(h, { name: 'NDA', publish: false });
		const context = loadOptionsContext(h, { resource: 'workflow', operation: 'get' });
		const all = await listSearch.searchWorkflows.call(context);
		expect(all.results.map((r) => r.value).sort()).toHaveLength(2);
		const found = await listSearch.searchWorkflows.call(context, 'sale');
		expect(found.results).toEqual([
			{ name: expect.stringMatching(/^Property sale \(/), value: sale.id },
		]);
	});

	it('getWorkflowParticipants lists the keys of the latest published version, or says to publish', async () => {
		const template = await seedTemplate(h);
		const created = await h.api<{ definition: { id: string } }>('POST', '/workflows', {
			name: 'Sale',
			config: configFor(template.id as string),
		});
		const id = created.definition.id;
		const parameters: INodeParameters = {
			resource: 'workflow',
			operation: 'run',
			workflowId: { __rl: true, mode: 'id', value: id },
		};
		await expect(
			loadOptions.getWorkflowParticipants.call(loadOptionsContext(h, parameters)),
		).rejects.toThrow('publish it');

		await h.api('POST', `/workflows/${id}/publish`);
		// A newer draft with another participant is not offered until it is published.
		await h.api('PATCH', `/workflows/${id}`, {
			config: configFor(template.id as string, {
				participants: [...PARTICIPANTS, { key: 'witness', label: 'Witness', order: 3 }],
			}),
		});
		const options = await loadOptions.getWorkflowParticipants.call(
			loadOptionsContext(h, parameters),
		);
		expect(options.map((o) => o.value)).toEqual(['client', 'legal']);
		expect(options[0]).toMatchObject({ name: 'Client (client)', description: 'signer, order 1' });
	});
});
