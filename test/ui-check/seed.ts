/**
 * What the editor's pickers and loaders list: a draft envelope, an active and an archived
 * template with a recipient and form fields to prefill, and a signing workflow with
 * participants. Made through the service API of the sandbox, as a user's account would hold
 * them. A resource the sandbox does not serve yet is reported and skipped.
 */
import axios from 'axios';

import type { SandboxInfo } from '../../scripts/lib/stack';

export interface Seeded {
	made: string[];
	skipped: string[];
}

const field = (fieldKey: string, label: string, y: number) => ({
	fieldKey,
	label,
	type: 'text',
	pageNumber: 1,
	x: 50,
	y,
	width: 200,
	height: 20,
	assignee: { type: 'sender_prefill' },
});

/** A one-page PDF (the sandbox checks the `%PDF-` signature and the content type). */
const MINIMAL_PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
	'latin1',
);

export async function seedSandbox(sandbox: SandboxInfo): Promise<Seeded> {
	const api = axios.create({
		baseURL: sandbox.baseUrl,
		headers: { Authorization: `Bearer ${sandbox.apiKey}` },
		validateStatus: () => true,
		timeout: 30_000,
	});
	const seeded: Seeded = { made: [], skipped: [] };
	const make = async (
		what: string,
		method: 'post' | 'patch',
		url: string,
		body: object,
	): Promise<Record<string, unknown> | undefined> => {
		const response = await api.request({ method, url, data: body });
		if (response.status >= 300) {
			seeded.skipped.push(`${what}: ${method.toUpperCase()} ${url} answered ${response.status}`);
			return undefined;
		}
		seeded.made.push(what);
		return response.data as Record<string, unknown>;
	};

	await make('draft envelope', 'post', '/envelopes', {
		fileName: 'lease-agreement.pdf',
		title: 'Lease agreement – Flat 4B',
		recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
	});
	const template = await make('active template', 'post', '/templates', {
		name: 'Rental agreement',
		fileName: 'rental-agreement.pdf',
		recipients: [{ id: 'tenant', name: 'Tenant', email: 'tenant@example.com', role: 'signer' }],
		formFields: [
			field('monthly_rent', 'Monthly rent', 100),
			field('start_date', 'Start date', 140),
			{
				...field('tenant_signature', 'Tenant signature', 400),
				type: 'signature',
				assignee: { type: 'recipient', templateRecipientId: 'tenant' },
			},
		],
	});
	// Publishing a signing workflow needs its templates' PDFs: upload one to the grant.
	const upload = template?.upload as { url?: string } | undefined;
	if (upload?.url) {
		const put = await axios.put(upload.url, MINIMAL_PDF, {
			headers: { 'Content-Type': 'application/pdf' },
			validateStatus: () => true,
		});
		if (put.status === 200) seeded.made.push('template PDF');
		else seeded.skipped.push(`template PDF: PUT answered ${put.status}`);
	}
	const archived = await make('template to archive', 'post', '/templates', {
		name: 'Old NDA',
		fileName: 'nda.pdf',
	});
	if (archived)
		await make('archived template', 'patch', `/templates/${String(archived.id)}`, {
			status: 'archived',
		});
	if (template) {
		const workflow = await make('signing workflow', 'post', '/workflows', {
			name: 'Lease signing',
			config: {
				documents: [{ templateId: template.id, label: 'Rental agreement' }],
				participants: [
					{ key: 'tenant', label: 'Tenant', order: 1 },
					{ key: 'landlord', label: 'Landlord', order: 2 },
				],
			},
		});
		// The create answers { definition, version }.
		const definition = (workflow?.definition ?? workflow) as Record<string, unknown> | undefined;
		if (definition?.id)
			await make(
				'published signing workflow',
				'post',
				`/workflows/${String(definition.id)}/publish`,
				{},
			);
	}
	return seeded;
}
