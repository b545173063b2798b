/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** The scheduled-batch example in a real n8n: 50 CSV rows become 50 documents from a template, created and sent, in row order. */
import { promises as fs } from 'fs';
import path from 'path';

import { EXAMPLE_TEMPLATE_ID, prepareExampleData } from '../../../scripts/lib/example-data';
import { ROOT } from '../../../scripts/lib/stack';
import { check, type E2eContext, expect, expectEqual, runManually } from '../lib';

export const EXAMPLE_BATCH = 'DsExampleBatch01';

/** Name and e-mail of each CSV row (the first two columns, which hold no commas). */
async function csvRows(): Promise<Array<{ name: string; email: string }>> {
	const lines = (await fs.readFile(path.join(ROOT, 'examples', 'batch-recipients.csv'), 'utf8'))
		.trim()
		.split('\n')
		.slice(1);
	return lines.map((line) => {
		const [name, email] = line.split(',');
		return { name, email };
	});
}

export default async function suite({
	stack,
	sandbox,
	service,
	examples,
}: E2eContext): Promise<void> {
	expect(examples[EXAMPLE_BATCH], 'the batch example is missing');

	await check(
		'example "create and send documents from a CSV": 50 rows -> 50 documents from the template, created and sent, in row order',
		async () => {
			await prepareExampleData(stack);
			const template = await service.get(`/templates/${EXAMPLE_TEMPLATE_ID}`);
			expectEqual(template.status, 200, 'the example template is in the sandbox');
			const before = ((await sandbox.get('/requests')).data.items as unknown[]).length;

			const { execution } = await runManually(stack, EXAMPLE_BATCH, 'Every Morning', 120_000);
			expectEqual(
				execution.status,
				'success',
				`batch run status (${execution.data?.resultData.error?.message ?? ''})`,
			);

			const rows = await csvRows();
			expectEqual(rows.length, 50, 'rows in the CSV');
			const runData = execution.data!.resultData.runData as Record<string, any>;
			const items = runData['Create and Send Lease'][0].data.main[0] as Array<{
				json: Record<string, any>;
				pairedItem?: any;
			}>;
			expectEqual(items.length, 50, 'output items of Create Document');
			expectEqual(
				items.map((i) => i.json.title),
				rows.map((r) => `Lease - ${r.name}`),
				'output titles in row order',
			);
			expectEqual(
				items.map((i) => i.pairedItem?.item),
				rows.map((_, n) => n),
				'pairedItem of each output item',
			);
			expect(
				items.every(
					(i) =>
						i.json.status === 'pending' && i.json.steps?.join() === 'createDocument,sendDocument',
				),
				'every document created and sent',
			);
			const ids = items.map((i) => i.json.envelopeId as string);
			expectEqual(new Set(ids).size, 50, 'distinct envelopes');

			const summary = (runData.Summary[0].data.main[0] as Array<{ json: Record<string, any> }>).map(
				(i) => i.json,
			);
			expectEqual(
				summary.map((s) => [s.status, s.count_envelopeId]),
				[['pending', 50]],
				'summary by status',
			);

			const listed = (await service.get('/envelopes', { params: { limit: 100 } })).data
				.items as Array<Record<string, any>>;
			const fromBatch = listed.filter((e) => ids.includes(e.id));
			expectEqual(fromBatch.length, 50, 'documents in the sandbox');
			expect(
				fromBatch.every((e) => e.status === 'pending'),
				'every document in the sandbox is sent (pending)',
			);
			expectEqual(new Set(listed.map((e) => e.title)).size, listed.length, 'no document twice');

			const requests = (
				(await sandbox.get('/requests')).data.items as Array<{ method: string; path: string }>
			).slice(before);
			const creates = requests.filter(
				(r) =>
					r.method === 'POST' && r.path.endsWith(`/templates/${EXAMPLE_TEMPLATE_ID}/documents`),
			);
			const sends = requests.filter(
				(r) => r.method === 'POST' && r.path.startsWith('/api/v1/documents/'),
			);
			expectEqual([creates.length, sends.length], [50, 50], 'create and send requests');

			const fields = (await service.get(`/envelopes/${ids[9]}/fields`)).data.items as Array<
				Record<string, any>
			>;
			const prefilled = Object.fromEntries(
				fields.filter((f) => f.recipientId === null).map((f) => [f.fieldKey, f.value]),
			);
			expectEqual(
				prefilled,
				{ property_address: '10 MG Road, Bengaluru', monthly_rent: 20000, furnished: false },
				"row 10's prefilled fields (rent as a number, the stored default kept)",
			);
		},
	);
}
