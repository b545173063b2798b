/**
 * The e-stamp configuration of specification 2.6, as the sandbox reads it: the 13
 * states, the KA catalog (data copied from the specification), duty limits, parties and
 * shipping. States without a catalog in the specification follow the mode's choice (V14).
 */
import { z } from 'zod/v3';
import type { ModeChoices } from '../variant';
import { KA_ARTICLES } from './ka-articles';
import { DUTY_CEILING, ESTAMP_STATES, MIN_DUTY, SHOWN_STATE_MAXIMUM } from './limits';

const REMARK = ' (the catalog row for act reference';

/**
 * Catalog values per state: KA only. One printed KA line ends with the specification's
 * remark in parentheses (an ambiguous merged row); the value is the text before it.
 */
const CATALOGS: Readonly<Record<string, ReadonlySet<string>>> = {
	KA: new Set(
		KA_ARTICLES.map((line) => (line.includes(REMARK) ? line.slice(0, line.indexOf(REMARK)) : line)),
	),
};

// A Stamp Act number: "Article 5(b)", "Art. 30", "Article No. 5", "Art 30(2)(a)(i)", or bare "5(b)".
const LABELLED = String.raw`\b(?:article|art)\.?\s*(?:no\.?\s*)?\d+[a-z]?(?:\s*\(\w+\))*`;
const BARE_WITH_CLAUSE = String.raw`\d+[a-z]?(?:\s*\(\w+\))+`;
const ACT_NUMBER_AT_START = new RegExp(
	String.raw`^\s*[\[(]?\s*(?:${LABELLED}|${BARE_WITH_CLAUSE}|\d+[a-z]?\s*[\])]?\s*[-:–.,])`,
	'i',
);
const ACT_NUMBER_AT_END = new RegExp(
	String.raw`(?:${LABELLED}|[-–:,]\s*[\[(]?\s*${BARE_WITH_CLAUSE})\s*[\])]?\s*$`,
	'i',
);
const ONLY_A_NUMBER = new RegExp(
	String.raw`^\s*[\[(]?\s*(?:${LABELLED}|\d+[a-z]?(?:\s*\(\w+\))*)\s*[\])]?\s*$`,
	'i',
);

/** Why an article value is refused for the state, or undefined. */
export function articleProblem(
	choices: ModeChoices,
	state: string,
	article: string,
): string | undefined {
	if (article.trim() === '') return 'must not be empty';
	if (ONLY_A_NUMBER.test(article)) return 'is only a Stamp Act number; send the instrument name';
	const catalog = CATALOGS[state];
	if (catalog) {
		return catalog.has(article)
			? undefined
			: `must be an exact instrument name from the ${state} catalog`;
	}
	if (choices.uncataloguedArticles === 'anyName') return undefined;
	if (ACT_NUMBER_AT_START.test(article) || ACT_NUMBER_AT_END.test(article)) {
		return 'must be the instrument name without the Stamp Act number';
	}
	return undefined;
}

const text = () => z.string().trim().min(1, 'is required');
const mobile = () => z.string().regex(/^\d{10}$/, 'must be 10 digits');
const wholeNumber = /^\d+$/;

const party = z.object({
	name: text(),
	email: z.string().email(),
	mobile: mobile().optional(),
	address: text(),
});

const shipping = z.object({
	name: text(),
	address: text(),
	city: text(),
	state: text().refine(
		(value) => !/^[A-Za-z]{2}$/.test(value.trim()),
		'must be the full state name, not the code',
	),
	pincode: z.string().regex(/^\d{6}$/, 'must be 6 digits'),
	mobile: mobile(),
});

export function estampConfigSchema(choices: ModeChoices) {
	return z
		.object({
			state: z.enum(ESTAMP_STATES),
			article: z.string(),
			amount: z.string().regex(wholeNumber, 'must be a whole number written as a string'),
			considerationAmount: z
				.string()
				.regex(wholeNumber, 'must be a non-negative whole number written as a string'),
			payee: z.enum(['first-party', 'second-party']).default('first-party'),
			hardcopy: z.enum(['n', 'y']).default('n'),
			firstParty: party,
			secondParty: party,
			shipping: shipping.optional(),
		})
		.superRefine((config, ctx) => {
			const problem = articleProblem(choices, config.state, config.article);
			if (problem) ctx.addIssue({ code: 'custom', path: ['article'], message: problem });
			const max = SHOWN_STATE_MAXIMUM[config.state] ?? DUTY_CEILING;
			if (
				wholeNumber.test(config.amount) &&
				(Number(config.amount) < MIN_DUTY || Number(config.amount) > max)
			) {
				ctx.addIssue({
					code: 'custom',
					path: ['amount'],
					message: `must be from ${MIN_DUTY} to ${max} for ${config.state}`,
				});
			}
			if (
				config.firstParty.name.trim().toLowerCase() === config.secondParty.name.trim().toLowerCase()
			) {
				ctx.addIssue({
					code: 'custom',
					path: ['secondParty', 'name'],
					message: 'must differ from firstParty.name',
				});
			}
			if (config.hardcopy === 'y' && !config.shipping) {
				ctx.addIssue({
					code: 'custom',
					path: ['shipping'],
					message: "is required when hardcopy is 'y'",
				});
			}
		});
}
