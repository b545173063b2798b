/** Helpers of the document-from-template tests: a seeded template with typed sender fields, and the node's mapper values. */
import type { IDataObject } from 'n8n-workflow';

import type { Harness } from '../harness';
import { byId, seedTemplate } from '../template/helpers';

export { byId, errorText, type OpRun, runTemplateOp } from '../template/helpers';

/** A lease template: a signer and a cc role; sender fields of several types, two with stored defaults `0` and `false`. */
export const LEASE = {
	name: 'Lease',
	fileName: 'lease.pdf',
	recipients: [
		{ id: 'tenant', name: 'Tenant', role: 'signer' },
		{ id: 'agent', name: 'Agent', role: 'cc' },
	],
	formFields: [
		{
			id: 'f-company',
			fieldKey: 'company',
			label: 'Company',
			type: 'text',
			pageNumber: 1,
			x: 10,
			y: 10,
			width: 100,
			height: 20,
			required: true,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-deposit',
			fieldKey: 'deposit',
			type: 'number',
			pageNumber: 1,
			x: 10,
			y: 40,
			width: 100,
			height: 20,
			required: true,
			defaultValue: 0,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-furnished',
			fieldKey: 'furnished',
			type: 'checkbox',
			pageNumber: 1,
			x: 10,
			y: 70,
			width: 20,
			height: 20,
			defaultValue: false,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-plan',
			fieldKey: 'plan',
			type: 'text',
			options: ['basic', 'premium'],
			pageNumber: 1,
			x: 10,
			y: 100,
			width: 100,
			height: 20,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-start',
			fieldKey: 'start',
			type: 'date',
			pageNumber: 1,
			x: 10,
			y: 130,
			width: 100,
			height: 20,
			assignee: { type: 'sender_prefill' },
		},
		{
			id: 'f-sign',
			fieldKey: 'tenant_signature',
			type: 'signature',
			pageNumber: 1,
			x: 10,
			y: 300,
			width: 200,
			height: 50,
			assignee: { type: 'recipient', templateRecipientId: 'tenant' },
		},
	],
	workflow: { mode: 'sequential', reminderEveryHours: 12 },
};

export async function seedLease(
	h: Harness,
	over: IDataObject = {},
	opts: { apiKey?: string } = {},
): Promise<string> {
	const created = await seedTemplate(h, { ...LEASE, ...over }, opts);
	return created.id as string;
}

/** A resource mapper's parameter value as the editor saves it. */
export const mapped = (value: IDataObject) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** The contacts of both lease roles, from the item by default. */
export const CONTACTS = {
	'tenant.name': '={{ $json.name }}',
	'tenant.email': '={{ $json.email }}',
	'agent.name': 'Asha Agent',
	'agent.phone': '+919876543210',
};

/** Create Document parameters for the lease template. */
export function createDocumentParams(templateId: string, over: IDataObject = {}): IDataObject {
	return {
		operation: 'createDocument',
		templateId: byId(templateId),
		title: '={{ "Lease - " + $json.name }}',
		recipientMapping: mapped(CONTACTS),
		prefill: mapped({ company: 'Acme Homes' }),
		...over,
	};
}

export const tenant = (n: number) => ({ name: `Tenant ${n}`, email: `tenant${n}@example.com` });
