/**
 * Signing settings: the `workflow` object of envelopes, templates and document creation
 * (specification 2.4). Called "signing settings" here so that "workflow" means an n8n
 * workflow or the reusable-workflow resource.
 */
import { z } from 'zod/v3';

import { GUESSED_VALUES } from '../assumptions';
import { checkEstampPresence, EstampConfigSchema } from './estamp';
import { HttpsUrlSchema, TimestampSchema } from './primitives';
import { VerificationMethodSchema } from './recipients';

export const SigningModeSchema = z.enum(['sequential', 'parallel']);
export const EmailNotificationsSchema = z.enum(['all', 'completion_only', 'none']);
/** Values beyond `all` are not in the specification: the guesses are offered, any value is sent. */
export const WhatsappNotificationsSchema = z.string().min(1, 'must not be empty');
export const SUGGESTED_WHATSAPP_NOTIFICATIONS = GUESSED_VALUES.whatsappNotifications;

export const SigningSettingsSchema = z
	.object({
		mode: SigningModeSchema.optional(),
		verificationMethod: VerificationMethodSchema.optional(),
		message: z.string().optional(),
		reminderEveryHours: z
			.number()
			.int()
			.min(1, 'must be a whole number of hours from 1')
			.optional(),
		// An expiry already past would close the envelope before anyone could sign it (text that
		// is not a date is refused by the timestamp rule alone).
		expiresAt: TimestampSchema.refine((value) => !(Date.parse(value) <= Date.now()), {
			message: 'must be in the future: the envelope would expire before anyone could sign it',
		}).optional(),
		emailNotifications: EmailNotificationsSchema.optional(),
		whatsappNotifications: WhatsappNotificationsSchema.optional(),
		redirectUrl: HttpsUrlSchema.optional(),
		estampEnabled: z.boolean().optional(),
		estampConfig: EstampConfigSchema.optional(),
	})
	.superRefine(checkEstampPresence);

export type SigningSettingsInput = z.input<typeof SigningSettingsSchema>;
