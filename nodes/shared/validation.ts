import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z, ZodTypeAny } from 'zod';

import { formatZodIssues } from './schemas';

/**
 * The one place where a schema failure becomes an n8n error. Every operation checks its
 * input with a schema from `schemas.ts` through this function before sending anything,
 * so a bad input stops the item with a message naming the field and the rule.
 *
 * @param what  words for the input being checked, e.g. "envelope" or "recipients"
 */
export function validateInput<S extends ZodTypeAny>(
	node: INode,
	schema: S,
	value: unknown,
	itemIndex: number,
	what: string,
): z.infer<S> {
	const result = schema.safeParse(value);
	if (result.success) return result.data;

	const lines = formatZodIssues(result.error);
	const first = lines[0] ?? 'invalid value';
	const more = lines.length > 1 ? ` (and ${lines.length - 1} more)` : '';
	const error = new NodeOperationError(node, `Invalid ${what}: ${first}${more}`, {
		itemIndex,
		description: lines.join('\n'),
	});
	// Kept for "Continue On Fail" error items, which show the context's field errors.
	error.context.fieldErrors = lines;
	throw error;
}

/** An input error found before any schema applies (e.g. text that is not JSON). */
export function inputError(
	node: INode,
	message: string,
	itemIndex: number,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(node, message, { itemIndex, description });
}
