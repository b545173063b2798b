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
// Error formatting

/** One line per issue, `path.to.field: message` (the path joined with dots). */
export function formatZodIssues(error: { issues: ReadonlyArray<z.ZodIssue> }): string[] {
	return error.issues.map((issue) =>
		issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
	);
}
