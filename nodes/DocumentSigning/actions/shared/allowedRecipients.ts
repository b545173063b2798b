import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { inputError } from '../../../shared/api/validation';
import { readSafeguards } from './safeguards';

/**
 * Allowed Recipients (Safeguards): who may be added as a recipient by this node. The one
 * place of the rule. Entries, comma- or newline-separated:
 * - `example.com`: e-mail addresses at that domain exactly;
 * - `*.example.com`: that domain and its subdomains;
 * - `asha@example.com`: that address exactly;
 * - `+9198`: phone numbers starting with these digits (spaces, dashes and brackets ignored).
 * Every contact a recipient has must be allowed (a phone opens a WhatsApp channel, so an
 * allowed e-mail does not let a phone through). Empty list: anyone, as before.
 */
export interface AllowedRecipients {
	domains: string[];
	wildcardDomains: string[];
	addresses: string[];
	phonePrefixes: string[];
	/** The list as the user wrote it, for the error. */
	text: string;
}

const digits = (phone: string) => phone.replace(/[\s\-().]/g, '');

export function parseAllowedRecipients(text: string): AllowedRecipients | undefined {
	const entries = text
		.split(/[,;\n]/)
		.map((e) => e.trim().toLowerCase())
		.filter(Boolean);
	if (!entries.length) return undefined;
	const list: AllowedRecipients = {
		domains: [],
		wildcardDomains: [],
		addresses: [],
		phonePrefixes: [],
		text: entries.join(', '),
	};
	for (const entry of entries) {
		if (entry.startsWith('+')) list.phonePrefixes.push(digits(entry));
		else if (entry.startsWith('*.')) list.wildcardDomains.push(entry.slice(2));
		// "@example.com" is a domain too
		else if (entry.startsWith('@')) list.domains.push(entry.slice(1));
		else if (entry.includes('@')) list.addresses.push(entry);
		else list.domains.push(entry);
	}
	return list;
}

export function emailAllowed(list: AllowedRecipients, email: string): boolean {
	const address = email.trim().toLowerCase();
	if (list.addresses.includes(address)) return true;
	// One mailbox only: "a@evil.io?@example.com" is not an address at example.com.
	const parts = address.split('@');
	if (parts.length !== 2 || !parts[0] || /[\s,;<>()[\]"\\?]/.test(address)) return false;
	const domain = parts[1];
	return (
		list.domains.includes(domain) ||
		list.wildcardDomains.some((d) => domain === d || domain.endsWith(`.${d}`))
	);
}

export function phoneAllowed(list: AllowedRecipients, phone: string): boolean {
	const number = digits(phone.trim());
	return list.phonePrefixes.some((prefix) => number.startsWith(prefix));
}

/** What the list allows, in words, for the error the model or the user reads. */
function allowedText(list: AllowedRecipients): string {
	const parts: string[] = [];
	if (list.domains.length) parts.push(`e-mail addresses at ${list.domains.join(', ')}`);
	if (list.wildcardDomains.length)
		parts.push(`e-mail addresses at ${list.wildcardDomains.join(', ')} or their subdomains`);
	if (list.addresses.length) parts.push(`the addresses ${list.addresses.join(', ')}`);
	if (list.phonePrefixes.length)
		parts.push(`phone numbers starting with ${list.phonePrefixes.join(', ')}`);
	else parts.push('no phone numbers');
	return parts.join('; ');
}

/**
 * Refuses item `i` before any request when a recipient's e-mail or phone is outside the
 * Allowed Recipients. `field` names the parameter (e.g. "Recipients"); every refused
 * contact is listed, so the caller can correct all of them at once.
 */
export function checkAllowedRecipients(
	this: IExecuteFunctions,
	i: number,
	recipients: unknown,
	field: string,
): void {
	const list = parseAllowedRecipients(readSafeguards.call(this, i).allowedRecipients ?? '');
	if (!list || !Array.isArray(recipients)) return;
	const refused: string[] = [];
	recipients.forEach((value, n) => {
		const recipient = (value && typeof value === 'object' ? value : {}) as IDataObject;
		const who = `recipient ${n + 1}${typeof recipient.name === 'string' && recipient.name ? ` (${recipient.name})` : ''}`;
		// A number is a contact too (JSON input may carry one): checked here, not left to the schema.
		const [email, phone] = [recipient.email, recipient.phone].map((v) =>
			typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '',
		);
		if (email && !emailAllowed(list, email)) refused.push(`${who}: e-mail ${email}`);
		if (phone && !phoneAllowed(list, phone)) refused.push(`${who}: phone ${phone}`);
	});
	if (!refused.length) return;
	throw inputError(
		this.getNode(),
		`${field}: not an allowed recipient (Safeguards > Allowed Recipients): ${refused.join('; ')}. Allowed: ${allowedText(list)}`,
		i,
		`Nothing was sent. This node may add only the recipients its owner allowed (${list.text}). Use an allowed address, or ask the owner of the workflow to add it.`,
	);
}
