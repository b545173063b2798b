/** Recipients of envelopes (specification 2.3, 2.5) and the recipient limit. */
import { z } from 'zod/v3';

import { DEFAULTS } from '../assumptions';
import { checkContact, email, phone, required } from './primitives';

/** Recipients per document across all roles (signers, approvers, cc). */
export const MAX_RECIPIENTS = 15;

export const RecipientRoleSchema = z.enum(['signer', 'approver', 'cc']);
export const SignatureMethodSchema = z.enum(['electronic', 'aadhaar_otp', 'dsc_usb', 'all']);
export const VerificationMethodSchema = z.enum(['email_verification', 'link_only']);
export const PlacementPositionSchema = z.enum(['above', 'below']);

export const SignaturePlacementSchema = z.object({
	// Only text-search placement is described (2.5).
	type: z.enum(['text']).optional(),
	searchText: required(),
	pages: z.array(z.number().int().min(1, 'pages start at 1')).optional(),
	position: PlacementPositionSchema.optional(),
	gap: z.number().optional(),
	width: z.number().positive('must be greater than 0').optional(),
	height: z.number().positive('must be greater than 0').optional(),
});

/** The fields of a recipient; template recipients add an id and drop the contact rule. */
export const recipientFields = {
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

/** The message of a list longer than MAX_RECIPIENTS (`what`: recipients or participants). */
export const tooManyRecipients = (what = 'recipients') =>
	`must hold at most ${MAX_RECIPIENTS} ${what} across all roles`;

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
		? `${tooManyRecipients()}; got ${incomingCount}`
		: `would bring the envelope to ${total} recipients; at most ${MAX_RECIPIENTS} are allowed across all roles (it has ${existingCount})`;
}

function checkRecipientList(
	recipients: ReadonlyArray<{ role?: string }>,
	ctx: z.RefinementCtx,
): void {
	if (recipients.length > MAX_RECIPIENTS) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: `${tooManyRecipients()} (signers, approvers, cc); got ${recipients.length}`,
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
