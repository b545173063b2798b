/**
 * What tells an answer of the Document Signing API from another server's JSON at the Base
 * URL (a status page, a proxy, another API), by what the specification states of its shape:
 *
 * - a paginated list is an object with `items` (an array) and `pageInfo` (spec part 1); the
 *   credential test reads one;
 * - the credit balance has a `context` field (spec 2.12; its other fields are not shown), the
 *   first answer Credit > Get Balance gives, and the only thing the operation outputs.
 *
 * Rules only: no request is made here.
 */

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The spec's list shape: `items` (array) and `pageInfo` (object). */
export function isListAnswer(body: unknown): boolean {
	return isObject(body) && Array.isArray(body.items) && isObject(body.pageInfo);
}

/** The spec's balance: an object with a `context` field. */
export function isBalanceAnswer(body: unknown): boolean {
	return isObject(body) && body.context !== undefined && body.context !== null;
}

/** What the user checks when the answer is not the API's. */
export const NOT_THE_API_HINT =
	"check that the credential's Base URL is the service's address ending in /api/v1";
