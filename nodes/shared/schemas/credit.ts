/** Credits (specification 2.12, 4.3). */
import { z } from 'zod';

import { GUESSED_VALUES } from '../assumptions';
import { PagingQuerySchema } from './paging';
import { DateOnlySchema } from './primitives';

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
