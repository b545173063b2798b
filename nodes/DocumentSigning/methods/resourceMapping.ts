import type {
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import {
	CONTACT_PARTS,
	contactFieldId,
	type DocumentTemplate,
	fetchTemplate,
	fieldOptions,
	fieldType,
	roleLabel,
	senderFields,
} from '../actions/template/documentMapping';
import { resourceId } from '../../shared/api/validation';

const PART_LABELS = { name: 'Name', email: 'Email', phone: 'Phone' } as const;

/**
 * The template picked in the node, or undefined while none is picked (or an expression not
 * resolved yet). A picked id goes through the one id check: `.`, `..` or a too-long id is an
 * error naming the field, and no request is sent.
 */
async function pickedTemplate(this: ILoadOptionsFunctions): Promise<DocumentTemplate | undefined> {
	const picked = this.getNodeParameter('templateId', undefined, { extractValue: true }) as unknown;
	if (typeof picked !== 'string' || !picked.trim() || picked.startsWith('=')) return undefined;
	return await fetchTemplate.call(this, resourceId(this, 'Template', picked, 0));
}

/**
 * The fields, with the notice only when there are none: n8n's editor shows a notice it was
 * given whenever it shows no field list, also in Map Automatically with fields loaded.
 */
function withNotice(fields: ResourceMapperField[], notice: string): ResourceMapperFields {
	return fields.length ? { fields } : { fields, emptyFieldsNotice: notice };
}

/**
 * Create Document's recipient mapper: for every role of the template, the real person's
 * name (required), e-mail and phone (at least one of them), labelled with the role.
 */
export async function getTemplateRoles(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const template = await pickedTemplate.call(this);
	if (!template)
		return { fields: [], emptyFieldsNotice: 'Pick a template first: its roles appear here' };
	const fields: ResourceMapperField[] = template.recipients.flatMap((recipient) =>
		CONTACT_PARTS.map((part) => {
			const stored = part === 'name' ? undefined : recipient[part];
			return {
				id: contactFieldId(recipient.id, part),
				displayName: `${roleLabel(recipient)}: ${PART_LABELS[part]}`,
				required: part === 'name',
				defaultMatch: false,
				display: true,
				type: 'string' as const,
				...(stored ? { defaultValue: stored } : {}),
			};
		}),
	);
	return withNotice(fields, 'This template has no recipients');
}

/**
 * Create Document's prefill mapper: the fields the sender fills, typed from the field
 * type, required where the template says so and has no stored default (an empty field
 * keeps the stored default, also `false` or `0`).
 *
 * Labelled with the field's label alone (its key when it has none), as Airtable's and
 * Postgres' mappers show a column's name: a longer label is cut off in the panel. The key
 * is the field's id (what Map Automatically matches input fields by); the key and the
 * stored default are listed by Template > Get Document Payload. Two fields of one label
 * get their key added, so they stay apart.
 */
export async function getPrefillFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const template = await pickedTemplate.call(this);
	if (!template)
		return { fields: [], emptyFieldsNotice: 'Pick a template first: its fields appear here' };
	const sender = senderFields(template);
	const label = (field: (typeof sender)[number]) => field.label?.trim() || field.fieldKey;
	const shared = (name: string) => sender.filter((f) => label(f) === name).length > 1;
	const fields: ResourceMapperField[] = sender.map((field) => {
		const stored = field.defaultValue;
		const hasDefault = stored !== undefined && stored !== null && stored !== '';
		const type = fieldType(field);
		return {
			id: field.fieldKey,
			displayName: shared(label(field)) ? `${label(field)} (${field.fieldKey})` : label(field),
			required: field.required === true && !hasDefault,
			defaultMatch: false,
			display: true,
			type,
			options: fieldOptions(field),
			// a switch always shows a state: the stored default, else off
			...(type === 'boolean' ? { defaultValue: typeof stored === 'boolean' ? stored : false } : {}),
		};
	});
	if (!fields.length)
		return { fields, emptyFieldsNotice: 'This template has no fields for the sender to fill' };
	// Shown by n8n in Map Automatically (where it lists no fields), above its own notice that
	// input fields must be named as the template's: the names, which that notice does not give.
	const keys = fields.map((f) => f.id).join(', ');
	return {
		fields,
		emptyFieldsNotice: `The template's field keys, which the input items' field names must match: ${keys}`,
	};
}
