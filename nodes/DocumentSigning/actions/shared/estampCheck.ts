import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { EstampConfigSchema } from '../../../shared/api/schemas';
import { readableIssues, validationError } from '../../../shared/api/validation';

/**
 * The e-stamp fields of the panel checked on their own, so a problem names the field the
 * user sees ("Stamp Duty Amount") rather than the API's path (`workflow.estampConfig.amount`).
 * The rules stay the e-stamp schema's; only the names and the API-side wording change.
 */

const PARTY: Record<string, string> = {
	name: 'Legal Name',
	email: 'Email',
	mobile: 'Mobile',
	address: 'Address',
};
const SHIPPING: Record<string, string> = {
	name: 'Name',
	address: 'Address',
	city: 'City',
	state: 'State',
	pincode: 'Pincode',
	mobile: 'Mobile',
};

/** The panel's name of the field at `path` of an `estampConfig`. */
export function estampFieldName(path: ReadonlyArray<string | number>, articleName: string): string {
	const [top, inner] = path.map(String);
	switch (top) {
		case 'state':
			return 'Stamp State';
		case 'article':
			return articleName;
		case 'amount':
			return 'Stamp Duty Amount';
		case 'considerationAmount':
			return 'Consideration Amount';
		case 'payee':
			return 'Duty Paid By';
		case 'hardcopy':
			return 'Deliver a Physical Copy';
		case 'firstParty':
		case 'secondParty': {
			const who = top === 'firstParty' ? 'First' : 'Second';
			return inner
				? `${who} Party ${PARTY[inner] ?? inner}`
				: `${who} Party (Legal Name, Email, Address)`;
		}
		case 'shipping':
			return inner ? `Shipping Address › ${SHIPPING[inner] ?? inner}` : 'Shipping Address';
		default:
			return path.join('.');
	}
}

/** The schema's wording, where it speaks of API values, in the panel's words. */
const panelWording = (message: string) =>
	message
		.replace(' written as a string', '')
		.replace('firstParty.name', 'First Party Legal Name')
		.replace("when hardcopy is 'y'", 'when Deliver a Physical Copy is on')
		.replace(/^Required$/, 'is required');

/** Throws the e-stamp's problems, each naming its panel field, before any request. */
export function checkEstampFields(
	this: IExecuteFunctions,
	config: IDataObject,
	articleName: string,
	i: number,
): void {
	const result = EstampConfigSchema.safeParse(config);
	if (result.success) return;
	const nothingPicked = articleName === 'Article Name or ID' && config.article === '';
	const lines = readableIssues(result.error.issues, config).map((issue) =>
		nothingPicked && issue.path[0] === 'article'
			? `${articleName}: is required (pick the instrument from the list, or "Other: Type the Exact Value")`
			: `${estampFieldName(issue.path, articleName)}: ${panelWording(issue.message)}`,
	);
	throw validationError(this, 'e-stamp', [...new Set(lines)], i);
}
