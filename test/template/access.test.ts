/**
 * Who may do what with a template (specification 4.2 rule 4 and part 5): ownership for
 * editing, archiving and deletion; key scopes; an organization key sees only the
 * organization's templates.
 */
import type { IDataObject } from 'n8n-workflow';

import { ALL_SCOPES } from '../sandbox/state';
import { type Harness, startHarness } from '../harness';
import {
	byId,
	errorText,
	keyWith,
	makePdf,
	type Params,
	pdfItem,
	runTemplateOp,
	seedTemplate,
} from './helpers';

describe('template access', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const withKey = (apiKey: string) => ({ credentials: { apiKey } });

	describe('ownership: another key of the same workspace', () => {
		const ownerOnly: Params[] = [
			{ operation: 'update', updateParts: ['name'], name: 'Taken over' },
			{ operation: 'archive' },
			{ operation: 'restore' },
			{ operation: 'deleteTemplate' },
		];

		it.each(ownerOnly.map((p) => [p.operation as string, p]))(
			'%s answers NOT_FOUND and changes nothing',
			async (_op, params) => {
				const { id } = await seedTemplate(h);
				const other = await keyWith(h, [...ALL_SCOPES]);
				const run = await runTemplateOp(
					h,
					{ ...params, templateId: byId(id as string) },
					undefined,
					withKey(other),
				);
				expect(errorText(run)).toContain('NOT_FOUND');
				expect(errorText(run)).not.toContain(other);
				const template = await h.api<IDataObject>('GET', `/templates/${String(id)}`);
				expect(template).toMatchObject({ name: 'Service Agreement', status: 'active' });
			},
		);

		it('may read, get the document payload of and duplicate it; the copy is its own', async () => {
			const { id } = await seedTemplate(h);
			const other = await keyWith(h, [...ALL_SCOPES]);
			for (const operation of ['get', 'getDocumentPayload']) {
				const run = await runTemplateOp(
					h,
					{ operation, templateId: byId(id as string) },
					undefined,
					withKey(other),
				);
				expect(run.result.error).toBeUndefined();
			}
			const copy = await runTemplateOp(
				h,
				{ operation: 'duplicate', templateId: byId(id as string), newName: 'Mine' },
				undefined,
				withKey(other),
			);
			const copyId = copy.items[0].json.id as string;
			const renamed = await runTemplateOp(
				h,
				{
					operation: 'update',
					templateId: byId(copyId),
					updateParts: ['name'],
					name: 'Mine, renamed',
				},
				undefined,
				withKey(other),
			);
			expect(renamed.items[0].json).toMatchObject({ id: copyId, name: 'Mine, renamed' });
		});
	});

	describe('key scopes', () => {
		const needsWrite: Params[] = [
			{ operation: 'update', updateParts: ['name'], name: 'New name' },
			{ operation: 'archive' },
			{ operation: 'restore' },
			{ operation: 'duplicate', newName: 'Copy' },
		];

		it.each(needsWrite.map((p) => [p.operation as string, p]))(
			'%s: FORBIDDEN without templates:write',
			async (_op, params) => {
				const readOnly = await keyWith(
					h,
					ALL_SCOPES.filter((s) => s !== 'templates:write'),
				);
				const { id } = await seedTemplate(h);
				const run = await runTemplateOp(
					h,
					{ ...params, templateId: byId(id as string) },
					undefined,
					withKey(readOnly),
				);
				expect(errorText(run)).toContain('FORBIDDEN');
				expect(errorText(run)).toContain('templates:write');
			},
		);

		it('create: FORBIDDEN without templates:write, and nothing uploaded', async () => {
			const readOnly = await keyWith(
				h,
				ALL_SCOPES.filter((s) => s !== 'templates:write'),
			);
			const run = await runTemplateOp(
				h,
				{ operation: 'create', name: 'X' },
				[pdfItem(await makePdf())],
				withKey(readOnly),
			);
			expect(errorText(run)).toContain('FORBIDDEN');
			expect(run.requests).toHaveLength(1);
		});

		it('deleteTemplate: FORBIDDEN without templates:delete, with templates:write; the template stays', async () => {
			const noDelete = await keyWith(
				h,
				ALL_SCOPES.filter((s) => s !== 'templates:delete'),
			);
			const { id } = await seedTemplate(h, {}, { apiKey: noDelete });
			const run = await runTemplateOp(
				h,
				{ operation: 'deleteTemplate', templateId: byId(id as string) },
				undefined,
				withKey(noDelete),
			);
			expect(errorText(run)).toContain('FORBIDDEN');
			expect(errorText(run)).toContain('templates:delete');
			expect(
				await h.api<IDataObject>('GET', `/templates/${String(id)}`, undefined, noDelete),
			).toMatchObject({ id });
		});

		it('reads need templates:read', async () => {
			const { id } = await seedTemplate(h);
			const noRead = await keyWith(
				h,
				ALL_SCOPES.filter((s) => s !== 'templates:read'),
			);
			for (const params of [
				{ operation: 'getMany' },
				{ operation: 'get', templateId: byId(id as string) },
				{ operation: 'getDocumentPayload', templateId: byId(id as string) },
			]) {
				const run = await runTemplateOp(h, params, undefined, withKey(noRead));
				expect(errorText(run)).toContain('FORBIDDEN');
			}
		});
	});

	describe('workspaces', () => {
		it("an organization key sees only the organization's templates", async () => {
			const personal = await seedTemplate(h, { name: 'Personal lease' }, { upload: false });
			await seedTemplate(h, { name: 'Org lease' }, { apiKey: h.sandbox.orgApiKey, upload: false });
			const org = withKey(h.sandbox.orgApiKey);

			const list = await runTemplateOp(
				h,
				{ operation: 'getMany', returnAll: true },
				undefined,
				org,
			);
			expect(list.items.map((i) => i.json.name)).toEqual(['Org lease']);
			const mine = await runTemplateOp(h, { operation: 'getMany', returnAll: true });
			expect(mine.items.map((i) => i.json.name)).toEqual(['Personal lease']);

			const get = await runTemplateOp(
				h,
				{ operation: 'get', templateId: byId(personal.id as string) },
				undefined,
				org,
			);
			expect(errorText(get)).toContain('NOT_FOUND');
			const copy = await runTemplateOp(
				h,
				{ operation: 'duplicate', templateId: byId(personal.id as string), newName: 'Steal' },
				undefined,
				org,
			);
			expect(errorText(copy)).toContain('NOT_FOUND');
		});
	});
});
