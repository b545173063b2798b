/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** Template operations in a real n8n: create with upload, update, document payload, duplicate, archive, list, delete. */
import axios from 'axios';
import { promises as fs } from 'fs';
import path from 'path';

import { check, type E2eContext, executions, expect, expectEqual, makePdf, output } from '../lib';

export default async function suite({ stack, service, workflows }: E2eContext): Promise<void> {
	const workflow = workflows.DsE2eTemplate001;
	expect(workflow, 'the template workflow fixture is missing');

	await check(
		'template workflow in n8n: PDF from disk -> create template with roles and fields -> rename -> payload -> duplicate -> archive -> archived list -> delete',
		async () => {
			const inputPath = path.join(stack.filesDir, 'lease-template.pdf');
			const pdf = await makePdf('Lease template');
			await fs.writeFile(inputPath, pdf);

			const response = await axios.post(
				`${stack.n8nUrl}/webhook/e2e-templates`,
				{ filePath: inputPath, name: 'Lease (e2e)' },
				{ validateStatus: () => true, timeout: 60_000 },
			);
			expectEqual(
				response.status,
				200,
				`template workflow response (${JSON.stringify(response.data).slice(0, 300)})`,
			);

			const [run] = (await executions(stack, workflow.id)).slice(-1);
			expectEqual(run?.status, 'success', 'template workflow execution status');
			const created = output(run, 'Create Template').json;
			expectEqual(
				[created.name, created.fileName, created.recipientsCount],
				['Lease (e2e)', 'lease-template.pdf', 2],
				'created template',
			);
			expectEqual(created.uploaded?.size, pdf.length, 'uploaded PDF size');
			expectEqual(output(run, 'Rename').json.name, 'Lease (e2e) v2', 'renamed template');
			const payload = output(run, 'Payload').json;
			expectEqual(
				payload.recipientMapping.map((m: any) => m.templateRecipientId),
				['tenant', 'landlord'],
				'payload roles',
			);
			expectEqual(
				payload.prefillValues.map((p: any) => [p.fieldKey, p.value]),
				[['rent', '1000']],
				'payload prefill with its stored default',
			);
			const copy = output(run, 'Duplicate').json;
			expectEqual([copy.name, copy.copiedFrom], ['Copy from n8n', created.id], 'copy');
			expectEqual(output(run, 'Archive Copy').json.status, 'archived', 'archived copy');
			expectEqual(output(run, 'Archived List').json.id, copy.id, 'archived list');
			expectEqual(output(run, 'Delete Copy').json, { deleted: true, id: copy.id }, 'delete output');
			expectEqual(response.data, { deleted: true, id: copy.id }, 'webhook answer (last node)');

			const stored = await service.get(`/templates/${created.id}`);
			expectEqual(stored.status, 200, 'the original template is still there');
			expectEqual(
				[stored.data.name, stored.data.fileSize, stored.data.workflow?.mode],
				['Lease (e2e) v2', pdf.length, 'parallel'],
				'stored template',
			);
			expectEqual(
				(stored.data.formFields as any[]).map((f) => [f.fieldKey, f.assignee.type]),
				[
					['rent', 'sender_prefill'],
					['tenant_sign', 'recipient'],
				],
				'stored fields',
			);
			expectEqual(
				(await service.get(`/templates/${copy.id}`)).status,
				404,
				'the deleted copy is gone',
			);
		},
	);
}
