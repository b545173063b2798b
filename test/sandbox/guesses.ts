/**
 * The sandbox's own guesses where the specification says "not shown", for its DEFAULT
 * mode. They are written here, not imported from the nodes: the default mode makes the
 * same guesses as docs/assumptions.md (so examples and tests run), the variant mode
 * (variant.ts) makes other plausible ones. Everything the specification states lives in
 * spec/ instead.
 */

/** HTTP status of each error code (the specification shows only 400 and 409). */
export const GUESSED_ERROR_STATUS: Readonly<Record<string, number>> = {
	VALIDATION_ERROR: 400, // stated
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	NOT_FOUND: 404,
	NOT_AVAILABLE: 404,
	INVALID_STATUS: 409,
	TEMPLATE_ARCHIVED: 409, // status stated, code guessed
	INSUFFICIENT_CREDITS: 402,
	FILE_NOT_UPLOADED: 400,
	RATE_LIMITED: 429,
	INTERNAL_SERVER_ERROR: 500,
	SERVICE_UNAVAILABLE: 503,
};

/** Values applied when a request leaves a field out. */
export const GUESSED_DEFAULTS = {
	recipientRole: 'signer',
	recipientSignatureMethod: 'electronic',
	workflow: {
		mode: 'sequential',
		verificationMethod: 'email_verification',
		emailNotifications: 'all',
		whatsappNotifications: 'all',
		reminderEveryHours: 24,
	},
	/** Envelope expiry and a workflow's `expiresInDays` when omitted. */
	expiresInDays: 30,
	page: 1,
	limit: 20,
	maxLimit: 100,
	/** Credit usage period when `startDate` is omitted: 30 days ending at `endDate`. */
	usageDays: 30,
} as const;

/** Envelope statuses beyond the four shown (the failed e-stamp). */
export const GUESSED_ENVELOPE_STATUSES = [
	'draft',
	'estamping',
	'estamp_failed',
	'pending',
	'completed',
] as const;
export const GUESSED_ESTAMP_FAILED_STATUS = 'estamp_failed';
export const GUESSED_WHATSAPP_VALUES = ['all', 'none'] as const;
export const GUESSED_TRANSACTION_TYPES = ['consume', 'purchase', 'refund', 'adjustment'] as const;

/** Key scopes of endpoints whose scope is not shown. */
export const GUESSED_SCOPES = {
	documentsRead: 'documents:read',
	documentsWrite: 'documents:write',
	signingWrite: 'signing:write',
	creditsRead: 'credits:read',
} as const;

/** Paths whose path is not shown. */
export const GUESSED_PATHS = {
	creditBalance: '/credits/balance',
	workflowList: '/workflows',
	workflowGet: '/workflows/:workflowId',
} as const;

/** Webhook signature: only the header name is shown. */
export const GUESSED_SIGNATURE = { algorithm: 'sha256', encoding: 'hex' as 'hex' | 'base64' };

/** One credit per `aadhaar_otp` recipient, taken at send. */
export const CREDITS_PER_AADHAAR_RECIPIENT = 1;
