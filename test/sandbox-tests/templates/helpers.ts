/* eslint-disable @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** Helpers of the template, workflow and credit sandbox tests. */
import type { AxiosInstance } from 'axios';
import { makePdf, uploadPut } from '../core/helpers';

export * from '../core/helpers';

/** A template body: a signer `client`, an approver `legal`, and fields of both kinds. */
export function templateBody(over: Record<string, unknown> = {}) {
	return {
		name: 'Service Agreement',
		description: 'Standard services contract',
		fileName: 'service-agreement.pdf',
		recipients: [
			{
				id: 'client',
				name: 'Client',
				role: 'signer',
				order: 1,
				signatureMethod: 'electronic',
				verificationMethod: 'email_verification',
			},
			{ id: 'legal', name: 'Legal', role: 'approver', order: 2 },
		],
		formFields: [
			{
				id: 'f-company',
				fieldKey: 'company',
				type: 'text',
				pageNumber: 1,
				x: 100,
				y: 700,
				width: 200,
				height: 20,
				required: true,
				assignee: { type: 'sender_prefill' },
			},
			{
				id: 'f-agree',
				fieldKey: 'agree',
				type: 'checkbox',
				pageNumber: 1,
				x: 100,
				y: 650,
				width: 12,
				height: 12,
				required: true,
				defaultValue: false,
				assignee: { type: 'sender_prefill' },
			},
			{
				id: 'f-count',
				fieldKey: 'seats',
				type: 'number',
				pageNumber: 1,
				x: 100,
				y: 600,
				width: 50,
				height: 20,
				defaultValue: 0,
				assignee: { type: 'sender_prefill' },
			},
			{
				id: 'f-sign',
				fieldKey: 'client_signature',
				type: 'signature',
				pageNumber: 1,
				x: 100,
				y: 100,
				width: 200,
				height: 50,
				required: true,
				assignee: { type: 'recipient', templateRecipientId: 'client' },
			},
			{
				id: 'f-note',
				fieldKey: 'client_note',
				type: 'text',
				pageNumber: 1,
				x: 100,
				y: 200,
				width: 200,
				height: 20,
				assignee: { type: 'recipient', templateRecipientId: 'client' },
			},
		],
		workflow: { mode: 'sequential', reminderEveryHours: 12, message: 'Please review' },
		...over,
	};
}

/** Creates a template and uploads its PDF; returns the create response. */
export async function templateWithPdf(
	api: AxiosInstance,
	over: Record<string, unknown> = {},
	pdf?: Buffer,
): Promise<any> {
	const created = await api.post('/templates', templateBody(over));
	if (created.status !== 201)
		throw new Error(`template create failed: ${JSON.stringify(created.data)}`);
	const put = await uploadPut(created.data.upload.url, pdf ?? (await makePdf(1, 'Template')));
	if (put.status !== 200) throw new Error(`upload failed: ${JSON.stringify(put.body)}`);
	return created.data;
}

/** A valid document-creation body for templateBody(). */
export function documentBody(over: Record<string, unknown> = {}) {
	return {
		title: 'Agreement with ACME',
		recipientMapping: [
			{ templateRecipientId: 'client', name: 'Asha Rao', email: 'asha@acme.example' },
			{ templateRecipientId: 'legal', name: 'Lee Legal', phone: '+14155550100' },
		],
		prefillValues: [{ fieldId: 'f-company', fieldKey: 'company', value: 'ACME Ltd' }],
		...over,
	};
}
