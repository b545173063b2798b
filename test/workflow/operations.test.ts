/**
 * Signing workflow operations against the sandbox: create (fields and JSON), get, get many,
 * update (the draft; after publication a new draft version), publish (templates checked;
 * the previous published version archived).
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import {
	byId,
	configFor,
	errorText,
	PARTICIPANTS,
	type Params,
	runWorkflowOp,
	seedTemplate,
	seedWorkflow,
} from './helpers';

describe('signing workflow operations', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const versionStatuses = (id: string) =>
		[
			...(
				h.sandbox.state.workflowVersions as Map<
					string,
					{ workflowDefinitionId: string; version: number; status: string }
				>
			).values(),
		]
			.filter((v) => v.workflowDefinitionId === id)
			.sort((a, b) => a.version - b.version)
			.map((v) => `${v.version}:${v.status}`);

	function fieldsConfig(templateId: string): Params {
		return {
			configInput: 'fields',
			documents: {
				document: [{ templateId: byId(templateId), label: 'Agreement', required: true }],
			},
			participants: {
				participant: [
					{
						key: 'client',
						label: 'Client',
						order: 1,
						role: 'signer',
						signatureMethod: 'electronic',
						verificationMethod: 'email_verification',
						required: true,
					},
					{
						key: 'legal',
						label: 'Legal',
						order: 2,
						role: 'approver',
						signatureMethod: 'electronic',
						verificationMethod: 'link_only',
						required: false,
					},
				],
			},
			signingSettings: {
				mode: 'parallel',
				expiresInDays: 10,
				requireFinalSenderConfirmation: false,
				message: 'Please sign',
			},
			approvalStages: '[]',
			allowedOverrides: '[]',
		};
	}

	it('create from fields: draft version 1 with the config as given', async () => {
		const template = await seedTemplate(h);
		const run = await runWorkflowOp(h, {
			operation: 'create',
			name: 'Property sale',
			description: 'Sale deed',
			...fieldsConfig(template.id as string),
		});
		expect(run.result.error).toBeUndefined();
		const { definition, version } = run.items[0].json as {
			definition: IDataObject;
			version: IDataObject;
		};
		expect(definition).toMatchObject({
			name: 'Property sale',
			description: 'Sale deed',
			status: 'draft',
			latestPublishedVersion: null,
		});
		expect(version).toMatchObject({ version: 1, status: 'draft' });
		expect(version.config).toEqual({
			documents: [{ templateId: template.id, label: 'Agreement', required: true }],
			participants: [
				{
					key: 'client',
					label: 'Client',
					order: 1,
					role: 'signer',
					signatureMethod: 'electronic',
					verificationMethod: 'email_verification',
					required: true,
				},
				{
					key: 'legal',
					label: 'Legal',
					order: 2,
					role: 'approver',
					signatureMethod: 'electronic',
					verificationMethod: 'link_only',
					required: false,
				},
			],
			execution: {
				mode: 'parallel',
				expiresInDays: 10,
				requireFinalSenderConfirmation: false,
				message: 'Please sign',
			},
			approvalStages: [],
			allowedOverrides: [],
		});
		const post = run.requests.filter((r) => r.method === 'POST');
		expect(post).toHaveLength(1);
	});

	it('create with the e-stamp block puts estampEnabled and estampConfig into execution', async () => {
		const template = await seedTemplate(h);
		const { estampParams } = await import('../envelope/helpers');
		const run = await runWorkflowOp(h, {
			operation: 'create',
			name: 'Stamped',
			...fieldsConfig(template.id as string),
			...estampParams(),
		});
		expect(run.result.error).toBeUndefined();
		const execution = ((run.items[0].json.version as IDataObject).config as IDataObject)
			.execution as IDataObject;
		expect(execution).toMatchObject({
			estampEnabled: true,
			estampConfig: { state: 'KA', article: 'Affidavit' },
		});
	});

	it('create from JSON; approval stages and overrides as JSON', async () => {
		const template = await seedTemplate(h);
		const config = configFor(template.id as string, { approvalStages: [{ name: 'Legal review' }] });
		const run = await runWorkflowOp(h, {
			operation: 'create',
			name: 'From JSON',
			configInput: 'json',
			configJson: JSON.stringify(config),
		});
		expect(run.result.error).toBeUndefined();
		expect((run.items[0].json.version as IDataObject).config).toEqual(config);
	});

	it('get answers the definition, the latest version and the published version', async () => {
		const { id } = await seedWorkflow(h);
		await h.api('PATCH', `/workflows/${id}`, { name: 'Renamed' });
		const run = await runWorkflowOp(h, { operation: 'get', workflowId: byId(id), output: 'raw' });
		expect(run.items[0].json).toMatchObject({
			definition: { id, name: 'Renamed', status: 'published', latestPublishedVersion: 1 },
			version: { version: 2, status: 'draft' },
			publishedVersion: { version: 1, status: 'published' },
		});
	});

	it('get many: Limit and Return All over pages', async () => {
		for (let n = 0; n < 3; n++) await seedWorkflow(h, { publish: false, name: `WF ${n}` });
		const limited = await runWorkflowOp(h, { operation: 'getMany', returnAll: false, limit: 2 });
		expect(limited.items).toHaveLength(2);
		const all = await runWorkflowOp(h, { operation: 'getMany', returnAll: true });
		expect(all.items.map((i) => i.json.name).sort()).toEqual(['WF 0', 'WF 1', 'WF 2']);
	});

	it('draft, published and archived versions: update edits the draft, then opens a new draft; publish archives the previous', async () => {
		const { id, templateId } = await seedWorkflow(h, { publish: false });
		const edit = await runWorkflowOp(h, {
			operation: 'update',
			workflowId: byId(id),
			updateParts: ['description'],
			description: 'First edit',
		});
		expect(edit.items[0].json).toMatchObject({
			versionWritten: 1,
			version: { version: 1, status: 'draft' },
		});
		expect(versionStatuses(id)).toEqual(['1:draft']);

		const published = await runWorkflowOp(h, { operation: 'publish', workflowId: byId(id) });
		expect(published.items[0].json).toMatchObject({
			definition: { status: 'published', latestPublishedVersion: 1 },
			version: { version: 1, status: 'published' },
		});

		const changed = await runWorkflowOp(h, {
			operation: 'update',
			workflowId: byId(id),
			updateParts: ['config'],
			configInput: 'json',
			configJson: JSON.stringify(
				configFor(templateId, { participants: [{ ...PARTICIPANTS[0], label: 'Buyer' }] }),
			),
		});
		expect(changed.items[0].json).toMatchObject({
			versionWritten: 2,
			version: { version: 2, status: 'draft' },
		});
		expect(versionStatuses(id)).toEqual(['1:published', '2:draft']);

		// A second edit changes draft 2, not a third version.
		const again = await runWorkflowOp(h, {
			operation: 'update',
			workflowId: byId(id),
			updateParts: ['name'],
			name: 'Sale v2',
		});
		expect(again.items[0].json).toMatchObject({ versionWritten: 2 });

		await runWorkflowOp(h, { operation: 'publish', workflowId: byId(id) });
		expect(versionStatuses(id)).toEqual(['1:archived', '2:published']);
	});

	it('publish without a draft is refused by the service (INVALID_STATUS)', async () => {
		const { id } = await seedWorkflow(h);
		const run = await runWorkflowOp(h, { operation: 'publish', workflowId: byId(id) });
		expect(errorText(run)).toContain('no draft to publish');
	});

	it('publish refuses a workflow whose templates are not ready (no PDF; archived)', async () => {
		const noPdf = await seedTemplate(h, {}, { upload: false });
		const created = await h.api<{ definition: { id: string } }>('POST', '/workflows', {
			name: 'Not ready',
			config: configFor(noPdf.id as string),
		});
		const id = created.definition.id;
		const run = await runWorkflowOp(h, { operation: 'publish', workflowId: byId(id) });
		expect(errorText(run)).toContain('has no uploaded PDF');
		expect(versionStatuses(id)).toEqual(['1:draft']);

		const archived = await seedTemplate(h);
		await h.api('PATCH', `/workflows/${id}`, { config: configFor(archived.id as string) });
		await h.api('PATCH', `/templates/${String(archived.id)}`, { status: 'archived' });
		const again = await runWorkflowOp(h, { operation: 'publish', workflowId: byId(id) });
		expect(errorText(again)).toContain('TEMPLATE_ARCHIVED');
		expect(versionStatuses(id)).toEqual(['1:draft']);
	});

	it('an unknown workflow answers NOT_FOUND', async () => {
		const run = await runWorkflowOp(h, { operation: 'get', workflowId: byId('wf_missing') });
		expect(errorText(run)).toContain('NOT_FOUND');
	});
});
