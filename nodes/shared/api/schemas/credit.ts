/** Credits (specification 2.12, 4.3). */
import { z } from 'zod/v3';

import { PagingQuerySchema } from './paging';
import { DateOnlySchema } from './primitives';

/** Types beyond `consume` are not in the specification: the guesses are offered, any value is sent. */
export const CreditTransactionTypeSchema = z.string().min(1, 'must not be empty');

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
