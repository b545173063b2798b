/**
 * What the API accepts, as zod schemas: the one place for every request rule of the
 * specification. The node validates user input with these before sending anything, and
 * the sandbox validates requests with the same schemas, so a rule changes in one place.
 *
 * Plain field checks use zod's own checks (issue codes `invalid_type`, `invalid_string`,
 * `invalid_enum_value`, as the API reports them); rules across fields add `custom`
 * issues with a message that names the rule. Where the specification says "not shown",
 * the guess comes from assumptions.ts.
 */
import { z } from 'zod';

import { DEFAULTS, GUESSED_VALUES } from './assumptions';
import { articleIssue } from './estamp/articles';
import { ESTAMP_STATE_CODES, getEstampState, isIndianStateName, MIN_DUTY } from './estamp/states';

/** Recipients per document across all roles (signers, approvers, cc). */
export const MAX_RECIPIENTS = 15;

// ---------------------------------------------------------------------------------------
// Building blocks

const required = (what = 'must not be empty') => z.string().trim().min(1, what);

/** E.164: a plus sign, then up to 15 digits, the first not 0. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
const phone = () =>
	z.string().regex(E164_PATTERN, 'must be a phone number in E.164 format, such as +919876543210');

const email = () => z.string().email();

const tenDigitMobile = () => z.string().regex(/^\d{10}$/, 'must be a 10-digit mobile number');

/** An absolute HTTPS URL (zod's `url` check first, then the scheme). */
export const HttpsUrlSchema = z
	.string()
	.url('must be a valid URL')
	.superRefine((value, ctx) => {
		let protocol: string;
		try {
			protocol = new URL(value).protocol;
		} catch {
			return; // the url check above already reported it
		}
		if (protocol !== 'https:') {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an HTTPS URL' });
		}
	});

/** ISO 8601 timestamp with a time zone (`Z` or an offset). */
export const TimestampSchema = z
	.string()
	.datetime({ offset: true, message: 'must be an ISO 8601 timestamp, such as 2030-01-31T18:00:00Z' });

/** A real calendar date written YYYY-MM-DD. */
export const DateOnlySchema = z.string().date('must be a real calendar date in the form YYYY-MM-DD');

interface ContactLike {
	email?: string;
	phone?: string;
}

function checkContact(value: ContactLike, ctx: z.RefinementCtx): void {
	const hasEmail = typeof value.email === 'string' && value.email.trim() !== '';
	const hasPhone = typeof value.phone === 'string' && value.phone.trim() !== '';
	if (!hasEmail && !hasPhone) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['email'],
			message: 'each recipient needs a contact: an email, a phone (E.164) or both',
		});
	}
}

// ---------------------------------------------------------------------------------------
// Recipients (2.3, 2.5)

export const RecipientRoleSchema = z.enum(['signer', 'approver', 'cc']);
export const SignatureMethodSchema = z.enum(['electronic', 'aadhaar_otp', 'dsc_usb', 'all']);
export const VerificationMethodSchema = z.enum(['email_verification', 'link_only']);

export const SignaturePlacementSchema = z.object({
	// Only text-search placement is described (2.5).
	type: z.enum(['text']).optional(),
	searchText: required(),
	pages: z.array(z.number().int().min(1, 'pages start at 1')).optional(),
	position: z.enum(['above', 'below']).optional(),
	gap: z.number().optional(),
	width: z.number().positive('must be greater than 0').optional(),
	height: z.number().positive('must be greater than 0').optional(),
});

const recipientFields = {
	name: required('is required'),
	email: email().optional(),
	phone: phone().optional(),
	role: RecipientRoleSchema.optional(),
	order: z.number().int().min(1, 'must be a whole number from 1').optional(),
	signatureMethod: SignatureMethodSchema.optional(),
	verificationMethod: VerificationMethodSchema.optional(),
	signaturePlacement: SignaturePlacementSchema.optional(),
};

/** A recipient of an envelope: a name plus an email and/or an E.164 phone. */
export const RecipientSchema = z.object(recipientFields).superRefine(checkContact);

/** The role a recipient gets when `role` is omitted. */
export function effectiveRole(recipient: { role?: string }): string {
	return recipient.role ?? DEFAULTS.recipient.role;
}

export function hasSigner(recipients: ReadonlyArray<{ role?: string }>): boolean {
	return recipients.some((r) => effectiveRole(r) === 'signer');
}

/**
 * The total-count rule for adding recipients: appended recipients count together with
 * the existing ones; a replacement counts only the new list.
 */
export function recipientTotalIssue(
	existingCount: number,
	incomingCount: number,
	replace: boolean,
): string | undefined {
	const total = replace ? incomingCount : existingCount + incomingCount;
	if (total <= MAX_RECIPIENTS) return undefined;
	return replace
		? `must hold at most ${MAX_RECIPIENTS} recipients across all roles; got ${incomingCount}`
		: `would bring the envelope to ${total} recipients; at most ${MAX_RECIPIENTS} are allowed across all roles (it has ${existingCount})`;
}

function checkRecipientList(recipients: ReadonlyArray<{ role?: string }>, ctx: z.RefinementCtx): void {
	if (recipients.length > MAX_RECIPIENTS) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: `must hold at most ${MAX_RECIPIENTS} recipients across all roles (signers, approvers, cc); got ${recipients.length}`,
		});
	}
	if (recipients.length > 0 && !hasSigner(recipients)) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: 'must include at least one signer (approver-only and cc-only lists cannot be sent)',
		});
	}
}

/**
 * Recipients given at envelope creation: at most 15 across all roles and, when any are
 * given, at least one signer. An empty list is an empty draft.
 */
export const RecipientListSchema = z.array(RecipientSchema).superRefine(checkRecipientList);

// ---------------------------------------------------------------------------------------
// E-stamp configuration (2.6)

export const EstampStateCodeSchema = z.enum(ESTAMP_STATE_CODES);

export const EstampPartySchema = z.object({
	name: required('is required (the legal name)'),
	email: email(),
	mobile: tenDigitMobile().optional(),
	address: required('is required'),
});

export const EstampShippingSchema = z.object({
	name: required('is required'),
	address: required('is required'),
	city: required('is required'),
	state: required('is required').superRefine((value, ctx) => {
		if (/^[A-Za-z]{2}$/.test(value.trim())) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be the full state name (such as "Karnataka"), not a two-letter code',
			});
		} else if (!isIndianStateName(value)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must be the full name of an Indian state or union territory, such as "Karnataka"',
			});
		}
	}),
	pincode: z.string().regex(/^\d{6}$/, 'must be a 6-digit PIN code'),
	mobile: tenDigitMobile(),
});

const WHOLE_NUMBER = /^\d+$/;

export const EstampConfigSchema = z
	.object({
		state: EstampStateCodeSchema,
		// Checked against the state's catalog below.
		article: z.string(),
		amount: z
			.string()
			.regex(WHOLE_NUMBER, 'must be a whole number of rupees written as a string, such as "100"'),
		considerationAmount: z
			.string()
			.regex(WHOLE_NUMBER, 'must be a non-negative whole number written as a string, such as "0"'),
		payee: z.enum(['first-party', 'second-party']).default('first-party'),
		hardcopy: z.enum(['n', 'y']).default('n'),
		firstParty: EstampPartySchema,
		secondParty: EstampPartySchema,
		shipping: EstampShippingSchema.optional(),
	})
	.superRefine((config, ctx) => {
		const state = getEstampState(config.state);
		if (state) {
			const problem = articleIssue(state.code, config.article);
			if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['article'], message: problem });

			if (WHOLE_NUMBER.test(config.amount)) {
				const amount = Number(config.amount);
				if (amount < MIN_DUTY || amount > state.maxDuty) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: ['amount'],
						message: `must be a whole number from ${MIN_DUTY} to ${state.maxDuty} for state ${state.code}`,
					});
				}
			}
		}

		const first = config.firstParty.name.trim().toLowerCase();
		const second = config.secondParty.name.trim().toLowerCase();
		if (first !== '' && first === second) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['secondParty', 'name'],
				message: 'must differ from firstParty.name (the two legal names must be different)',
			});
		}

		if (config.hardcopy === 'y' && !config.shipping) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['shipping'],
				message: "is required when hardcopy is 'y'",
			});
		}
	});

// ---------------------------------------------------------------------------------------
// Workflow settings (2.4)

export const WorkflowModeSchema = z.enum(['sequential', 'parallel']);
export const EmailNotificationsSchema = z.enum(['all', 'completion_only', 'none']);
export const WhatsappNotificationsSchema = z.enum(GUESSED_VALUES.whatsappNotifications);

function checkEstampPresence(
	settings: { estampEnabled?: boolean; estampConfig?: unknown },
	ctx: z.RefinementCtx,
): void {
	if (settings.estampEnabled === true && settings.estampConfig === undefined) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['estampConfig'],
			message: 'is required (complete) when estampEnabled is true',
		});
	}
}

export const WorkflowSettingsSchema = z
	.object({
		mode: WorkflowModeSchema.optional(),
		verificationMethod: VerificationMethodSchema.optional(),
		message: z.string().optional(),
		reminderEveryHours: z.number().int().min(1, 'must be a whole number of hours from 1').optional(),
		expiresAt: TimestampSchema.optional(),
		emailNotifications: EmailNotificationsSchema.optional(),
		whatsappNotifications: WhatsappNotificationsSchema.optional(),
		redirectUrl: HttpsUrlSchema.optional(),
		estampEnabled: z.boolean().optional(),
		estampConfig: EstampConfigSchema.optional(),
	})
	.superRefine(checkEstampPresence);

// ---------------------------------------------------------------------------------------
// Envelopes (2.2, 4.1)

export const EnvelopeCreateSchema = z.object({
	fileName: required('is required (the PDF file name)'),
	title: z.string().optional(),
	recipients: RecipientListSchema.optional(),
	workflow: WorkflowSettingsSchema.optional(),
});

/** Body of POST /envelopes/{id}/recipients; `replace` per assumptions.ts. */
export const AddRecipientsSchema = z.object({
	recipients: z
		.array(RecipientSchema)
		.min(1, 'must hold at least one recipient')
		.max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients across all roles`),
	replace: z.boolean().optional(),
});

// ---------------------------------------------------------------------------------------
// Paging and list queries (2.13). Query values arrive as strings, hence the coercion.

const pageParam = z.coerce
	.number({ invalid_type_error: 'must be a whole number from 1' })
	.int('must be a whole number from 1')
	.min(1, 'must be a whole number from 1')
	.default(DEFAULTS.page);
const limitParam = z.coerce
	.number({ invalid_type_error: `must be a whole number from 1 to ${DEFAULTS.maxLimit}` })
	.int(`must be a whole number from 1 to ${DEFAULTS.maxLimit}`)
	.min(1, `must be a whole number from 1 to ${DEFAULTS.maxLimit}`)
	.max(DEFAULTS.maxLimit, `must be a whole number from 1 to ${DEFAULTS.maxLimit}`)
	.default(DEFAULTS.limit);

export const PagingQuerySchema = z.object({ page: pageParam, limit: limitParam });

export const EnvelopeStatusSchema = z.enum(GUESSED_VALUES.envelopeStatuses);

export const EnvelopeListQuerySchema = PagingQuerySchema.extend({
	status: EnvelopeStatusSchema.optional(),
	search: z.string().optional(),
});

export type Recipient = z.infer<typeof RecipientSchema>;
export type RecipientRole = z.infer<typeof RecipientRoleSchema>;
export type SignatureMethod = z.infer<typeof SignatureMethodSchema>;
export type VerificationMethod = z.infer<typeof VerificationMethodSchema>;
export type SignaturePlacement = z.infer<typeof SignaturePlacementSchema>;
export type EstampParty = z.infer<typeof EstampPartySchema>;
export type EstampShipping = z.infer<typeof EstampShippingSchema>;
export type EstampConfig = z.infer<typeof EstampConfigSchema>;
export type EstampConfigInput = z.input<typeof EstampConfigSchema>;
export type WorkflowSettings = z.infer<typeof WorkflowSettingsSchema>;
export type WorkflowSettingsInput = z.input<typeof WorkflowSettingsSchema>;
export type EnvelopeCreate = z.infer<typeof EnvelopeCreateSchema>;
export type EnvelopeCreateInput = z.input<typeof EnvelopeCreateSchema>;
export type AddRecipients = z.infer<typeof AddRecipientsSchema>;
export type PagingQuery = z.infer<typeof PagingQuerySchema>;
export type EnvelopeListQuery = z.infer<typeof EnvelopeListQuerySchema>;

// ---------------------------------------------------------------------------------------
// Templates (2.8, 2.9, 4.2)

/** A value a field can hold; checkbox defaults such as `false` and `0` are real values. */
const FieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type FieldValue = z.infer<typeof FieldValueSchema>;

export const FieldAssigneeSchema = z
	.object({
		type: z.enum(['sender_prefill', 'recipient']),
		templateRecipientId: z.string().trim().min(1, 'must not be empty').optional(),
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
	id: z.string().trim().min(1, 'must not be empty').optional(),
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
export const TemplateRecipientSchema = z.object({
	...recipientFields,
	id: z.string().trim().min(1, 'must not be empty').optional(),
});

export const TemplateRecipientListSchema = z
	.array(TemplateRecipientSchema)
	.max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients across all roles`)
	.superRefine((recipients, ctx) => {
		const seen = new Set<string>();
		recipients.forEach((r, i) => {
			if (r.id === undefined) return;
			if (seen.has(r.id)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: [i, 'id'],
					message: `duplicate recipient id "${r.id}"; recipient ids must be unique within the template`,
				});
			}
			seen.add(r.id);
		});
	});

export interface FieldIssue {
	path: Array<string | number>;
	message: string;
}

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
export function formFieldIssues(fields: readonly FieldLike[], recipientIds?: readonly string[]): FieldIssue[] {
	const issues: FieldIssue[] = [];
	const ids = new Set<string>();
	const keys = new Set<string>();
	fields.forEach((field, i) => {
		if (field.id !== undefined) {
			if (ids.has(field.id)) {
				issues.push({ path: [i, 'id'], message: `duplicate field id "${field.id}"; field ids must be unique within the template` });
			}
			ids.add(field.id);
		}
		if (keys.has(field.fieldKey)) {
			issues.push({
				path: [i, 'fieldKey'],
				message: `duplicate field key "${field.fieldKey}"; field keys must be unique within the template`,
			});
		}
		keys.add(field.fieldKey);
		if (field.type === 'signature' && field.assignee.type !== 'recipient') {
			issues.push({
				path: [i, 'assignee', 'type'],
				message: "signature fields must belong to a recipient (assignee.type 'recipient')",
			});
		}
		const target = field.assignee.templateRecipientId;
		if (field.assignee.type === 'recipient' && target !== undefined && recipientIds && !recipientIds.includes(target)) {
			issues.push({
				path: [i, 'assignee', 'templateRecipientId'],
				message: `"${target}" is not a recipient id of this template; recipient-assigned fields need the explicit id of a template recipient`,
			});
		}
	});
	return issues;
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
	for (const issue of formFieldIssues(fields, recipientIds)) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['formFields', ...issue.path], message: issue.message });
	}
}

export const TemplateStatusSchema = z.enum(['active', 'archived']);

export const TemplateCreateSchema = z
	.object({
		name: required('is required'),
		description: z.string().optional(),
		fileName: required('is required (the PDF file name)'),
		recipients: TemplateRecipientListSchema.optional(),
		formFields: z.array(FormFieldSchema).optional(),
		workflow: WorkflowSettingsSchema.optional(),
	})
	.superRefine((body, ctx) => addFieldIssues(ctx, body.formFields, body.recipients, true));

const TEMPLATE_UPDATE_KEYS = ['name', 'description', 'recipients', 'formFields', 'workflow', 'status'] as const;

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
		workflow: WorkflowSettingsSchema.optional(),
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

export const TemplateCopySchema = z.object({ newName: required('is required (the name of the copy)') });

export const TemplateListQuerySchema = PagingQuerySchema.extend({
	status: TemplateStatusSchema.default('active'),
	search: z.string().optional(),
});

// ---------------------------------------------------------------------------------------
// Document creation from a template (2.10, 4.2 rules 2 and 3)

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
			.max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients across all roles`),
		prefillValues: z.array(PrefillValueSchema).optional(),
		workflow: WorkflowSettingsSchema.optional(),
	})
	.superRefine((body, ctx) => {
		const mapped = new Set<string>();
		body.recipientMapping.forEach((entry, i) => {
			if (mapped.has(entry.templateRecipientId)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['recipientMapping', i, 'templateRecipientId'],
					message: `repeats "${entry.templateRecipientId}"; each template recipient is mapped exactly once`,
				});
			}
			mapped.add(entry.templateRecipientId);
		});
		const filled = new Set<string>();
		(body.prefillValues ?? []).forEach((entry, i) => {
			if (filled.has(entry.fieldId)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['prefillValues', i, 'fieldId'],
					message: `repeats "${entry.fieldId}"; each field is prefilled at most once`,
				});
			}
			filled.add(entry.fieldId);
		});
	});

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
		issues.push({ path: ['recipientMapping'], message: 'the template needs at least one signer recipient' });
	}
	if (template.recipients.length > MAX_RECIPIENTS) {
		issues.push({ path: ['recipientMapping'], message: `at most ${MAX_RECIPIENTS} recipients across all roles` });
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
		if (field.required && !hasFieldValue(given.get(field.id)) && !hasFieldValue(field.defaultValue)) {
			issues.push({
				path: ['prefillValues'],
				message: `required field "${field.fieldKey}" (id "${field.id}") needs a value: it has no stored default`,
			});
		}
	}
	return issues;
}

// ---------------------------------------------------------------------------------------
// Reusable workflows (2.11, 4.4)

export const WorkflowDocumentSchema = z.object({
	templateId: required('is required'),
	label: required('is required'),
	required: z.boolean().optional(),
});

export const WorkflowParticipantSchema = z.object({
	key: required('is required'),
	label: required('is required'),
	order: z.number().int().min(1, 'must be a whole number from 1'),
	role: RecipientRoleSchema.optional(),
	signatureMethod: SignatureMethodSchema.optional(),
	verificationMethod: VerificationMethodSchema.optional(),
	required: z.boolean().optional(),
});

export const WorkflowExecutionSchema = z
	.object({
		mode: WorkflowModeSchema.optional(),
		verificationMethod: VerificationMethodSchema.optional(),
		expiresInDays: z.number().int().min(1, 'must be a whole number of days from 1').optional(),
		reminderEveryHours: z.number().int().min(1, 'must be a whole number of hours from 1').optional(),
		message: z.string().optional(),
		// An envelope's redirect must be HTTPS (2.4), so the workflow's is too.
		redirectUrl: HttpsUrlSchema.optional(),
		emailNotifications: EmailNotificationsSchema.optional(),
		whatsappNotifications: WhatsappNotificationsSchema.optional(),
		estampEnabled: z.boolean().optional(),
		estampConfig: EstampConfigSchema.optional(),
		requireFinalSenderConfirmation: z.boolean().optional(),
	})
	.superRefine(checkEstampPresence);

export const WorkflowConfigSchema = z
	.object({
		documents: z.array(WorkflowDocumentSchema).min(1, 'must hold at least one document (template)'),
		participants: z
			.array(WorkflowParticipantSchema)
			.min(1, 'must hold at least one participant')
			.max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} participants across all roles`),
		execution: WorkflowExecutionSchema.optional(),
		// Item shapes not shown: passed through as given.
		approvalStages: z.array(z.unknown()).optional(),
		allowedOverrides: z.array(z.unknown()).optional(),
	})
	.superRefine((config, ctx) => {
		const keys = new Set<string>();
		config.participants.forEach((p, i) => {
			if (keys.has(p.key)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['participants', i, 'key'],
					message: `duplicate participant key "${p.key}"; keys must be unique`,
				});
			}
			keys.add(p.key);
		});
		if (config.participants.length > 0 && !hasSigner(config.participants)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['participants'],
				message: 'must include at least one signer (an omitted role means signer)',
			});
		}
	});

export const WorkflowCreateSchema = z.object({
	name: required('is required'),
	description: z.string().optional(),
	config: WorkflowConfigSchema,
});

/** PATCH /workflows/{id} (assumptions.ts): any of name, description, config (config replaces). */
export const WorkflowUpdateSchema = z
	.object({
		name: required('must not be empty').optional(),
		description: z.string().optional(),
		config: WorkflowConfigSchema.optional(),
	})
	.superRefine((body, ctx) => {
		if (body.name === undefined && body.description === undefined && body.config === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must include at least one property to change (name, description, config)',
			});
		}
	});

export const WorkflowRunRecipientSchema = z
	.object({
		participantKey: required('is required (the key of a workflow participant)'),
		name: required('is required'),
		email: email().optional(),
		phone: phone().optional(),
	})
	.superRefine(checkContact);

export const WorkflowRunSchema = z
	.object({
		title: required('is required'),
		recipients: z
			.array(WorkflowRunRecipientSchema)
			.min(1, 'must hold at least one recipient')
			.max(MAX_RECIPIENTS, `must hold at most ${MAX_RECIPIENTS} recipients across all roles`),
		idempotencyKey: z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
	})
	.superRefine((body, ctx) => {
		const keys = new Set<string>();
		body.recipients.forEach((r, i) => {
			if (keys.has(r.participantKey)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['recipients', i, 'participantKey'],
					message: `repeats "${r.participantKey}"; each participant gets one recipient`,
				});
			}
			keys.add(r.participantKey);
		});
	});

/**
 * The run rules that need the published configuration: each recipient names a
 * participant, and every required participant (required unless `required: false`)
 * gets a recipient.
 */
export function workflowRunIssues(
	participants: ReadonlyArray<{ key: string; label?: string; required?: boolean }>,
	recipients: ReadonlyArray<{ participantKey: string }>,
): FieldIssue[] {
	const issues: FieldIssue[] = [];
	const known = participants.map((p) => p.key);
	recipients.forEach((r, i) => {
		if (!known.includes(r.participantKey)) {
			issues.push({
				path: ['recipients', i, 'participantKey'],
				message: `"${r.participantKey}" is not a participant key of this workflow (keys: ${known.join(', ')})`,
			});
		}
	});
	const given = new Set(recipients.map((r) => r.participantKey));
	const missing = participants.filter((p) => p.required !== false && !given.has(p.key));
	if (missing.length > 0) {
		issues.push({
			path: ['recipients'],
			message: `needs a recipient for every required participant; missing ${missing.map((p) => `"${p.key}"`).join(', ')}`,
		});
	}
	return issues;
}

export const WorkflowListQuerySchema = PagingQuerySchema;

// ---------------------------------------------------------------------------------------
// Credits (2.12, 4.3)

export const CreditTransactionTypeSchema = z.enum(GUESSED_VALUES.creditTransactionTypes);

export const CreditTransactionsQuerySchema = PagingQuerySchema.extend({
	type: CreditTransactionTypeSchema.optional(),
});

export const CreditUsageQuerySchema = z
	.object({
		startDate: DateOnlySchema.optional(),
		endDate: DateOnlySchema.optional(),
	})
	.superRefine((query, ctx) => {
		if (query.startDate && query.endDate && query.startDate > query.endDate) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['endDate'],
				message: 'must not be before startDate',
			});
		}
	});

export type FormField = z.infer<typeof FormFieldSchema>;
export type FieldAssignee = z.infer<typeof FieldAssigneeSchema>;
export type TemplateRecipient = z.infer<typeof TemplateRecipientSchema>;
export type TemplateStatus = z.infer<typeof TemplateStatusSchema>;
export type TemplateCreate = z.infer<typeof TemplateCreateSchema>;
export type TemplateUpdate = z.infer<typeof TemplateUpdateSchema>;
export type TemplateCopy = z.infer<typeof TemplateCopySchema>;
export type TemplateListQuery = z.infer<typeof TemplateListQuerySchema>;
export type RecipientMapping = z.infer<typeof RecipientMappingSchema>;
export type PrefillValue = z.infer<typeof PrefillValueSchema>;
export type DocumentCreate = z.infer<typeof DocumentCreateSchema>;
export type WorkflowDocument = z.infer<typeof WorkflowDocumentSchema>;
export type WorkflowParticipant = z.infer<typeof WorkflowParticipantSchema>;
export type WorkflowExecution = z.infer<typeof WorkflowExecutionSchema>;
export type WorkflowConfig = z.infer<typeof WorkflowConfigSchema>;
export type WorkflowCreate = z.infer<typeof WorkflowCreateSchema>;
export type WorkflowUpdate = z.infer<typeof WorkflowUpdateSchema>;
export type WorkflowRunRecipient = z.infer<typeof WorkflowRunRecipientSchema>;
export type WorkflowRun = z.infer<typeof WorkflowRunSchema>;
export type WorkflowListQuery = z.infer<typeof WorkflowListQuerySchema>;
export type CreditTransactionType = z.infer<typeof CreditTransactionTypeSchema>;
export type CreditTransactionsQuery = z.infer<typeof CreditTransactionsQuerySchema>;
export type CreditUsageQuery = z.infer<typeof CreditUsageQuerySchema>;

// ---------------------------------------------------------------------------------------
// Error formatting

/** One line per issue, `path.to.field: message` (the path joined with dots). */
export function formatZodIssues(error: { issues: ReadonlyArray<z.ZodIssue> }): string[] {
	return error.issues.map((issue) =>
		issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
	);
}
