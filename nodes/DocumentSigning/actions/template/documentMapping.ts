import type {
	FieldType,
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodePropertyOptions,
} from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import { apiPath } from '../../../shared/api/endpoints';
import type { TemplateForDocument } from '../../../shared/api/schemas';
import { effectiveRole } from '../../../shared/api/schemas';
import { apiRequest } from '../../../shared/http/transport';
import { inputError } from '../../../shared/api/validation';
import { readJsonList } from '../shared/params';

/**
 * What document creation needs to know of a template: its roles and its sender-prefill
 * fields. Shared by the editor's mappers (methods/resourceMapping.ts) and the operation.
 */

type TemplateRole = { id: string; role?: string; name?: string; email?: string; phone?: string };
type TemplateField = TemplateForDocument['formFields'][number] & {
	type?: string;
	label?: string;
	options?: string[];
};

export interface DocumentTemplate extends TemplateForDocument {
	id: string;
	name?: string;
	status?: string;
	workflow?: IDataObject;
	recipients: TemplateRole[];
	formFields: TemplateField[];
}

/** The contact parts of a recipient mapping, in the order the editor shows them. */
export const CONTACT_PARTS = ['name', 'email', 'phone'] as const;
type ContactPart = (typeof CONTACT_PARTS)[number];

/** Mapper id of one contact part of a template role: `<role id>.<part>`, e.g. `client.email`. */
export const contactFieldId = (roleId: string, part: ContactPart) => `${roleId}.${part}`;

/** How a role is shown: its placeholder name and its role, e.g. "Client (signer)". */
export function roleLabel(recipient: { id: string; role?: string; name?: string }): string {
	return `${recipient.name || recipient.id} (${effectiveRole(recipient)})`;
}

/** The template with its roles and fields (GET /templates/{id}), read once per node run: a batch reads it once. */
export async function fetchTemplate(
	this: IExecuteFunctions | ILoadOptionsFunctions,
	templateId: string,
	itemIndex?: number,
): Promise<DocumentTemplate> {
	const template = (await apiRequest.call(this, 'GET', apiPath('template', templateId), {
		itemIndex,
		oncePerRun: true,
	})) as IDataObject;
	return {
		...template,
		id: String(template.id ?? templateId),
		recipients: (template.recipients as DocumentTemplate['recipients'] | undefined) ?? [],
		formFields: (template.formFields as DocumentTemplate['formFields'] | undefined) ?? [],
	} as DocumentTemplate;
}

/** The fields the sender fills when a document is created. */
export function senderFields(template: DocumentTemplate): TemplateField[] {
	return template.formFields.filter((field) => field.assignee?.type === 'sender_prefill');
}

/**
 * The n8n type of a form field. Only `text` and `signature` are shown by the
 * specification; the other names are guesses (assumptions.ts), anything else is text.
 */
export function fieldType(field: { type?: string; options?: unknown }): FieldType {
	const type = (field.type ?? '').toLowerCase();
	if (type === 'checkbox' || type === 'boolean') return 'boolean';
	if (type === 'number') return 'number';
	if (type === 'date' || type === 'datetime') return 'dateTime';
	if (Array.isArray(field.options) && field.options.length > 0) return 'options';
	return 'string';
}

export function fieldOptions(field: { options?: unknown }): INodePropertyOptions[] | undefined {
	return Array.isArray(field.options)
		? field.options.map((o) => ({ name: String(o), value: String(o) }))
		: undefined;
}

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A mapper's values of item `i` (`<parameter>.value`), unchecked by n8n: the rules here name the template's own words. */
function mapperValues(this: IExecuteFunctions, parameter: string, i: number): IDataObject {
	const value = this.getNodeParameter(
		`${parameter}.value`,
		i,
		{},
		{ skipValidation: true },
	) as IDataObject | null;
	return value ?? {};
}

/**
 * The recipient mapping of item `i`: from the role mapper (one group of name, e-mail and
 * phone per template role) or from JSON (the API's `recipientMapping` entries, or a whole
 * document payload). Unchecked: the document schema and the template decide.
 */
export function readRecipientMapping(this: IExecuteFunctions, i: number): unknown[] {
	if (this.getNodeParameter('recipientsInput', i, 'roles') === 'json') {
		return (
			readJsonList.call(
				this,
				'recipientMappingJson',
				i,
				'Recipients (JSON)',
				'recipientMapping',
				'recipient mappings',
			) ?? []
		);
	}
	const byRole = new Map<string, IDataObject>();
	for (const [key, raw] of Object.entries(mapperValues.call(this, 'recipientMapping', i))) {
		const dot = key.lastIndexOf('.');
		const part = key.slice(dot + 1);
		if (dot < 1 || !(CONTACT_PARTS as readonly string[]).includes(part)) {
			throw inputError(
				this.getNode(),
				`Recipients: "${key}" is not a recipient field (name, email or phone of a role)`,
				i,
				'Refresh the list of recipient fields.',
			);
		}
		const roleId = key.slice(0, dot);
		const entry = byRole.get(roleId) ?? { templateRecipientId: roleId };
		if (!isEmpty(raw)) entry[part] = typeof raw === 'string' ? raw.trim() : String(raw);
		byRole.set(roleId, entry);
	}
	// name is required: kept even when empty so the schema names it
	return [...byRole.values()].map((entry) => ({ ...entry, name: entry.name ?? '' }));
}

/**
 * The prefill values of item `i` from the field mapper, each converted to its field's
 * type. An empty field is left out, so the template's stored default (also `false` or
 * `0`) applies.
 */
export function readPrefillValues(
	this: IExecuteFunctions,
	i: number,
	template: DocumentTemplate,
): IDataObject[] {
	const fields = senderFields(template);
	const values: IDataObject[] = [];
	const auto =
		this.getNodeParameter('prefill.mappingMode', i, 'defineBelow') === 'autoMapInputData';
	// Map Automatically: the input item's fields named as a sender field's key; the item's
	// other fields (an e-mail, an id) are not the template's and are left alone.
	const given = auto
		? autoMapped(this.getInputData()[i]?.json ?? {}, fields)
		: mapperValues.call(this, 'prefill', i);
	const where = auto
		? 'Prefill Fields (mapped automatically from the input field)'
		: 'Prefill Fields';
	for (const [key, raw] of Object.entries(given)) {
		const field = fields.find((f) => f.fieldKey === key);
		if (!field) {
			throw inputError(
				this.getNode(),
				`Prefill Fields: "${key}" is not a field the sender fills in template ${template.id}`,
				i,
				`Refresh the field list. Sender fields: ${fields.map((f) => f.fieldKey).join(', ') || 'none'}.`,
			);
		}
		if (isEmpty(raw)) continue;
		const type = fieldType(field);
		const checked = validateFieldType(key, raw, type, { valueOptions: fieldOptions(field) });
		if (!checked.valid) {
			throw inputError(
				this.getNode(),
				`${where}: "${key}" must be ${type === 'options' ? "one of the field's options" : `a ${type}`}`,
				i,
				checked.errorMessage,
			);
		}
		let value = checked.newValue as unknown;
		if (
			value &&
			typeof value === 'object' &&
			typeof (value as { toISODate?: unknown }).toISODate === 'function'
		) {
			value = (value as { toISODate: () => string }).toISODate(); // a date field holds the day
		}
		values.push({
			fieldId: field.id,
			fieldKey: field.fieldKey,
			value: value as IDataObject[string],
		});
	}
	return values;
}

/** The input item's values for the sender fields, by field key. */
function autoMapped(json: IDataObject, fields: TemplateField[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) {
		if (Object.prototype.hasOwnProperty.call(json, field.fieldKey))
			out[field.fieldKey] = json[field.fieldKey];
	}
	return out;
}
