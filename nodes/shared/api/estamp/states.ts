/**
 * The thirteen states the e-stamp step accepts (specification 2.6) and the Indian
 * state and union-territory names accepted as a shipping address state.
 */

/** Lowest duty the API accepts, in rupees. */
export const MIN_DUTY = 10;
/** Highest duty the API accepts for any state (the "ceiling"). */
export const DUTY_CEILING = 10_000_000;

export const ESTAMP_STATE_CODES = [
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

export type EstampStateCode = (typeof ESTAMP_STATE_CODES)[number];

export interface EstampState {
	code: EstampStateCode;
	name: string;
	/** Highest duty for this state. */
	maxDuty: number;
	/**
	 * Whether the specification states the maximum. Where it does not, the ceiling
	 * (10000000) is used; the service may enforce a lower state maximum.
	 */
	maxDutyShown: boolean;
}

const state = (code: EstampStateCode, name: string, maxDuty?: number): EstampState => ({
	code,
	name,
	maxDuty: maxDuty ?? DUTY_CEILING,
	maxDutyShown: maxDuty !== undefined,
});

export const ESTAMP_STATES: readonly EstampState[] = [
	state('CH', 'Chandigarh'),
	state('DL', 'Delhi'),
	state('GJ', 'Gujarat'),
	state('HR', 'Haryana'),
	state('HP', 'Himachal Pradesh'),
	state('JK', 'Jammu and Kashmir'),
	state('JH', 'Jharkhand'),
	state('KA', 'Karnataka', 10_000_000),
	state('MH', 'Maharashtra'),
	state('PB', 'Punjab'),
	state('TN', 'Tamil Nadu'),
	state('UP', 'Uttar Pradesh'),
	state('UK', 'Uttarakhand'),
];

export function getEstampState(code: string): EstampState | undefined {
	return ESTAMP_STATES.find((s) => s.code === code);
}

/** Full names of the Indian states and union territories (shipping address `state`). */
export const INDIAN_STATE_NAMES: readonly string[] = [
	'Andhra Pradesh',
	'Arunachal Pradesh',
	'Assam',
	'Bihar',
	'Chhattisgarh',
	'Goa',
	'Gujarat',
	'Haryana',
	'Himachal Pradesh',
	'Jharkhand',
	'Karnataka',
	'Kerala',
	'Madhya Pradesh',
	'Maharashtra',
	'Manipur',
	'Meghalaya',
	'Mizoram',
	'Nagaland',
	'Odisha',
	'Punjab',
	'Rajasthan',
	'Sikkim',
	'Tamil Nadu',
	'Telangana',
	'Tripura',
	'Uttar Pradesh',
	'Uttarakhand',
	'West Bengal',
	'Andaman and Nicobar Islands',
	'Chandigarh',
	'Dadra and Nagar Haveli and Daman and Diu',
	'Delhi',
	'Jammu and Kashmir',
	'Ladakh',
	'Lakshadweep',
	'Puducherry',
];

/** Other spellings in common use, accepted as the same state. */
const NAME_ALIASES: readonly string[] = [
	'National Capital Territory of Delhi',
	'NCT of Delhi',
	'New Delhi',
	'Orissa',
	'Pondicherry',
	'Uttaranchal',
	'Dadra and Nagar Haveli',
	'Daman and Diu',
];

const normalizeName = (name: string) =>
	name.trim().toLowerCase().replace(/&/g, ' and ').replace(/\s+/g, ' ');

const KNOWN_NAMES = new Set([...INDIAN_STATE_NAMES, ...NAME_ALIASES].map(normalizeName));

/** True for a full Indian state or union-territory name (case and `&` insensitive). */
export function isIndianStateName(name: string): boolean {
	return KNOWN_NAMES.has(normalizeName(name));
}
