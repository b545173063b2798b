/**
 * What the specification states as numbers and fixed values (parts 1, 2, 6, 7, 8), read
 * from the specification by the sandbox itself.
 */

/** PDF file size limit (2.1, 8). */
export const MAX_FILE_SIZE = 10_485_760;
/** Upload configuration validity, seconds (2.1, 8). */
export const UPLOAD_EXPIRES_IN = 3600;
/** Download URL validity, seconds (4.1, 8). */
export const DOWNLOAD_EXPIRES_IN = 3600;
/** Recipients per document across all roles (2.2, 2.3, 8). */
export const MAX_RECIPIENTS = 15;
/** E-stamp duty: from 10 up to the state's maximum, ceiling 10000000 (2.6, 8). */
export const MIN_DUTY = 10;
export const DUTY_CEILING = 10_000_000;
/** The state maximums the specification shows (KA only). */
export const SHOWN_STATE_MAXIMUM: Readonly<Record<string, number>> = { KA: 10_000_000 };
/** Platform status check of pending e-stamps (8). */
export const ESTAMP_CHECK_INTERVAL_MS = 3600_000;

export const ESTAMP_STATES = [
	'CH',
	'DL',
	'GJ',
	'HR',
	'HP',
	'JK',
	'JH',
	'KA',
	'MH',
	'PB',
	'TN',
	'UP',
	'UK',
] as const;

export const RECIPIENT_ROLES = ['signer', 'approver', 'cc'] as const;
export const SIGNATURE_METHODS = ['electronic', 'aadhaar_otp', 'dsc_usb', 'all'] as const;
export const VERIFICATION_METHODS = ['email_verification', 'link_only'] as const;
export const SIGNING_MODES = ['sequential', 'parallel'] as const;
export const EMAIL_NOTIFICATIONS = ['all', 'completion_only', 'none'] as const;
export const TEMPLATE_STATUSES = ['active', 'archived'] as const;

/** The webhook signature header (6). */
export const SIGNATURE_HEADER = 'x-service-signature';

/** The four event kinds shown (6). */
export const EVENT_KINDS = [
	'document.estamp.started',
	'document.estamp.completed',
	'document.estamp.failed',
	'document.sent',
] as const;

/** A PDF starts with `%PDF-`. */
export function isPdf(data: Buffer): boolean {
	return data.subarray(0, 5).toString('latin1') === '%PDF-';
}
