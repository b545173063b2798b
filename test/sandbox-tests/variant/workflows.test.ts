/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** V2 workflow list and get, V3 scoped keys, V7 answer shapes of update, publish and run: both modes. */
import { useSandbox } from '../../sandbox-fixture';
import {
	admin,
	client,
	createWorkflow,
	MODES,
	publishedWorkflow,
	runBody,
	workflowIdOf,
} from './helpers';

const DEFINITION_KEYS = [
	'createdAt',
	'custodianUserId',
	'description',
	'id',
	'latestPublishedVersion',
	'name',
	'organizationId',
	'ownerId',
	'status',
	'updatedAt',
];
const VERSION_KEYS = [
	'config',
	'createdAt',
	'createdById',
	'id',
	'publishedAt',
	'publishedById',
	'status',
	'updatedAt',
	'version',
	'workflowDefinitionId',
];

describe.each(MODES)('%s mode', (_mode, variant) => {
	const sandbox = useSandbox({ variant });

	test('V2: list and get paths and shapes', async () => {
		const api = client(sandbox);
		const id = await publishedWorkflow(api);
		await api.patch(`/workflows/${id}`, { description: 'second draft' });

		const oldList = await api.get('/workflows');
		const oldGet = await api.get(`/workflows/${id}`);
		const newList = await api.get('/workflow-definitions');
		const newGet = await api.get(`/workflow-definitions/${id}`);
		if (variant) {
			expect([oldList.status, oldGet.status]).toEqual([404, 404]);
			expect(oldGet.data.code).toBe('NOT_FOUND');
			expect(newList.status).toBe(200);
			expect(newList.data.pageInfo).toMatchObject({ page: 1, limit: 10, total: 1 });
			expect(Object.keys(newList.data.items[0]).sort()).toEqual(DEFINITION_KEYS);
			expect(newGet.status).toBe(200);
			expect(Object.keys(newGet.data).sort()).toEqual([...DEFINITION_KEYS, 'versions'].sort());
			expect(newGet.data.latestPublishedVersion).toBe(1);
			expect(newGet.data.versions.map((v: any) => [v.version, v.status])).toEqual([
				[1, 'published'],
				[2, 'draft'],
			]);
			expect(Object.keys(newGet.data.versions[0]).sort()).toEqual(VERSION_KEYS);
			expect((await api.get('/workflow-definitions/wf_missing')).status).toBe(404);
		} else {
			expect([newList.status, newGet.status]).toEqual([404, 404]);
			expect(oldList.status).toBe(200);
			expect(oldList.data.items.map((d: any) => d.id)).toEqual([id]);
			expect(oldGet.status).toBe(200);
			expect(Object.keys(oldGet.data).sort()).toEqual([
				'definition',
				'publishedVersion',
				'version',
			]);
			expect([oldGet.data.version.version, oldGet.data.publishedVersion.version]).toEqual([2, 1]);
		}
	});

	test('V3: a key with only workflows:write runs a workflow but reads none', async () => {
		const api = client(sandbox);
		const id = await publishedWorkflow(api);
		const minted = await admin(sandbox).post('/keys', {
			workspace: 'personal',
			scopes: ['workflows:write'],
		});
		expect(minted.status).toBe(201);
		const writer = client(sandbox, minted.data.apiKey);

		const reads = variant
			? ['/workflow-definitions', `/workflow-definitions/${id}`]
			: ['/workflows', `/workflows/${id}`];
		for (const path of reads) {
			const refused = await writer.get(path);
			expect(refused.status).toBe(403);
			expect(refused.data.code).toBe('FORBIDDEN');
			expect(refused.data.message).toContain('workflows:read');
		}
		const run = await writer.post(`/workflows/${id}/runs`, runBody);
		expect(run.status).toBe(200);

		const reader = client(
			sandbox,
			(await admin(sandbox).post('/keys', { workspace: 'personal', scopes: ['workflows:read'] }))
				.data.apiKey,
		);
		expect((await reader.get(reads[1])).status).toBe(200);
		expect((await reader.post(`/workflows/${id}/runs`, runBody)).status).toBe(403);
	});

	test('V7: answers of PATCH, publish and run', async () => {
		const api = client(sandbox);
		const created = await createWorkflow(api);
		// Create is shown by the spec: `definition` and `version` in both modes.
		expect(Object.keys(created.data).sort()).toEqual(['definition', 'version']);
		const id = workflowIdOf(created.data);

		const patched = await api.patch(`/workflows/${id}`, { description: 'Edited' });
		expect(patched.status).toBe(200);
		const published = await api.post(`/workflows/${id}/publish`);
		expect(published.status).toBe(200);
		const run = await api.post(`/workflows/${id}/runs`, { ...runBody, idempotencyKey: 'run-1' });
		expect(run.status).toBe(200);

		if (variant) {
			expect(Object.keys(patched.data).sort()).toEqual(VERSION_KEYS);
			expect(patched.data).toMatchObject({ workflowDefinitionId: id, version: 1, status: 'draft' });
			expect(Object.keys(published.data).sort()).toEqual(DEFINITION_KEYS);
			expect(published.data).toMatchObject({ id, latestPublishedVersion: 1, status: 'published' });
			expect(Object.keys(run.data).sort()).toEqual([
				'approvalStatus',
				'createdAt',
				'envelopeIds',
				'envelopes',
				'id',
				'idempotencyKey',
				'status',
				'version',
				'workflowId',
			]);
			expect(run.data).toMatchObject({
				workflowId: id,
				version: 1,
				approvalStatus: 'not_required',
				idempotencyKey: 'run-1',
			});
			expect(run.data.envelopes).toEqual([
				{ id: run.data.envelopeIds[0], title: 'Onboarding ACME', status: 'pending' },
			]);
		} else {
			expect(Object.keys(patched.data).sort()).toEqual(['definition', 'version']);
			expect(patched.data.definition.description).toBe('Edited');
			expect(Object.keys(published.data).sort()).toEqual(['definition', 'version']);
			expect(published.data.version).toMatchObject({ version: 1, status: 'published' });
			expect(Object.keys(run.data).sort()).toEqual(['approval', 'envelope', 'envelopes', 'run']);
			expect(run.data.run).toMatchObject({ workflowId: id, version: 1, idempotencyKey: 'run-1' });
			expect(run.data.envelope.status).toBe('pending');
		}
		// The same idempotency key answers the first run, in the mode's shape.
		expect(
			(await api.post(`/workflows/${id}/runs`, { ...runBody, idempotencyKey: 'run-1' })).data,
		).toEqual(run.data);
	});
});
