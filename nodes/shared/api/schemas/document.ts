/** Document creation from a template (specification 2.10, 4.2 rules 2 and 3). */
import { z } from 'zod/v3';

import type { FieldIssue } from './primitives';
import { addIssues, checkContact, email, phone, required, uniqueIssues } from './primitives';
import { effectiveRole, hasSigner, MAX_RECIPIENTS, tooManyRecipients } from './recipients';
import { SigningSettingsSchema } from './signingSettings';
import { FieldValueSchema } from './template';

export const RecipientMappingSchema = z
	.object({
		templateRecipientId: required('is required (the id of a template recipient)'),
		name: required('is required'),
		email: email().optional(),
		phone: phone().optional(),
	})
	.superRefine(checkContact);

export const PrefillValueSchema = z.object({
	fieldId: required('is required'),
	fieldKey: required('is required'),
	/** Omitted or null: the field's stored default applies. */
	value: FieldValueSchema.optional(),
});

export const DocumentCreateSchema = z
	.object({
		title: required('is required'),
		recipientMapping: z
			.array(RecipientMappingSchema)
			.min(1, 'must hold one entry per template recipient')
			.max(MAX_RECIPIENTS, tooManyRecipients()),
		prefillValues: z.array(PrefillValueSchema).optional(),
		workflow: SigningSettingsSchema.optional(),
	})
	.superRefine((body, ctx) => {
		addIssues(
			ctx,
			uniqueIssues(
				body.recipientMapping,
				'templateRecipientId',
				(id) => `repeats "${id}"; each template recipient is mapped exactly once`,
			),
			['recipientMapping'],
		);
		addIssues(
			ctx,
			uniqueIssues(
				body.prefillValues ?? [],
				'fieldId',
				(id) => `repeats "${id}"; each field is prefilled at most once`,
			),
			['prefillValues'],
		);
	});

type DocumentCreate = z.infer<typeof DocumentCreateSchema>;

/** True when a field value counts as given (`false` and `0` do; null and "" do not). */
export function hasFieldValue(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

export interface TemplateForDocument {
	recipients: ReadonlyArray<{ id: string; role?: string; name?: string }>;
	formFields: ReadonlyArray<{
		id: string;
		fieldKey: string;
		required?: boolean;
		defaultValue?: unknown;
		assignee: { type: string; templateRecipientId?: string };
	}>;
}

/**
 * The rules of document creation that need the template (4.2 rule 3): every mapping and
 * prefill entry names something of the template, each template recipient is mapped once,
 * the template has a signer, and required sender fields have a value or stored default.
 * Run after DocumentCreateSchema; paths are relative to the request body.
 */
export function documentCreateIssues(
	template: TemplateForDocument,
	body: Pick<DocumentCreate, 'recipientMapping' | 'prefillValues'>,
): FieldIssue[] {
	const issues: FieldIssue[] = [];
	const recipientIds = template.recipients.map((r) => r.id);
	body.recipientMapping.forEach((entry, i) => {
		if (!recipientIds.includes(entry.templateRecipientId)) {
			issues.push({
				path: ['recipientMapping', i, 'templateRecipientId'],
				message: `"${entry.templateRecipientId}" is not a recipient of this template`,
			});
		}
	});
	const mapped = new Set(body.recipientMapping.map((m) => m.templateRecipientId));
	const missing = template.recipients.filter((r) => !mapped.has(r.id));
	if (missing.length > 0) {
		issues.push({
			path: ['recipientMapping'],
			message: `must hold exactly one entry per template recipient; missing ${missing
				.map((r) => `"${r.id}" (${effectiveRole(r)}${r.name ? `, ${r.name}` : ''})`)
				.join(', ')}`,
		});
	}
	if (template.recipients.length === 0 || !hasSigner(template.recipients)) {
		issues.push({
			path: ['recipientMapping'],
			message: 'the template needs at least one signer recipient',
		});
	}
	if (template.recipients.length > MAX_RECIPIENTS) {
		issues.push({
			path: ['recipientMapping'],
			message: `at most ${MAX_RECIPIENTS} recipients across all roles`,
		});
	}

	const senderFields = template.formFields.filter((f) => f.assignee.type === 'sender_prefill');
	const given = new Map<string, unknown>();
	(body.prefillValues ?? []).forEach((entry, i) => {
		const field = senderFields.find((f) => f.id === entry.fieldId && f.fieldKey === entry.fieldKey);
		if (!field) {
			issues.push({
				path: ['prefillValues', i],
				message: `fieldId "${entry.fieldId}" with fieldKey "${entry.fieldKey}" does not match both the id and the key of a sender-prefill field of this template`,
			});
			return;
		}
		given.set(field.id, entry.value);
	});
	for (const field of senderFields) {
		if (
			field.required &&
			!hasFieldValue(given.get(field.id)) &&
			!hasFieldValue(field.defaultValue)
		) {
			issues.push({
				path: ['prefillValues'],
				message: `required field "${field.fieldKey}" (id "${field.id}") needs a value: it has no stored default`,
			});
		}
	}
	return issues;
}
