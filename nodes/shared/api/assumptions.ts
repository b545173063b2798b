/**
 * Every place where the API specification says "not shown", and the guess this package
 * (and its sandbox) makes there. One table, so a guess is changed in one place.
 * docs/assumptions.md lists the same rows for users (test/docs/assumptions.test.ts checks it).
 */

import { type Assumption, ENVELOPE_ASSUMPTIONS, RESOURCE_ASSUMPTIONS } from './assumptionRows';

/** HTTP status for each error code whose status the specification does not show. */
export const ERROR_STATUS: Record<string, number> = {
	VALIDATION_ERROR: 400, // shown
	UNAUTHORIZED: 401,
	FORBIDDEN: 403,
	NOT_FOUND: 404,
	NOT_AVAILABLE: 404,
	INVALID_STATUS: 409,
	TEMPLATE_ARCHIVED: 409, // status shown, code not shown
	INSUFFICIENT_CREDITS: 402,
	FILE_NOT_UPLOADED: 400,
	RATE_LIMITED: 429,
	INTERNAL_SERVER_ERROR: 500,
	SERVICE_UNAVAILABLE: 503,
};

/** Default values the API applies when a field is omitted (not shown in the specification). */
export const DEFAULTS = {
	recipient: {
		role: 'signer',
		/** 1-based position of the recipient in the request when `order` is omitted. */
		orderFromPosition: true,
		signatureMethod: 'electronic',
	},
	workflow: {
		mode: 'sequential',
		verificationMethod: 'email_verification',
		emailNotifications: 'all',
		whatsappNotifications: 'all',
		reminderEveryHours: 24,
		expiresInDays: 30,
	},
	page: 1,
	limit: 20,
	maxLimit: 100,
} as const;

/** Enum values the specification does not list in full. */
export const GUESSED_VALUES = {
	envelopeStatuses: ['draft', 'estamping', 'estamp_failed', 'pending', 'completed'],
	whatsappNotifications: ['all', 'none'],
	creditTransactionTypes: ['consume', 'purchase', 'refund', 'adjustment'],
	creditSources: ['api', 'dashboard', 'system'],
	balanceContexts: ['personal', 'organization_wallet', 'organization_member_allocation'],
	recipientStatuses: ['pending', 'signed', 'approved'],
} as const;

/** Key scopes of endpoints whose scope the specification does not show. */
export const GUESSED_SCOPES = {
	/** list, status, fields, file of envelopes */
	documentsRead: 'documents:read',
	/** create envelopes, add recipients */
	documentsWrite: 'documents:write',
	/** send, e-stamp check */
	signingWrite: 'signing:write',
	/** credit transactions, usage, balance */
	creditsRead: 'credits:read',
} as const;

/** Webhook signature: shown only as the header name. */
export const WEBHOOK_SIGNATURE = {
	header: 'x-service-signature',
	algorithm: 'sha256',
	encoding: 'hex',
} as const;

/**
 * Delivery retries are not shown. A retry is assumed to come within a day, so the trigger
 * refuses events created more than this long ago (its Max Event Age option) and remembers
 * the ids of every event inside that window.
 */
export const REPLAY_WINDOW_MINUTES = 24 * 60;

/**
 * Where users read the guesses: the published docs (the npm package ships only dist/, so an
 * error names this address, not a file of the repository).
 */
export const ASSUMPTIONS_URL =
	'https://github.com/document-signing/n8n-nodes-document-signing/blob/main/docs/assumptions.md';

/** Every row, for docs/assumptions.md (test/docs/assumptions.test.ts keeps the two the same). */
export const ASSUMPTIONS: Assumption[] = [...ENVELOPE_ASSUMPTIONS, ...RESOURCE_ASSUMPTIONS];
