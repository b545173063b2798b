/** Envelopes (specification 2.2, 4.1). */
import { z } from 'zod/v3';

import { PagingQuerySchema } from './paging';
import { required } from './primitives';
import {
	MAX_RECIPIENTS,
	RecipientListSchema,
	RecipientSchema,
	tooManyRecipients,
} from './recipients';
import { SigningSettingsSchema } from './signingSettings';

export const EnvelopeCreateSchema = z.object({
	fileName: required('is required (the PDF file name)'),
	title: z.string().optional(),
	recipients: RecipientListSchema.optional(),
	workflow: SigningSettingsSchema.optional(),
});

/** Body of POST /envelopes/{id}/recipients; `replace` per assumptions.ts. */
export const AddRecipientsSchema = z.object({
	recipients: z
		.array(RecipientSchema)
		.min(1, 'must hold at least one recipient')
		.max(MAX_RECIPIENTS, tooManyRecipients()),
	replace: z.boolean().optional(),
});

/** Statuses beyond draft/pending/estamping/completed are not in the specification: any is sent. */
export const EnvelopeStatusSchema = z.string().min(1, 'must not be empty');

export const EnvelopeListQuerySchema = PagingQuerySchema.extend({
	status: EnvelopeStatusSchema.optional(),
	search: z.string().optional(),
});
