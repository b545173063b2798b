import type { z } from 'zod/v3';

import { formatZodIssues } from '../../nodes/shared/api/schemas';

/** Parses and returns the issue lines (empty when the value is accepted). */
export function problems(schema: z.ZodTypeAny, value: unknown): string[] {
	const result = schema.safeParse(value);
	return result.success ? [] : formatZodIssues(result.error);
}

/** The zod issue codes of a rejected value. */
export function codes(schema: z.ZodTypeAny, value: unknown): string[] {
	const result = schema.safeParse(value);
	return result.success ? [] : result.error.issues.map((i) => i.code);
}
