/**
 * Request checks of templates, form fields and document creation (specification 2.8-2.10,
 * 4.2), written by the sandbox. Field ids may be omitted (generated), as the default
 * guess of docs/assumptions.md says.
 */
import { z } from 'zod/v3';
import type { ModeChoices } from '../variant';
import { MAX_RECIPIENTS, TEMPLATE_STATUSES } from './limits';
import {
	e164,
	emailAddress,
	hasSigner,
	needsContact,
	nonEmpty,
	recipientShape,
	requestRules,
	roleOf,
	tooMany,
} from './requests';

export interface Problem {
	path: Array<string | number>;
	message: string;
}

const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const atLeastOne = (what: string) => z.number().min(1, `${what} must be at least 1`);

const formField = z
	.object({
		id: nonEmpty().optional(),
		fieldKey: nonEmpty(),
		type: nonEmpty(),
		pageNumber: z.number().int().min(1, 'pages start at 1'),
		x: z.number(),
		y: z.number(),
		width: atLeastOne('width'),
		height: atLeastOne('height'),
		label: z.string().optional(),
		required: z.boolean().optional(),
		readOnly: z.boolean().optional(),
		assignee: z.object({
			type: z.enum(['sender_prefill', 'recipient']),
			templateRecipientId: nonEmpty().optional(),
		}),
		defaultValue: fieldValue.optional(),
		placeholder: z.string().optional(),
		options: z.array(z.string()).optional(),
		validation: z
			.object({
				min: z.number(),
				max: z.number(),
				pattern: z.string(),
				minLength: z.number().int(),
				maxLength: z.number().int(),
			})
			.partial()
			.optional(),
		multiline: z.boolean().optional(),
		showLabel: z.boolean().optional(),
		fontSize: z.number().optional(),
		checkboxSize: z.number().optional(),
		checkboxLabelFontSize: z.number().optional(),
	})
	.passthrough();

export type FormFieldInput = z.infer<typeof formField>;

const templateRecipient = z.object({ ...recipientShape, id: nonEmpty().optional() });
export type TemplateRecipientInput = z.infer<typeof templateRecipient>;

function duplicates<T>(
	items: readonly T[],
	key: keyof T,
	at: string,
	message: (value: string) => string,
): Problem[] {
	const seen = new Set<unknown>();
	const found: Problem[] = [];
	items.forEach((item, i) => {
		const value = item[key];
		if (value === undefined) return;
		if (seen.has(value))
			found.push({ path: [at, i, String(key)], message: message(String(value)) });
		seen.add(value);
	});
	return found;
}

/**
 * The field rules of 2.9: unique ids and keys, signature fields assigned to a recipient,
 * a recipient assignment naming a template recipient. Without `recipientIds` the last
 * check is left out. Paths start at `formFields`.
 */
export function fieldProblems(
	fields: ReadonlyArray<{
		id?: string;
		fieldKey: string;
		type: string;
		assignee: { type: string; templateRecipientId?: string };
	}>,
	recipientIds?: readonly string[],
): Problem[] {
	const found = [
		...duplicates(
			fields,
			'id',
			'formFields',
			(v) => `duplicate field id "${v}"; field ids must be unique`,
		),
		...duplicates(
			fields,
			'fieldKey',
			'formFields',
			(v) => `duplicate field key "${v}"; field keys must be unique`,
		),
	];
	fields.forEach((f, i) => {
		if (f.type === 'signature' && f.assignee.type !== 'recipient') {
			found.push({
				path: ['formFields', i, 'assignee', 'type'],
				message: "signature fields must belong to a recipient ('recipient')",
			});
		}
		if (f.assignee.type === 'recipient') {
			const target = f.assignee.templateRecipientId;
			if (target === undefined) {
				found.push({
					path: ['formFields', i, 'assignee', 'templateRecipientId'],
					message: 'is required for a recipient field',
				});
			} else if (recipientIds && !recipientIds.includes(target)) {
				found.push({
					path: ['formFields', i, 'assignee', 'templateRecipientId'],
					message: `"${target}" is not a recipient id of this template`,
				});
			}
		}
	});
	return found.sort((a, b) => Number(a.path[1]) - Number(b.path[1]));
}

const addProblems = (ctx: z.RefinementCtx, problems: Problem[]) =>
	problems.forEach((p) => ctx.addIssue({ code: 'custom', path: p.path, message: p.message }));

const UPDATE_KEYS = [
	'name',
	'description',
	'recipients',
	'formFields',
	'workflow',
	'status',
] as const;

export function templateRules(choices: ModeChoices) {
	const { settings } = requestRules(choices);
	const recipients = z
		.array(templateRecipient)
		.max(MAX_RECIPIENTS, tooMany)
		.superRefine((list, ctx) =>
			addProblems(
				ctx,
				duplicates(
					list,
					'id',
					'',
					(v) => `duplicate recipient id "${v}"; recipient ids must be unique`,
				).map((p) => ({ ...p, path: p.path.slice(1) })),
			),
		);
	const ids = (list?: TemplateRecipientInput[]) =>
		(list ?? []).flatMap((r) => (r.id ? [r.id] : []));

	const mapping = z
		.object({
			templateRecipientId: nonEmpty(),
			name: nonEmpty(),
			email: emailAddress().optional(),
			phone: e164().optional(),
		})
		.superRefine(needsContact);

	return {
		templateCreate: z
			.object({
				name: nonEmpty(),
				description: z.string().optional(),
				fileName: nonEmpty(),
				recipients: recipients.optional(),
				formFields: z.array(formField).optional(),
				workflow: settings.optional(),
			})
			.superRefine((body, ctx) =>
				addProblems(ctx, fieldProblems(body.formFields ?? [], ids(body.recipients))),
			),
		templateUpdate: z
			.object({
				name: nonEmpty().optional(),
				description: z.string().optional(),
				recipients: recipients.optional(),
				formFields: z.array(formField).optional(),
				workflow: settings.optional(),
				status: z.enum(TEMPLATE_STATUSES).optional(),
			})
			.superRefine((body, ctx) => {
				if (UPDATE_KEYS.every((k) => body[k] === undefined)) {
					ctx.addIssue({
						code: 'custom',
						message: `must change at least one property (${UPDATE_KEYS.join(', ')})`,
					});
				}
			}),
		templateCopy: z.object({ newName: nonEmpty() }),
		documentCreate: z
			.object({
				title: nonEmpty(),
				recipientMapping: z
					.array(mapping)
					.min(1, 'must map every template recipient')
					.max(MAX_RECIPIENTS, tooMany),
				prefillValues: z
					.array(
						z.object({ fieldId: nonEmpty(), fieldKey: nonEmpty(), value: fieldValue.optional() }),
					)
					.optional(),
				workflow: settings.optional(),
			})
			.superRefine((body, ctx) => {
				addProblems(
					ctx,
					duplicates(
						body.recipientMapping,
						'templateRecipientId',
						'recipientMapping',
						(v) => `repeats "${v}"; each template recipient is mapped once`,
					),
				);
				addProblems(
					ctx,
					duplicates(
						body.prefillValues ?? [],
						'fieldId',
						'prefillValues',
						(v) => `repeats "${v}"; each field is prefilled once`,
					),
				);
			}),
	};
}

/** A value counts as given unless undefined, null or "" (`false` and `0` are values). */
export const hasValue = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The document-creation rules of 4.2 rule 3 that need the template. */
export function documentProblems(
	template: {
		recipients: ReadonlyArray<{ id: string; role?: string }>;
		formFields: ReadonlyArray<{
			id: string;
			fieldKey: string;
			required?: boolean;
			defaultValue?: unknown;
			assignee: { type: string };
		}>;
	},
	body: {
		recipientMapping: Array<{ templateRecipientId: string }>;
		prefillValues?: Array<{ fieldId: string; fieldKey: string; value?: unknown }>;
	},
): Problem[] {
	const found: Problem[] = [];
	const roles = new Set(template.recipients.map((r) => r.id));
	body.recipientMapping.forEach((m, i) => {
		if (!roles.has(m.templateRecipientId)) {
			found.push({
				path: ['recipientMapping', i, 'templateRecipientId'],
				message: `"${m.templateRecipientId}" is not a recipient of this template`,
			});
		}
	});
	const mapped = new Set(body.recipientMapping.map((m) => m.templateRecipientId));
	const unmapped = template.recipients.filter((r) => !mapped.has(r.id));
	if (unmapped.length > 0) {
		found.push({
			path: ['recipientMapping'],
			message: `must hold exactly one entry per template recipient; missing ${unmapped.map((r) => `"${r.id}" (${roleOf(r)})`).join(', ')}`,
		});
	}
	if (!hasSigner(template.recipients))
		found.push({ path: ['recipientMapping'], message: 'the template needs at least one signer' });
	const senderFields = template.formFields.filter((f) => f.assignee.type === 'sender_prefill');
	const given = new Map<string, unknown>();
	(body.prefillValues ?? []).forEach((p, i) => {
		const field = senderFields.find((f) => f.id === p.fieldId && f.fieldKey === p.fieldKey);
		if (field) given.set(field.id, p.value);
		else
			found.push({
				path: ['prefillValues', i],
				message: `fieldId "${p.fieldId}" with fieldKey "${p.fieldKey}" does not name a sender-prefill field of this template`,
			});
	});
	for (const f of senderFields) {
		if (f.required && !hasValue(given.get(f.id)) && !hasValue(f.defaultValue)) {
			found.push({
				path: ['prefillValues'],
				message: `required field "${f.fieldKey}" needs a value (it has no stored default)`,
			});
		}
	}
	return found;
}
