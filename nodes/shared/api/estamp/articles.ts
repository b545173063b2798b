/**
 * The e-stamp `article` rule (specification 2.6): the exact instrument name from the
 * selected state's catalog, without the Stamp Act number.
 *
 * Catalog values are copied verbatim from the specification, odd spellings included.
 * One KA row is printed in the specification as
 *   "Lease of Movable Property - Lease of movable property rent fixed, no premium (the
 *   catalog row for act reference 30(2)(a)(i), text 'upto 10 years', runs together with
 *   this row and the exact value of that row is ambiguous)".
 * The parenthesis is the specification's own remark, not part of the value, so the
 * catalog holds the text before it. The merged "upto 10 years" row it mentions cannot be
 * reconstructed and is not invented; such a value can still be sent only if it is
 * exactly in the catalog, so that row is not selectable here.
 */
import { ARTICLE_CATALOGS } from './catalogs';
import { getEstampState } from './states';

/**
 * The catalog of a state, or undefined when the specification does not give it (the
 * user then types the exact value).
 */
export function getArticles(state: string): string[] | undefined {
	const catalog = ARTICLE_CATALOGS[state];
	return catalog ? [...catalog] : undefined;
}

// A Stamp Act article reference such as "Article 5(b)", "Art. 30", "Art 30(2)(a)(i)".
const LABELLED_REF = String.raw`\b(?:article|art)\.?\s*(?:no\.?\s*)?\d+[a-z]?(?:\s*\(\s*[0-9a-z]+\s*\))*`;
// A bare reference such as "5(b)", "30(2)(a)(i)", "37".
const BARE_REF = String.raw`\d+[a-z]?(?:\s*\(\s*[0-9a-z]+\s*\))*`;

const LEADING_LABELLED = new RegExp(
	String.raw`^\s*[\[(]?\s*${LABELLED_REF}\s*[\])]?\s*[-:–.,]?\s*`,
	'i',
);
// A bare number counts only when it has a sub-clause or a separator after it,
// so "5(b) - Affidavit" or "30: Lease" is caught but "10 Years Lease" is not.
const LEADING_BARE = new RegExp(
	String.raw`^\s*[\[(]?\s*(?:\d+[a-z]?(?:\s*\(\s*[0-9a-z]+\s*\))+\s*[\])]?\s*[-:–.,]?|\d+[a-z]?\s*[\])]?\s*[-:–.,])\s*`,
	'i',
);
const TRAILING_LABELLED = new RegExp(
	String.raw`\s*[-:–,]?\s*[\[(]?\s*${LABELLED_REF}\s*[\])]?\s*$`,
	'i',
);
const TRAILING_BARE = new RegExp(String.raw`\s*[-–:,]\s*[\[(]?\s*${BARE_REF}\s*[\])]?\s*$`, 'i');

const ONLY_REF = new RegExp(
	String.raw`^\s*[\[(]?\s*(?:${LABELLED_REF}|${BARE_REF})\s*[\])]?\s*$`,
	'i',
);

/**
 * True when the value starts with a Stamp Act article reference ("Article 5(b) -
 * Affidavit", "5(b) - Affidavit"). Used for states whose catalog is not known. A trailing
 * reference is not refused: the specification's own KA catalog ends values with one
 * ("Customs Bond or Excise Bond Art 23(b)", "Indemnity Bond (As per Article 47)",
 * "Surrender of Lease (Art 40b)"), so the catalogs not shown may too; none starts with one.
 */
export function hasStampActNumber(article: string): boolean {
	return LEADING_LABELLED.test(article) || LEADING_BARE.test(article);
}

/** The value with a leading or trailing article reference removed (for suggestions). */
function withoutStampActNumber(article: string): string[] {
	const candidates = new Set<string>();
	for (const re of [LEADING_LABELLED, LEADING_BARE]) candidates.add(article.replace(re, '').trim());
	for (const re of [TRAILING_LABELLED, TRAILING_BARE])
		candidates.add(article.replace(re, '').trim());
	candidates.delete(article.trim());
	return [...candidates].filter((c) => c.length > 0);
}

/**
 * Why `article` is not acceptable for `state`, or undefined when it is. Assumes `state`
 * is one of the supported codes (checked separately).
 */
export function articleIssue(state: string, article: string): string | undefined {
	if (article.trim().length === 0) return 'must not be empty';
	if (ONLY_REF.test(article)) {
		return 'is only a Stamp Act article number; send the instrument name without the number';
	}
	const catalog = ARTICLE_CATALOGS[state];
	if (!catalog) {
		if (hasStampActNumber(article)) {
			return 'must not start with the Stamp Act article number (such as "Article 5(b) - ..."); send the instrument name only';
		}
		return undefined;
	}
	if (catalog.includes(article)) return undefined;

	for (const candidate of withoutStampActNumber(article)) {
		if (catalog.includes(candidate)) {
			return `must not contain the Stamp Act article number; send the catalog value "${candidate}"`;
		}
	}
	const folded = article.trim().toLowerCase();
	const near = catalog.find((value) => value.toLowerCase() === folded);
	if (near !== undefined) {
		return `must be the exact ${state} catalog value "${near}" (capitalization, spacing and punctuation matter)`;
	}
	const name = getEstampState(state)?.name ?? state;
	return `must be an exact article value from the ${state} (${name}) catalog`;
}
