import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * The two parties of an e-stamp (first and second party): their parameters and the reading
 * of one party's values back, for the e-stamp block of `estamp.ts`.
 */

/** The party fields, flat (`estampFirstPartyName`, ...): every field shows at once, and there is no list to add to. */
const PARTY_FIELDS = ['Name', 'Email', 'Mobile', 'Address'] as const;

/** The four parameters of one party, shown with `displayOptions`. */
export function partyProperties(
	who: 'First' | 'Second',
	displayOptions: IDisplayOptions,
): INodeProperties[] {
	const party = `${who.toLowerCase()} party`;
	const name = (field: (typeof PARTY_FIELDS)[number]) => `estamp${who}Party${field}`;
	return [
		{
			displayName: `${who} Party Legal Name`,
			name: name('Name'),
			type: 'string',
			default: '',
			required: true,
			description: `Legal name of the ${party}; the two parties must have different names`,
			displayOptions,
		},
		{
			displayName: `${who} Party Email`,
			name: name('Email'),
			type: 'string',
			placeholder: 'e.g. name@email.com',
			default: '',
			required: true,
			displayOptions,
		},
		{
			displayName: `${who} Party Mobile`,
			name: name('Mobile'),
			type: 'string',
			default: '',
			placeholder: 'e.g. 9876543210',
			description: 'Optional. 10 digits, without country code.',
			displayOptions,
		},
		{
			displayName: `${who} Party Address`,
			name: name('Address'),
			type: 'string',
			default: '',
			required: true,
			displayOptions,
		},
	];
}

/** One party's values as named in `estampConfig` (name, email, mobile, address), as read by `get`. */
export function readParty(
	who: 'First' | 'Second',
	get: (name: string) => IDataObject[string],
): IDataObject {
	const values: IDataObject = {};
	for (const field of PARTY_FIELDS) values[field.toLowerCase()] = get(`estamp${who}Party${field}`);
	return values;
}
