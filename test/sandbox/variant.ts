/**
 * The sandbox's two readings of what the specification leaves open: the DEFAULT mode
 * (the guesses of guesses.ts, the same as docs/assumptions.md) and the VARIANT mode,
 * another plausible choice at each place (V1..V14 of docs/sandbox.md). Routes ask
 * `choicesOf(state)` instead of testing the mode, so every difference is listed here.
 * What the specification states is the same in both modes.
 */
import {
	GUESSED_DEFAULTS,
	GUESSED_ENVELOPE_STATUSES,
	GUESSED_ERROR_STATUS,
	GUESSED_ESTAMP_FAILED_STATUS,
	GUESSED_PATHS,
	GUESSED_SIGNATURE,
	GUESSED_TRANSACTION_TYPES,
	GUESSED_WHATSAPP_VALUES,
} from './guesses';

export interface ModeChoices {
	name: 'default' | 'variant';
	/** V1: the balance path and the answer built from the balance. */
	balancePath: string;
	balanceView(context: string, balance: number): Record<string, unknown>;
	/** V2: workflow list and get paths, and the get answer's shape. */
	workflowListPath: string;
	workflowGetPath: string;
	workflowGetShape: 'definitionVersion' | 'definitionWithVersions';
	/** V4: envelope statuses a list filter accepts, and the status after a failed e-stamp. */
	envelopeStatuses: readonly string[];
	estampFailedStatus: string;
	/** V5: event kinds emitted on a recipient's signature and on completion (none: not emitted). */
	recipientSignedEvent: string | null;
	completedEvent: string | null;
	/** V6: paging. */
	defaultLimit: number;
	maxLimit: number;
	/** V7: answer shapes of publish, PATCH and run. */
	workflowAnswers: 'wrapped' | 'records';
	/** V8: webhook signature encoding. */
	signatureEncoding: 'hex' | 'base64';
	/** V9: whether an add-recipients body asks for a replacement. */
	isReplace(body: Record<string, unknown>): boolean;
	/** V10: credit transaction types and whatsappNotifications values. */
	transactionTypes: readonly string[];
	whatsappValues: readonly string[];
	/** V11: the answer of POST /documents/{id}/send. */
	documentSendShape: 'envelopeSend' | 'compact';
	/** V12: HTTP status of each error code. */
	errorStatus: Readonly<Record<string, number>>;
	/** V13: envelope list order. */
	envelopeOrder: 'updatedDesc' | 'createdAsc';
	/** V14: article rule of states without a catalog in the specification. */
	uncataloguedArticles: 'noStampActNumber' | 'anyName';
}

export const DEFAULT_CHOICES: ModeChoices = {
	name: 'default',
	balancePath: GUESSED_PATHS.creditBalance,
	balanceView: (context, balance) => ({ context, balance, currency: 'credits' }),
	workflowListPath: GUESSED_PATHS.workflowList,
	workflowGetPath: GUESSED_PATHS.workflowGet,
	workflowGetShape: 'definitionVersion',
	envelopeStatuses: GUESSED_ENVELOPE_STATUSES,
	estampFailedStatus: GUESSED_ESTAMP_FAILED_STATUS,
	recipientSignedEvent: null,
	completedEvent: null,
	defaultLimit: GUESSED_DEFAULTS.limit,
	maxLimit: GUESSED_DEFAULTS.maxLimit,
	workflowAnswers: 'wrapped',
	signatureEncoding: GUESSED_SIGNATURE.encoding,
	isReplace: (body) => body.replace === true,
	transactionTypes: GUESSED_TRANSACTION_TYPES,
	whatsappValues: GUESSED_WHATSAPP_VALUES,
	documentSendShape: 'envelopeSend',
	errorStatus: GUESSED_ERROR_STATUS,
	envelopeOrder: 'updatedDesc',
	uncataloguedArticles: 'noStampActNumber',
};

export const VARIANT_CHOICES: ModeChoices = {
	name: 'variant',
	balancePath: '/credits/wallet',
	balanceView: (context, balance) => ({ context, available: balance, reserved: 0, unit: 'credit' }),
	workflowListPath: '/workflow-definitions',
	workflowGetPath: '/workflow-definitions/:workflowId',
	workflowGetShape: 'definitionWithVersions',
	envelopeStatuses: [
		'draft',
		'estamping',
		'estamp_error',
		'pending',
		'completed',
		'declined',
		'expired',
		'voided',
	],
	estampFailedStatus: 'estamp_error',
	recipientSignedEvent: 'document.recipient.signed',
	completedEvent: 'document.completed',
	defaultLimit: 10,
	maxLimit: 50,
	workflowAnswers: 'records',
	signatureEncoding: 'base64',
	isReplace: (body) => body.mode === 'replace',
	transactionTypes: [...GUESSED_TRANSACTION_TYPES, 'bonus', 'expiry'],
	whatsappValues: [...GUESSED_WHATSAPP_VALUES, 'critical'],
	documentSendShape: 'compact',
	errorStatus: {
		...GUESSED_ERROR_STATUS,
		INSUFFICIENT_CREDITS: 422,
		FILE_NOT_UPLOADED: 409,
		NOT_AVAILABLE: 410,
	},
	envelopeOrder: 'createdAsc',
	uncataloguedArticles: 'anyName',
};

export function choicesFor(variant: boolean): ModeChoices {
	return variant ? VARIANT_CHOICES : DEFAULT_CHOICES;
}

/** The choices of the state's current mode. */
export function choicesOf(state: { variant: boolean }): ModeChoices {
	return choicesFor(state.variant);
}
