/**
 * Request checks of envelopes, recipients, signing settings, paging and credits, written
 * by the sandbox from the specification (2.2-2.4, 2.13, 4.1, 4.3, 8). Enum values the
 * specification does not list in full come from the mode's choices (variant.ts).
 */
import { z } from 'zod/v3';
import { GUESSED_DEFAULTS } from '../guesses';
import type { ModeChoices } from '../variant';
import { estampConfigSchema } from './estamp';
import {
	EMAIL_NOTIFICATIONS,
	MAX_RECIPIENTS,
	RECIPIENT_ROLES,
	SIGNATURE_METHODS,
	SIGNING_MODES,
	VERIFICATION_METHODS,
} from './limits';

export const nonEmpty = (message = 'is required') => z.string().trim().min(1, message);
export const emailAddress = () => z.string().email();
export const e164 = () =>
	z.string().regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 phone number such as +919876543210');
export const httpsUrl = () =>
	z
		.string()
		.url()
		.refine(
			(value) => URL.canParse(value) && new URL(value).protocol === 'https:',
			'must be an HTTPS URL',
		);
const wholeFromOne = () => z.number().int().min(1, 'must be a whole number from 1');

/** Each real recipient needs an e-mail, a phone or both (2.3). */
export function needsContact(
	value: { email?: string; phone?: string },
	ctx: z.RefinementCtx,
): void {
	if (!value.email && !value.phone) {
		ctx.addIssue({
			code: 'custom',
			path: ['email'],
			message: 'needs a contact: email, phone or both',
		});
	}
}

/** The role of a recipient, with the guessed default for an omitted one. */
export const roleOf = (r: { role?: string }) => r.role ?? GUESSED_DEFAULTS.recipientRole;
export const hasSigner = (list: ReadonlyArray<{ role?: string }>) =>
	list.some((r) => roleOf(r) === 'signer');
export const tooMany = `must hold at most ${MAX_RECIPIENTS} recipients across all roles`;

const placement = z.object({
	type: z.enum(['text']).optional(),
	searchText: z.string().optional(),
	pages: z.array(z.number().int().min(1)).optional(),
	position: z.enum(['above', 'below']).optional(),
	gap: z.number().optional(),
	width: z.number().optional(),
	height: z.number().optional(),
});

export const recipientShape = {
	name: nonEmpty(),
	email: emailAddress().optional(),
	phone: e164().optional(),
	role: z.enum(RECIPIENT_ROLES).optional(),
	order: wholeFromOne().optional(),
	signatureMethod: z.enum(SIGNATURE_METHODS).optional(),
	verificationMethod: z.enum(VERIFICATION_METHODS).optional(),
	signaturePlacement: placement.optional(),
};

export function requestRules(choices: ModeChoices) {
	const estampConfig = estampConfigSchema(choices);
	const whatsapp = z.enum(choices.whatsappValues as [string, ...string[]]);

	/** estampConfig must be there, complete, when estampEnabled is true (2.4, 2.6). */
	const estampPresent = (
		value: { estampEnabled?: boolean; estampConfig?: unknown },
		ctx: z.RefinementCtx,
	) => {
		if (value.estampEnabled === true && value.estampConfig === undefined) {
			ctx.addIssue({
				code: 'custom',
				path: ['estampConfig'],
				message: 'is required when estampEnabled is true',
			});
		}
	};

	const settings = z
		.object({
			mode: z.enum(SIGNING_MODES).optional(),
			verificationMethod: z.enum(VERIFICATION_METHODS).optional(),
			message: z.string().optional(),
			reminderEveryHours: z
				.number()
				.int()
				.min(1, 'must be a whole number of hours from 1')
				.optional(),
			expiresAt: z.string().datetime({ offset: true }).optional(),
			emailNotifications: z.enum(EMAIL_NOTIFICATIONS).optional(),
			whatsappNotifications: whatsapp.optional(),
			redirectUrl: httpsUrl().optional(),
			estampEnabled: z.boolean().optional(),
			estampConfig: estampConfig.optional(),
		})
		.superRefine(estampPresent);

	const recipient = z.object(recipientShape).superRefine(needsContact);

	const limitRule = `must be a whole number from 1 to ${choices.maxLimit}`;
	const paging = z.object({
		page: z.coerce
			.number()
			.int()
			.min(1, 'must be a whole number from 1')
			.default(GUESSED_DEFAULTS.page),
		limit: z.coerce
			.number()
			.int(limitRule)
			.min(1, limitRule)
			.max(choices.maxLimit, limitRule)
			.default(choices.defaultLimit),
	});

	const day = z.string().date('must be a real calendar date in the form YYYY-MM-DD');

	return {
		estampConfig,
		estampPresent,
		settings,
		recipient,
		whatsapp,
		paging,
		envelopeCreate: z.object({
			fileName: nonEmpty(),
			title: z.string().optional(),
			recipients: z
				.array(recipient)
				.max(MAX_RECIPIENTS, tooMany)
				.refine((list) => list.length === 0 || hasSigner(list), 'must include at least one signer')
				.optional(),
			workflow: settings.optional(),
		}),
		addRecipients: z
			.object({ recipients: z.array(recipient).min(1, 'must hold at least one recipient') })
			.passthrough(),
		envelopeList: paging.extend({
			status: z.enum(choices.envelopeStatuses as [string, ...string[]]).optional(),
			search: z.string().optional(),
		}),
		creditTransactions: paging.extend({
			type: z.enum(choices.transactionTypes as [string, ...string[]]).optional(),
		}),
		creditUsage: z
			.object({ startDate: day.optional(), endDate: day.optional() })
			.refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
				path: ['endDate'],
				message: 'must not be before startDate',
			}),
	};
}
