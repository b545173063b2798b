import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readRecipients } from '../shared/recipients';
import { inputError } from '../../../shared/api/validation';

/**
 * The template recipients of item `i`, [] when none. Each needs its own ID: fields are
 * assigned to a recipient by it and documents map a real person to it, so the node does
 * not leave it to the service to generate.
 */
export function readTemplateRecipients(this: IExecuteFunctions, i: number): unknown[] {
	const recipients = readRecipients.call(this, i) ?? [];
	recipients.forEach((recipient, n) => {
		const id = (recipient as IDataObject | null)?.id;
		if (recipient && typeof recipient === 'object' && (id === undefined || id === '')) {
			const name = (recipient as IDataObject).name;
			throw inputError(
				this.getNode(),
				`Recipients: recipient ${n + 1}${typeof name === 'string' && name ? ` (${name})` : ''} needs a Recipient ID`,
				i,
				'Template recipients are roles: form fields and documents refer to them by their ID, e.g. "client".',
			);
		}
	});
	return recipients;
}
