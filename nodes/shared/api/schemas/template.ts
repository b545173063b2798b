/** Templates and their form fields (specification 2.8, 2.9, 4.2). */
import { z } from 'zod/v3';

import { PagingQuerySchema } from './paging';
import type { FieldIssue } from './primitives';
import { addIssues, optionalId, required, uniqueBy, uniqueIssues } from './primitives';
import { MAX_RECIPIENTS, recipientFields, tooManyRecipients } from './recipients';
import { SigningSettingsSchema } from './signingSettings';

/** A value a field can hold; checkbox defaults such as `false` and `0` are real values. */
export const FieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The field types the specification shows; others are passed through as given. */
export const ShownFieldTypeSchema = z.enum(['text', 'signature']);

export const FieldAssigneeTypeSchema = z.enum(['sender_prefill', 'recipient']);

export const FieldAssigneeSchema = z
	.object({
		type: FieldAssigneeTypeSchema,
		templateRecipientId: optionalId(),
	})
	.superRefine((assignee, ctx) => {
		if (assignee.type === 'recipient' && assignee.templateRecipientId === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['templateRecipientId'],
				message: "is required when assignee.type is 'recipient' (the id of a template recipient)",
			});
		}
	});

const minOne = (what: string) => z.number().min(1, `${what} must be at least 1`);

export const FormFieldSchema = z.object({
	/** Generated when omitted (assumptions.ts). */
	id: optionalId(),
	fieldKey: required('is required'),
	// Only `text` and `signature` are shown; other types are passed through.
	type: required('is required (such as "text" or "signature")'),
	pageNumber: z.number().int('must be a whole number').min(1, 'pages start at 1'),
	x: z.number(),
	y: z.number(),
	width: minOne('width'),
	height: minOne('height'),
	label: z.string().optional(),
	required: z.boolean().optional(),
	readOnly: z.boolean().optional(),
	assignee: FieldAssigneeSchema,
	defaultValue: FieldValueSchema.optional(),
	placeholder: z.string().optional(),
	options: z.array(z.string()).optional(),
	validation: z
		.object({
			min: z.number().optional(),
			max: z.number().optional(),
			pattern: z.string().optional(),
			minLength: z.number().int().min(0).optional(),
			maxLength: z.number().int().min(0).optional(),
		})
		.optional(),
	multiline: z.boolean().optional(),
	showLabel: z.boolean().optional(),
	fontFamily: z.string().optional(),
	fontWeight: z.string().optional(),
	fontStyle: z.string().optional(),
	fontSize: z.number().positive('must be greater than 0').optional(),
	textColor: z.string().optional(),
	textAlign: z.string().optional(),
	checkboxSize: z.number().positive('must be greater than 0').optional(),
	checkboxLabelFontSize: z.number().positive('must be greater than 0').optional(),
	radioGroup: z
		.object({
			options: z
				.array(
					z.object({
						value: z.string(),
						label: z.string().optional(),
						pageNumber: z.number().int().min(1, 'pages start at 1').optional(),
						x: z.number().optional(),
						y: z.number().optional(),
						width: minOne('width').optional(),
						height: minOne('height').optional(),
					}),
				)
				.optional(),
			layout: z.string().optional(),
			direction: z.string().optional(),
			spacing: z.number().optional(),
			radioSize: z.number().optional(),
			labelFontSize: z.number().optional(),
		})
		.optional(),
});

/** A template recipient: a role placeholder; contact details optional, id generated when omitted. */
export const TemplateRecipientSchema = z.object({ ...recipientFields, id: optionalId() });

export const TemplateRecipientListSchema = z
	.array(TemplateRecipientSchema)
	.max(MAX_RECIPIENTS, tooManyRecipients())
	.superRefine(
		uniqueBy(
			'id',
			(id) => `duplicate recipient id "${id}"; recipient ids must be unique within the template`,
		),
	);

type FieldLike = {
	id?: string;
	fieldKey: string;
	type: string;
	assignee: { type: string; templateRecipientId?: string };
};

/**
 * The field rules of 2.9: unique ids and keys, signature fields assigned to a recipient,
 * and recipient assignments naming a recipient of the template. `recipientIds` is the
 * template's recipient list the fields are checked against; undefined skips that check
 * (a template update that leaves recipients to the stored ones).
 * Paths are relative to the form-field list.
 */
export function formFieldIssues(
	fields: readonly FieldLike[],
	recipientIds?: readonly string[],
): FieldIssue[] {
	const issues: FieldIssue[] = [
		...uniqueIssues(
			fields,
			'id',
			(id) => `duplicate field id "${id}"; field ids must be unique within the template`,
		),
		...uniqueIssues(
			fields,
			'fieldKey',
			(key) => `duplicate field key "${key}"; field keys must be unique within the template`,
		),
	];
	fields.forEach((field, i) => {
		if (field.type === 'signature' && field.assignee.type !== 'recipient') {
			issues.push({
				path: [i, 'assignee', 'type'],
				message: "signature fields must belong to a recipient (assignee.type 'recipient')",
			});
		}
		const target = field.assignee.templateRecipientId;
		if (
			field.assignee.type === 'recipient' &&
			target !== undefined &&
			recipientIds &&
			!recipientIds.includes(target)
		) {
			issues.push({
				path: [i, 'assignee', 'templateRecipientId'],
				message: `"${target}" is not a recipient id of this template; recipient-assigned fields need the explicit id of a template recipient`,
			});
		}
	});
	// In list order, as a reader goes through the fields.
	return issues.sort((a, b) => (a.path[0] as number) - (b.path[0] as number));
}

function addFieldIssues(
	ctx: z.RefinementCtx,
	fields: readonly FieldLike[] | undefined,
	recipients: ReadonlyArray<{ id?: string }> | undefined,
	checkAssignments: boolean,
): void {
	if (!fields) return;
	const recipientIds = checkAssignments
		? (recipients ?? []).flatMap((r) => (r.id === undefined ? [] : [r.id]))
		: undefined;
	addIssues(ctx, formFieldIssues(fields, recipientIds), ['formFields']);
}

export const TemplateStatusSchema = z.enum(['active', 'archived']);

export const TemplateCreateSchema = z
	.object({
		name: required('is required'),
		description: z.string().optional(),
		fileName: required('is required (the PDF file name)'),
		recipients: TemplateRecipientListSchema.optional(),
		formFields: z.array(FormFieldSchema).optional(),
		workflow: SigningSettingsSchema.optional(),
	})
	.superRefine((body, ctx) => addFieldIssues(ctx, body.formFields, body.recipients, true));

export const TEMPLATE_UPDATE_KEYS = [
	'name',
	'description',
	'recipients',
	'formFields',
	'workflow',
	'status',
] as const;

/**
 * PATCH /templates/{id}: arrays replace the stored ones. Assignments are checked here
 * against recipients sent in the same body; when only fields are sent, the service
 * checks them against the stored recipients (formFieldIssues).
 */
export const TemplateUpdateSchema = z
	.object({
		name: required('must not be empty').optional(),
		description: z.string().optional(),
		recipients: TemplateRecipientListSchema.optional(),
		formFields: z.array(FormFieldSchema).optional(),
		workflow: SigningSettingsSchema.optional(),
		status: TemplateStatusSchema.optional(),
	})
	.superRefine((body, ctx) => {
		if (TEMPLATE_UPDATE_KEYS.every((key) => body[key] === undefined)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `must include at least one property to change (${TEMPLATE_UPDATE_KEYS.join(', ')})`,
			});
		}
		addFieldIssues(ctx, body.formFields, body.recipients, body.recipients !== undefined);
	});

export const TemplateCopySchema = z.object({
	newName: required('is required (the name of the copy)'),
});

export const TemplateListQuerySchema = PagingQuerySchema.extend({
	status: TemplateStatusSchema.default('active'),
	search: z.string().optional(),
});

export type FormField = z.infer<typeof FormFieldSchema>;
export type TemplateRecipient = z.infer<typeof TemplateRecipientSchema>;
