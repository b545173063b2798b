/**
 * What is sent again after a failure that may have reached the service: a template PATCH
 * (it gives the same template twice), never a create, copy or delete.
 */
import { type Harness, startHarness } from '../harness';
import { byId, errorText, runTemplateOp, seedTemplate } from './helpers';

describe('template requests after a lost connection', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => {
		await h.reset();
		await h.fault({});
	});
	afterEach(async () => await h.fault({}));

	it('archive (PATCH) is sent again after a connection reset and a 500, and succeeds', async () => {
		const { id } = await seedTemplate(h);
		await h.fault({
			connectionReset: { path: `/templates/${String(id)}`, count: 1 },
			failures: [{ status: 500, path: `/templates/${String(id)}`, count: 1 }],
		});
		const run = await runTemplateOp(h, { operation: 'archive', templateId: byId(id as string) });
		expect(run.result.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ id, status: 'archived' });
		expect(run.requests.filter((r) => r.method === 'PATCH').length).toBeGreaterThanOrEqual(3);
	});

	it.each([
		['duplicate', { operation: 'duplicate', newName: 'Copy' }, 'copies'],
		['deleteTemplate', { operation: 'deleteTemplate' }, ''],
	])('%s is not sent again after a connection reset', async (_op, params, sub) => {
		const { id } = await seedTemplate(h);
		const path = `/templates/${String(id)}${sub ? `/${sub}` : ''}`;
		await h.fault({ connectionReset: { path, count: 1 } });
		const run = await runTemplateOp(h, { ...params, templateId: byId(id as string) });
		expect(errorText(run)).toContain('not sent again');
		expect(run.requests.filter((r) => r.method !== 'GET')).toHaveLength(1);
	});
});
