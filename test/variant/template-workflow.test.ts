/**
 * Template and signing workflow operations against the variant service (see
 * envelope-credit.test.ts). Run needs only workflows:write and never reads the workflow;
 * the guessed list and get paths work through the credential's fields or fail naming them.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { loadOptionsContext } from '../harness/load-options';
import { loadOptions } from '../../nodes/DocumentSigning/methods';
import { createDocumentParams, seedLease } from '../template-documents/helpers';
import {
	byId,
	configFor,
	errorText,
	expectFails,
	expectWorks,
	keyWith,
	listQueries,
	makePdf,
	pdfItem,
	runParams,
	runTemplateOp,
	runWorkflowOp,
	seedTemplate,
	seedWorkflow,
	VARIANT_PATHS,
} from './helpers';

let h: Harness;

beforeAll(async () => {
	h = await startHarness({ variant: true });
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

describe('template operations against the variant service', () => {
	it('create, get, get many, update, archive, restore, duplicate, delete: work unchanged', async () => {
		const created = expectWorks(
			await runTemplateOp(h, { operation: 'create', name: 'Variant lease' }, [
				pdfItem(await makePdf()),
			]),
		);
		const id = created.id as string;
		expect(
			expectWorks(await runTemplateOp(h, { operation: 'get', templateId: byId(id) })),
		).toMatchObject({ id, name: 'Variant lease' });
		const many = await runTemplateOp(h, { operation: 'getMany', returnAll: true });
		expect(errorText(many)).toBe('');
		expect(many.items.map((item) => item.json.id)).toContain(id);
		expect(listQueries(many, '/templates').map((q) => [q.status, q.limit])).toEqual([
			[400, '100'],
			[200, '50'],
		]);
		expect(
			expectWorks(
				await runTemplateOp(h, {
					operation: 'update',
					templateId: byId(id),
					updateParts: ['name'],
					name: 'Renamed',
				}),
			),
		).toMatchObject({ name: 'Renamed' });
		expect(
			expectWorks(await runTemplateOp(h, { operation: 'archive', templateId: byId(id) })),
		).toMatchObject({ status: 'archived' });
		expect(
			expectWorks(await runTemplateOp(h, { operation: 'restore', templateId: byId(id) })),
		).toMatchObject({ status: 'active' });
		const copy = expectWorks(
			await runTemplateOp(h, { operation: 'duplicate', templateId: byId(id), newName: 'Copy' }),
		);
		expect(copy).toMatchObject({ name: 'Copy' });
		expect(
			expectWorks(
				await runTemplateOp(h, {
					operation: 'deleteTemplate',
					templateId: byId(copy.id as string),
				}),
			),
		).toMatchObject({ deleted: true });
	});

	it('get document payload, create document: work unchanged; send document keeps every answered field (sentAt)', async () => {
		const templateId = await seedLease(h);
		expect(
			expectWorks(
				await runTemplateOp(h, { operation: 'getDocumentPayload', templateId: byId(templateId) }),
			),
		).toMatchObject({ recipientMapping: expect.any(Array) });
		const created = await runTemplateOp(h, createDocumentParams(templateId), [
			{ json: { name: 'Asha', email: 'asha@example.com' } },
		]);
		const envelopeId = expectWorks(created).envelopeId as string;
		const sent = expectWorks(
			await runTemplateOp(h, {
				operation: 'sendDocument',
				envelopeId: byId(envelopeId),
				output: 'raw',
			}),
		);
		expect(sent).toMatchObject({ envelopeId, status: 'pending', sentAt: expect.any(String) });
		expect((sent.recipients as IDataObject[])[0]).toMatchObject({
			email: 'asha@example.com',
			actionUrl: expect.any(String),
		});
	});
});

describe('signing workflow operations against the variant service', () => {
	it('create and publish: work unchanged, the answers whole', async () => {
		const template = await seedTemplate(h);
		const config = configFor(template.id as string);
		const created = expectWorks(
			await runWorkflowOp(h, {
				operation: 'create',
				name: 'Sale',
				configInput: 'json',
				configJson: JSON.stringify(config),
			}),
		);
		const id = (created.definition as IDataObject).id as string;
		// Publish answers the definition record here; it is output as it is.
		const published = expectWorks(
			await runWorkflowOp(h, { operation: 'publish', workflowId: byId(id) }),
		);
		expect(published).toMatchObject({ id, latestPublishedVersion: 1 });
	});

	it('update: versionWritten is read from the version record the service answers', async () => {
		const { id, templateId } = await seedWorkflow(h);
		const run = await runWorkflowOp(h, {
			operation: 'update',
			workflowId: byId(id),
			updateParts: ['config'],
			configInput: 'json',
			configJson: JSON.stringify(configFor(templateId)),
		});
		const json = expectWorks(run);
		expect(json).toMatchObject({
			workflowDefinitionId: id,
			version: 2,
			status: 'draft',
			versionWritten: 2,
		});
	});

	it('run: with a key holding only workflows:write, posts the run directly (no workflow read)', async () => {
		const { id } = await seedWorkflow(h);
		const writeOnly = await keyWith(h, ['workflows:write']);
		const run = await runWorkflowOp(h, runParams(id), undefined, {
			credentials: { apiKey: writeOnly },
		});
		const json = expectWorks(run);
		expect(json).toMatchObject({
			workflowId: id,
			version: 1,
			envelopeIds: expect.any(Array),
			envelopes: expect.any(Array),
		});
		expect(run.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`POST /api/v1/workflows/${id}/runs 200`,
		]);
	});

	it('get many and get on the guessed paths: fail naming the path as a guess and the credential field', async () => {
		const { id } = await seedWorkflow(h);
		expectFails(await runWorkflowOp(h, { operation: 'getMany', returnAll: true }), [
			'NOT_FOUND',
			'GET /workflows: this path is a guess',
			'"Signing Workflow List Path"',
			'Reusable workflow list and get',
		]);
		expectFails(await runWorkflowOp(h, { operation: 'get', workflowId: byId(id) }), [
			'NOT_FOUND',
			`GET /workflows/${id}: this path is a guess (or the signing workflow does not exist)`,
			'"Signing Workflow Get Path"',
		]);
	});

	it("get many and get with the credential's paths set: work, the answers whole", async () => {
		const { id } = await seedWorkflow(h);
		const many = await runWorkflowOp(h, { operation: 'getMany', returnAll: true }, undefined, {
			credentials: VARIANT_PATHS,
		});
		expect(errorText(many)).toBe('');
		expect(many.items.map((item) => item.json.id)).toEqual([id]);
		const one = expectWorks(
			await runWorkflowOp(h, { operation: 'get', workflowId: byId(id), output: 'raw' }, undefined, {
				credentials: VARIANT_PATHS,
			}),
		);
		expect(one).toMatchObject({ id, latestPublishedVersion: 1, versions: expect.any(Array) });
	});

	it('the participant list of Run reads the variant get (latestPublishedVersion + versions[]) through the credential path', async () => {
		const { id } = await seedWorkflow(h);
		const parameters = { resource: 'workflow', operation: 'run', workflowId: byId(id) };
		const options = await loadOptions.getWorkflowParticipants.call(
			loadOptionsContext(h, parameters, h.sandbox.apiKey, VARIANT_PATHS),
		);
		expect(options.map((o) => o.value)).toEqual(['client', 'legal']);
		// Without the path, the list says where to set it; the run does not need it.
		await expect(
			loadOptions.getWorkflowParticipants.call(loadOptionsContext(h, parameters)),
		).rejects.toThrow('Signing Workflow Get Path');
	});

	it('a credential path that leaves the Base URL is refused before any request', async () => {
		const before = (await h.requests()).length;
		const run = await runWorkflowOp(h, { operation: 'getMany', returnAll: true }, undefined, {
			credentials: { workflowListPath: 'https://elsewhere.example/workflows' },
		});
		expectFails(run, ['Signing Workflow List Path', 'is not a path under the Base URL']);
		expect((await h.requests()).length).toBe(before);
	});
});
