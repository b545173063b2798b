import type { INodePropertyOptions } from 'n8n-workflow';

import { GUESSED_VALUES } from './assumptions';

/**
 * Envelope statuses offered in the Get Many filter and the Status Trigger. The
 * specification shows draft, pending, estamping and completed and says others exist
 * without naming them: the list holds the guesses (estamp_failed is one), and both take
 * any other status (an expression, or the trigger's Other Statuses).
 */
const STATUS_LABELS: Record<
	(typeof GUESSED_VALUES.envelopeStatuses)[number],
	{ name: string; description: string }
> = {
	draft: { name: 'Draft', description: 'Created, not sent yet' },
	estamping: { name: 'E-Stamping', description: 'Sent with e-stamping; the stamp is being bought' },
	estamp_failed: {
		name: 'E-Stamp Failed',
		description:
			'The e-stamp purchase failed for good (if your service names this status differently, give its name as an expression)',
	},
	pending: { name: 'Pending', description: 'Sent; waiting for recipients to sign or approve' },
	completed: { name: 'Completed', description: 'Every signer signed and every approver approved' },
};

export const ENVELOPE_STATUS_OPTIONS: INodePropertyOptions[] = GUESSED_VALUES.envelopeStatuses.map(
	(value) => ({
		...STATUS_LABELS[value],
		value,
	}),
);

/** A status's name for output (`statusName`): the label when offered, else the status itself. */
export function statusName(status: string): string {
	return STATUS_LABELS[status as keyof typeof STATUS_LABELS]?.name ?? status;
}

export const OTHER_STATUS_HINT =
	'Any other status your service uses can be given as an expression; the node sends any status';
