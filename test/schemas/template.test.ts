import {
	DocumentCreateSchema,
	documentCreateIssues,
	formFieldIssues,
	FormFieldSchema,
	hasFieldValue,
	TemplateCopySchema,
	TemplateCreateSchema,
	TemplateListQuerySchema,
	TemplateUpdateSchema,
	type TemplateForDocument,
} from '../../nodes/shared/api/schemas';
import { codes, problems } from './helpers';

const textField = (over: Record<string, unknown> = {}) => ({
	id: 'f-company',
	fieldKey: 'company',
	type: 'text',
	pageNumber: 1,
	x: 100,
	y: 200,
	width: 150,
	height: 20,
	assignee: { type: 'sender_prefill' },
	...over,
});
const signatureField = (over: Record<string, unknown> = {}) => ({
	id: 'f-sign',
	fieldKey: 'client_signature',
	type: 'signature',
	pageNumber: 2,
	x: 50,
	y: 60,
	width: 200,
	height: 50,
	assignee: { type: 'recipient', templateRecipientId: 'client' },
	...over,
});

describe('form field', () => {
	it('accepts a full field', () => {
		expect(
			problems(
				FormFieldSchema,
				textField({
					label: 'Company',
					required: true,
					readOnly: false,
					defaultValue: 'ACME',
					placeholder: 'Company name',
					options: ['a', 'b'],
					validation: { min: 0, max: 10, pattern: '^[A-Z]', minLength: 1, maxLength: 50 },
					multiline: false,
					showLabel: true,
					fontFamily: 'sans-serif',
					fontWeight: 'normal',
					fontStyle: 'normal',
					fontSize: 12,
					textColor: '#000000',
					textAlign: 'left',
					radioGroup: {
						options: [{ value: 'x', label: 'X', pageNumber: 1, x: 1, y: 1, width: 10, height: 10 }],
						layout: 'AUTO',
						direction: 'VERTICAL',
					},
				}),
			),
		).toEqual([]);
	});

	it('keeps false and 0 as defaults', () => {
		expect(FormFieldSchema.parse(textField({ defaultValue: false })).defaultValue).toBe(false);
		expect(FormFieldSchema.parse(textField({ defaultValue: 0 })).defaultValue).toBe(0);
		expect(hasFieldValue(false)).toBe(true);
		expect(hasFieldValue(0)).toBe(true);
		expect(hasFieldValue('')).toBe(false);
		expect(hasFieldValue(null)).toBe(false);
	});

	it('checks page, size and assignee', () => {
		expect(problems(FormFieldSchema, textField({ pageNumber: 0 }))).toEqual([
			'pageNumber: pages start at 1',
		]);
		expect(problems(FormFieldSchema, textField({ width: 0.5 }))).toEqual([
			'width: width must be at least 1',
		]);
		expect(problems(FormFieldSchema, textField({ height: 0 }))).toEqual([
			'height: height must be at least 1',
		]);
		expect(codes(FormFieldSchema, textField({ assignee: { type: 'someone' } }))).toEqual([
			'invalid_enum_value',
		]);
		expect(problems(FormFieldSchema, textField({ assignee: { type: 'recipient' } }))).toEqual([
			"assignee.templateRecipientId: is required when assignee.type is 'recipient' (the id of a template recipient)",
		]);
		expect(problems(FormFieldSchema, textField({ fieldKey: '' }))).toEqual([
			'fieldKey: is required',
		]);
	});
});

describe('field list rules', () => {
	it('finds duplicate ids and keys, unassigned signatures and unknown recipients', () => {
		const fields = [
			textField(),
			textField({ fieldKey: 'other' }),
			textField({ id: 'f2' }),
			signatureField({ assignee: { type: 'sender_prefill' } }),
			signatureField({
				id: 'f-sign2',
				fieldKey: 'k2',
				assignee: { type: 'recipient', templateRecipientId: 'ghost' },
			}),
		];
		expect(formFieldIssues(fields as never, ['client'])).toEqual([
			{
				path: [1, 'id'],
				message: 'duplicate field id "f-company"; field ids must be unique within the template',
			},
			{
				path: [2, 'fieldKey'],
				message: 'duplicate field key "company"; field keys must be unique within the template',
			},
			{
				path: [3, 'assignee', 'type'],
				message: "signature fields must belong to a recipient (assignee.type 'recipient')",
			},
			{
				path: [4, 'assignee', 'templateRecipientId'],
				message:
					'"ghost" is not a recipient id of this template; recipient-assigned fields need the explicit id of a template recipient',
			},
		]);
		expect(formFieldIssues(fields.slice(4) as never, undefined)).toEqual([]);
	});
});

describe('template create', () => {
	const body = {
		name: 'NDA',
		fileName: 'nda.pdf',
		recipients: [
			{ id: 'client', name: 'Client', role: 'signer' },
			{ name: 'Legal', role: 'approver' },
		],
		formFields: [textField(), signatureField()],
		workflow: { mode: 'sequential' },
	};

	it('accepts a template whose fields name explicit recipient ids', () => {
		expect(problems(TemplateCreateSchema, body)).toEqual([]);
		expect(problems(TemplateCreateSchema, { name: 'Bare', fileName: 'b.pdf' })).toEqual([]);
	});

	it('needs name and fileName', () => {
		expect(problems(TemplateCreateSchema, {})).toEqual(['name: Required', 'fileName: Required']);
	});

	it('allows role placeholders without contact, but checks given formats', () => {
		expect(
			problems(TemplateCreateSchema, {
				...body,
				recipients: [{ id: 'client', name: 'Client', email: 'x' }],
			}),
		).toEqual(['recipients.0.email: Invalid email']);
	});

	it('rejects assignments to recipients without an explicit id in the request', () => {
		expect(
			problems(TemplateCreateSchema, {
				...body,
				recipients: [{ name: 'Client' }],
				formFields: [signatureField()],
			}),
		).toEqual([
			'formFields.0.assignee.templateRecipientId: "client" is not a recipient id of this template; recipient-assigned fields need the explicit id of a template recipient',
		]);
	});

	it('rejects duplicate recipient ids and more than 15 recipients', () => {
		expect(
			problems(TemplateCreateSchema, {
				...body,
				recipients: [
					{ id: 'a', name: 'A' },
					{ id: 'a', name: 'B' },
				],
				formFields: [],
			}),
		).toEqual([
			'recipients.1.id: duplicate recipient id "a"; recipient ids must be unique within the template',
		]);
		expect(
			problems(TemplateCreateSchema, {
				name: 'x',
				fileName: 'x.pdf',
				recipients: Array.from({ length: 16 }, (_, i) => ({ name: `R${i}` })),
			}),
		).toEqual(['recipients: must hold at most 15 recipients across all roles']);
	});
});

describe('template update', () => {
	it('needs at least one property', () => {
		expect(problems(TemplateUpdateSchema, {})).toEqual([
			'must include at least one property to change (name, description, recipients, formFields, workflow, status)',
		]);
		expect(problems(TemplateUpdateSchema, { unknown: 1 })).toHaveLength(1);
	});

	it('accepts each property alone, and formFields: [] to clear', () => {
		for (const patch of [
			{ name: 'N' },
			{ description: '' },
			{ formFields: [] },
			{ status: 'archived' },
			{ status: 'active' },
			{ workflow: {} },
			{ recipients: [] },
		]) {
			expect(problems(TemplateUpdateSchema, patch)).toEqual([]);
		}
	});

	it('checks status enum and assignments against recipients sent in the same body', () => {
		expect(codes(TemplateUpdateSchema, { status: 'deleted' })).toEqual(['invalid_enum_value']);
		expect(problems(TemplateUpdateSchema, { formFields: [signatureField()] })).toEqual([]);
		expect(
			problems(TemplateUpdateSchema, {
				recipients: [{ id: 'other', name: 'O' }],
				formFields: [signatureField()],
			}),
		).toHaveLength(1);
	});
});

describe('template copy and list query', () => {
	it('copy needs newName', () => {
		expect(problems(TemplateCopySchema, { newName: 'NDA v2' })).toEqual([]);
		expect(problems(TemplateCopySchema, {})).toEqual(['newName: Required']);
	});

	it('list defaults to active and rejects other statuses', () => {
		expect(TemplateListQuerySchema.parse({})).toEqual({ page: 1, limit: 20, status: 'active' });
		expect(TemplateListQuerySchema.parse({ status: 'archived', search: 'nda' }).status).toBe(
			'archived',
		);
		expect(codes(TemplateListQuerySchema, { status: 'draft' })).toEqual(['invalid_enum_value']);
	});
});

describe('document creation', () => {
	const template: TemplateForDocument = {
		recipients: [
			{ id: 'client', role: 'signer', name: 'Client' },
			{ id: 'legal', role: 'approver' },
		],
		formFields: [
			{ id: 'f1', fieldKey: 'company', required: true, assignee: { type: 'sender_prefill' } },
			{
				id: 'f2',
				fieldKey: 'agree',
				required: true,
				defaultValue: false,
				assignee: { type: 'sender_prefill' },
			},
			{
				id: 'f3',
				fieldKey: 'sig',
				required: true,
				assignee: { type: 'recipient', templateRecipientId: 'client' },
			},
		],
	};
	const body = {
		title: 'NDA for ACME',
		recipientMapping: [
			{ templateRecipientId: 'client', name: 'Asha', email: 'asha@example.com' },
			{ templateRecipientId: 'legal', name: 'Lee', phone: '+14155550100' },
		],
		prefillValues: [{ fieldId: 'f1', fieldKey: 'company', value: 'ACME' }],
	};

	it('accepts a complete payload', () => {
		expect(problems(DocumentCreateSchema, body)).toEqual([]);
		expect(documentCreateIssues(template, DocumentCreateSchema.parse(body))).toEqual([]);
	});

	it('requires title, mappings with a contact', () => {
		expect(problems(DocumentCreateSchema, {})).toEqual([
			'title: Required',
			'recipientMapping: Required',
		]);
		expect(
			problems(DocumentCreateSchema, {
				...body,
				recipientMapping: [{ templateRecipientId: 'client', name: 'A' }],
			}),
		).toEqual([
			'recipientMapping.0.email: each recipient needs a contact: an email, a phone (E.164) or both',
		]);
	});

	it('rejects repeated mapping and prefill entries in the body', () => {
		expect(
			problems(DocumentCreateSchema, {
				...body,
				recipientMapping: [body.recipientMapping[0], body.recipientMapping[0]],
				prefillValues: [body.prefillValues[0], body.prefillValues[0]],
			}),
		).toEqual([
			'recipientMapping.1.templateRecipientId: repeats "client"; each template recipient is mapped exactly once',
			'prefillValues.1.fieldId: repeats "f1"; each field is prefilled at most once',
		]);
	});

	it('rejects unknown mappings, missing mappings, unknown prefill and missing required values', () => {
		const issues = documentCreateIssues(template, {
			recipientMapping: [{ templateRecipientId: 'ghost', name: 'G', email: 'g@example.com' }],
			prefillValues: [
				{ fieldId: 'f1', fieldKey: 'wrong' },
				{ fieldId: 'f3', fieldKey: 'sig', value: 'x' },
			],
		});
		expect(issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
			'recipientMapping.0.templateRecipientId: "ghost" is not a recipient of this template',
			'recipientMapping: must hold exactly one entry per template recipient; missing "client" (signer, Client), "legal" (approver)',
			'prefillValues.0: fieldId "f1" with fieldKey "wrong" does not match both the id and the key of a sender-prefill field of this template',
			'prefillValues.1: fieldId "f3" with fieldKey "sig" does not match both the id and the key of a sender-prefill field of this template',
			'prefillValues: required field "company" (id "f1") needs a value: it has no stored default',
		]);
	});

	it('needs a signer in the template', () => {
		const noSigner = { ...template, recipients: [{ id: 'legal', role: 'approver' }] };
		const issues = documentCreateIssues(noSigner, {
			recipientMapping: [{ templateRecipientId: 'legal', name: 'L', email: 'l@example.com' }],
			prefillValues: [{ fieldId: 'f1', fieldKey: 'company', value: 'x' }],
		});
		expect(issues.map((i) => i.message)).toEqual([
			'the template needs at least one signer recipient',
		]);
	});
});
