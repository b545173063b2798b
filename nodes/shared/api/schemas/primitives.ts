/**
 * Building blocks of the request schemas: string checks, timestamps, the contact rule,
 * the one uniqueness rule, and the formatting of issues.
 *
 * Plain field checks use zod's own checks (issue codes `invalid_type`, `invalid_string`,
 * `invalid_enum_value`, as the API reports them); rules across fields add `custom`
 * issues with a message that names the rule.
 */
import { z } from 'zod/v3';

/** A problem found by a rule that runs outside zod; the path is relative to what was checked. */
export interface FieldIssue {
	path: Array<string | number>;
	message: string;
}

export const required = (what = 'must not be empty') => z.string().trim().min(1, what);

/** An optional id: when given, not blank. */
export const optionalId = () => z.string().trim().min(1, 'must not be empty').optional();

/** E.164: a plus sign, then up to 15 digits, the first not 0. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
export const phone = () =>
	z.string().regex(E164_PATTERN, 'must be a phone number in E.164 format, such as +919876543210');

export const email = () => z.string().email();

export const tenDigitMobile = () =>
	z.string().regex(/^\d{10}$/, 'must be a 10-digit mobile number');

/** An absolute HTTPS URL (zod's `url` check first, then the scheme). */
export const HttpsUrlSchema = z
	.string()
	.url('must be a valid URL')
	.superRefine((value, ctx) => {
		let protocol: string;
		try {
			protocol = new URL(value).protocol;
		} catch {
			return; // the url check above already reported it
		}
		if (protocol !== 'https:') {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be an HTTPS URL' });
		}
	});

/** ISO 8601 timestamp with a time zone (`Z` or an offset). */
export const TimestampSchema = z.string().datetime({
	offset: true,
	message: 'must be an ISO 8601 timestamp, such as 2030-01-31T18:00:00Z',
});

/** A real calendar date written YYYY-MM-DD. */
export const DateOnlySchema = z
	.string()
	.date('must be a real calendar date in the form YYYY-MM-DD');

interface ContactLike {
	email?: string;
	phone?: string;
}

/** A real person needs an e-mail, a phone or both. */
export function checkContact(value: ContactLike, ctx: z.RefinementCtx): void {
	const hasEmail = typeof value.email === 'string' && value.email.trim() !== '';
	const hasPhone = typeof value.phone === 'string' && value.phone.trim() !== '';
	if (!hasEmail && !hasPhone) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['email'],
			message: 'each recipient needs a contact: an email, a phone (E.164) or both',
		});
	}
}

/**
 * The one uniqueness rule: an issue at `[index, key]` for every item whose `key` repeats
 * an earlier item's (items without the key are skipped).
 */
export function uniqueIssues<T>(
	items: readonly T[],
	key: keyof T & string,
	message: (value: string) => string,
): FieldIssue[] {
	const seen = new Set<string>();
	const issues: FieldIssue[] = [];
	items.forEach((item, i) => {
		const value = item[key];
		if (typeof value !== 'string') return;
		if (seen.has(value)) issues.push({ path: [i, key], message: message(value) });
		seen.add(value);
	});
	return issues;
}

/** Adds issues found outside zod to a refinement, under `at`. */
export function addIssues(
	ctx: z.RefinementCtx,
	issues: readonly FieldIssue[],
	at: Array<string | number> = [],
): void {
	for (const issue of issues) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: [...at, ...issue.path],
			message: issue.message,
		});
	}
}

/** `uniqueIssues` as an array refinement: `z.array(item).superRefine(uniqueBy('id', ...))`. */
export function uniqueBy<T>(key: keyof T & string, message: (value: string) => string) {
	return (items: readonly T[], ctx: z.RefinementCtx) =>
		addIssues(ctx, uniqueIssues(items, key, message));
}

/** One line per issue, `path.to.field: message` (the path joined with dots). */
export function formatZodIssues(error: { issues: ReadonlyArray<z.ZodIssue> }): string[] {
	return error.issues.map((issue) =>
		issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
	);
}
