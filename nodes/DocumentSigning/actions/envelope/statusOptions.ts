import { EnvelopeStatusSchema } from '../../../shared/schemas';
import { enumOptions } from '../shared/params';

/** The envelope statuses as dropdown options (Get Many filter, status trigger). */
export const ENVELOPE_STATUS_OPTIONS = enumOptions(EnvelopeStatusSchema, {
	draft: 'Draft',
	estamping: 'E-Stamping',
	estamp_failed: 'E-Stamp Failed',
	pending: 'Pending',
	completed: 'Completed',
});
