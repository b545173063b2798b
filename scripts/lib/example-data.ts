/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: prepares the sandbox and files folder for the examples, not published (package.json "files" is dist/ only) */
/**
 * What the examples need besides their workflows, prepared by `npm start` and the e2e run:
 * the CSV files of examples/ copied into the files folder n8n may read, and the template
 * of the scheduled-batch example, created through the API with its PDF and given the fixed
 * id the example names (the sandbox is new on every run; the imported workflow is kept).
 */
import axios from 'axios';
import { promises as fs } from 'fs';
import path from 'path';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { ROOT, type Stack } from './stack';

/** The template id the example "create and send documents from a CSV" uses. */
export const EXAMPLE_TEMPLATE_ID = 'tpl_example_lease';

export const EXAMPLE_TEMPLATE = {
	name: 'Lease agreement (batch example)',
	description: 'Used by the example workflow that creates and sends one lease per CSV row',
	fileName: 'lease-agreement.pdf',
	recipients: [
		{ id: 'tenant', name: 'Tenant', role: 'signer' },
		{ id: 'landlord', name: 'Landlord', role: 'cc' },
	],
	formFields: [
		{
			id: 'f-address',
			fieldKey: 'property_address',
			label: 'Property address',
			type: 'text',
			pageNumber: 1,
			x: 150,
			y: 700,
			width: 300,
			height: 20,
			required: true,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-rent',
			fieldKey: 'monthly_rent',
			label: 'Monthly rent',
			type: 'number',
			pageNumber: 1,
			x: 150,
			y: 670,
			width: 120,
			height: 20,
			required: true,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-furnished',
			fieldKey: 'furnished',
			label: 'Furnished',
			type: 'checkbox',
			pageNumber: 1,
			x: 150,
			y: 640,
			width: 20,
			height: 20,
			defaultValue: false,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-tenant-sign',
			fieldKey: 'tenant_signature',
			type: 'signature',
			pageNumber: 1,
			x: 50,
			y: 150,
			width: 200,
			height: 50,
			assignee: { type: 'recipient', templateRecipientId: 'tenant' },
		},
	],
	workflow: {
		mode: 'sequential',
		reminderEveryHours: 24,
		message: 'Please sign your lease agreement',
	},
};

async function leasePdf(): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const page = doc.addPage([595, 842]);
	const lines = ['Lease agreement', '', 'Property address:', 'Monthly rent:', 'Furnished:'];
	lines.forEach((text, n) =>
		page.drawText(text, { x: 50, y: 780 - n * 30, size: n === 0 ? 22 : 12, font }),
	);
	page.drawText('Signature of tenant', { x: 50, y: 210, size: 12, font });
	return Buffer.from(await doc.save());
}

/** Copies examples/*.csv into the files folder and creates the example template (when missing). */
export async function prepareExampleData(stack: Stack): Promise<void> {
	const examples = path.join(ROOT, 'examples');
	for (const file of (await fs.readdir(examples)).filter((f) => f.endsWith('.csv'))) {
		await fs.copyFile(path.join(examples, file), path.join(stack.filesDir, file));
	}

	const api = axios.create({
		baseURL: stack.sandbox.baseUrl,
		headers: { Authorization: `Bearer ${stack.sandbox.apiKey}` },
		validateStatus: () => true,
	});
	if ((await api.get(`/templates/${EXAMPLE_TEMPLATE_ID}`)).status === 200) return;
	const created = await api.post('/templates', EXAMPLE_TEMPLATE);
	if (created.status >= 300)
		throw new Error(
			`creating the example template answered ${created.status}: ${JSON.stringify(created.data)}`,
		);
	const uploaded = await axios.put(created.data.upload.url as string, await leasePdf(), {
		headers: { 'content-type': 'application/pdf' },
		validateStatus: () => true,
	});
	if (uploaded.status >= 300)
		throw new Error(`uploading the example template's PDF answered ${uploaded.status}`);
	const fixed = await axios.post(
		`${stack.sandbox.origin}/__sandbox/templates/${created.data.id as string}/fixed-id`,
		{ id: EXAMPLE_TEMPLATE_ID },
		{ validateStatus: () => true },
	);
	if (fixed.status !== 200)
		throw new Error(`fixing the example template's id answered ${fixed.status}`);
}
