import type { z } from 'zod/v3';

/**
 * How a problem found in a request body reads: the field as the panel shows it, counted
 * from 1 ("Recipient 1 > Signature Placement > Search Text"), and the rule in plain words
 * ("must be one of: signer, approver, cc"), also for input given as JSON, whose keys are
 * the API's.
 */

/** Lists whose entries the panel shows one by one: the name of one entry. */
const ENTRY: Record<string, string> = {
	recipients: 'Recipient',
	recipientMapping: 'Recipient',
	formFields: 'Form Field',
	documents: 'Document',
	participants: 'Participant',
	approvalStages: 'Approval Stage',
	allowedOverrides: 'Allowed Override',
};

/** Keys whose panel name is not their words in Title Case. */
const LABEL: Record<string, string> = {
	order: 'Signing Order',
	pageNumber: 'Page',
	pages: 'Pages',
	templateId: 'Template',
	templateRecipientId: 'Template Recipient ID',
	id: 'ID',
	estampConfig: 'E-Stamp',
	prefillValues: 'Prefill Fields',
	fieldKey: 'Field Key',
	workflow: 'Signing Settings',
	execution: 'Execution Settings',
	whatsappNotifications: 'WhatsApp Notifications',
	expiresAt: 'Expires At',
	redirectUrl: 'Redirect URL',
	pdfUrl: 'PDF URL',
	recipientMapping: 'Recipients',
};

/** Keys that group fields without a name of their own in the panel. */
const HIDDEN = new Set(['config']);

/** `signatureMethod` → "Signature Method". */
const titleCase = (key: string) =>
	key
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/[_-]+/g, ' ')
		.replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** The panel's name of the field at `path` ("Recipient 1 > Signature Placement > Search Text"). */
export function fieldName(path: ReadonlyArray<string | number>): string {
	const parts: string[] = [];
	for (let n = 0; n < path.length; n++) {
		const key = String(path[n]);
		const next = path[n + 1];
		const index = next !== undefined && /^\d+$/.test(String(next)) ? Number(next) : undefined;
		if (HIDDEN.has(key) && n < path.length - 1) continue;
		if (index !== undefined && ENTRY[key]) {
			parts.push(`${ENTRY[key]} ${index + 1}`);
			n++;
		} else if (index !== undefined) {
			parts.push(`${LABEL[key] ?? titleCase(key)}, entry ${index + 1}`);
			n++;
		} else if (/^\d+$/.test(key)) {
			parts.push(`Entry ${Number(key) + 1}`);
		} else {
			parts.push(LABEL[key] ?? titleCase(key));
		}
	}
	return parts.join(' > ');
}

/** The same for a dotted path (`recipients.0.emial`); a key the API does not take keeps its spelling. */
export function fieldNameOfDotted(path: string, keepLast = false): string {
	const keys = path.split('.');
	if (!keepLast) return fieldName(keys);
	const last = keys.pop() ?? '';
	const head = keys.length ? fieldName(keys) : '';
	return head ? `${head} > ${last}` : last;
}

const kind = (type: string) =>
	type === 'array'
		? 'a list'
		: type === 'object'
			? 'an object'
			: /^[aeiou]/.test(type)
				? `an ${type}`
				: `a ${type}`;

/** The rule of an issue in plain words; the schema's own messages are kept. */
export function ruleText(issue: z.ZodIssue): string {
	switch (issue.code) {
		case 'invalid_enum_value':
			return `must be one of: ${issue.options.map(String).join(', ')} (received ${JSON.stringify(issue.received)})`;
		case 'invalid_type':
			return issue.received === 'undefined'
				? 'is required'
				: `must be ${kind(issue.expected)}, but received ${kind(issue.received)}`;
		case 'invalid_literal':
			return `must be ${JSON.stringify(issue.expected)}`;
		case 'invalid_string':
			if (issue.message === 'Invalid email') return 'is not a valid email address';
			if (issue.message === 'Invalid url') return 'is not a valid address (URL)';
			return issue.message;
		default:
			return issue.message === 'Required' ? 'is required' : issue.message;
	}
}

/** A problem found by a rule of its own (not a schema's): its path and its message. */
export interface PathIssue {
	path: ReadonlyArray<string | number>;
	message: string;
	code?: string;
}

/** "<field>: <rule>" for each issue; an issue of the whole input is its rule alone. */
export function issueLines(issues: ReadonlyArray<z.ZodIssue | PathIssue>): string[] {
	return issues.map((issue) => {
		const rule =
			'code' in issue && issue.code !== undefined ? ruleText(issue as z.ZodIssue) : issue.message;
		return issue.path.length > 0 ? `${fieldName(issue.path)}: ${rule}` : rule;
	});
}
