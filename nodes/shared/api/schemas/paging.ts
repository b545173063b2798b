/** Paging and list queries (specification 2.13). Query values arrive as strings, hence the coercion. */
import { z } from 'zod/v3';

import { DEFAULTS } from '../assumptions';

const pageParam = z.coerce
	.number({ invalid_type_error: 'must be a whole number from 1' })
	.int('must be a whole number from 1')
	.min(1, 'must be a whole number from 1')
	.default(DEFAULTS.page);

const limitRule = `must be a whole number from 1 to ${DEFAULTS.maxLimit}`;
const limitParam = z.coerce
	.number({ invalid_type_error: limitRule })
	.int(limitRule)
	.min(1, limitRule)
	.max(DEFAULTS.maxLimit, limitRule)
	.default(DEFAULTS.limit);

export const PagingQuerySchema = z.object({ page: pageParam, limit: limitParam });
