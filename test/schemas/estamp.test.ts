/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import * as fs from 'fs';
import * as path from 'path';

import { EstampConfigSchema, SigningSettingsSchema } from '../../nodes/shared/api/schemas';
import {
	DUTY_CEILING,
	ESTAMP_STATE_CODES,
	ESTAMP_STATES,
	getArticles,
	getEstampState,
	hasStampActNumber,
	isIndianStateName,
} from '../../nodes/shared/api/estamp';
import { problems } from './helpers';

const party = (name: string) => ({
	name,
	email: `${name.split(' ')[0].toLowerCase()}@example.com`,
	address: '1 MG Road, Bengaluru',
});

const config = (over: Record<string, unknown> = {}) => ({
	state: 'KA',
	article: 'Affidavit',
	amount: '100',
	considerationAmount: '0',
	firstParty: party('Asha Rao'),
	secondParty: party('Vikram Shetty'),
	...over,
});

describe('e-stamp states', () => {
	it('has the 13 codes of the specification with full names', () => {
		expect([...ESTAMP_STATE_CODES].sort()).toEqual(
			['CH', 'DL', 'GJ', 'HR', 'HP', 'JK', 'JH', 'KA', 'MH', 'PB', 'TN', 'UP', 'UK'].sort(),
		);
		expect(ESTAMP_STATES.map((s) => s.code)).toEqual([...ESTAMP_STATE_CODES]);
		expect(getEstampState('KA')).toMatchObject({
			name: 'Karnataka',
			maxDuty: 10000000,
			maxDutyShown: true,
		});
		expect(getEstampState('DL')).toMatchObject({
			name: 'Delhi',
			maxDuty: DUTY_CEILING,
			maxDutyShown: false,
		});
		expect(getEstampState('XX')).toBeUndefined();
	});

	it.each([...ESTAMP_STATE_CODES])('accepts state %s with a plain instrument name', (code) => {
		expect(problems(EstampConfigSchema, config({ state: code, article: 'Affidavit' }))).toEqual([]);
	});

	it.each(['ka', 'Karnataka', 'RJ'])(
		'refuses state %s (lowercase, a name, not in the catalogue), naming the field and the codes',
		(state) => {
			// the wording around the list is zod's; the field and the accepted codes are ours
			expect(problems(EstampConfigSchema, config({ state }))).toEqual([
				expect.stringMatching(/^state: .*["']CH["'].*["']KA["'].*["']UK["']/),
			]);
		},
	);

	it('knows full Indian state and union-territory names, not codes', () => {
		expect(isIndianStateName('Karnataka')).toBe(true);
		expect(isIndianStateName(' tamil nadu ')).toBe(true);
		expect(isIndianStateName('Jammu & Kashmir')).toBe(true);
		expect(isIndianStateName('KA')).toBe(false);
		expect(isIndianStateName('Atlantis')).toBe(false);
	});
});

describe('KA article catalog', () => {
	const specText = fs.readFileSync(
		path.join(__dirname, '../../nodes/shared/api/estamp/catalogs/KA.json'),
		'utf8',
	);

	it('holds exactly 120 distinct values', () => {
		const ka = getArticles('KA')!;
		expect(ka).toHaveLength(120);
		expect(new Set(ka).size).toBe(120);
		expect(JSON.parse(specText)).toEqual(ka);
	});

	it('keeps the values verbatim, odd spellings included', () => {
		const ka = getArticles('KA')!;
		expect(ka[0]).toBe('Acknowledge of a Debt - upto Rs.5000/-');
		expect(ka[119]).toBe('Bank Guarantee - If relating to e-bank guarantee');
		expect(ka).toContain('Acknowledgement of Letter, Article, Package, Parcel .....');
		expect(ka).toContain(
			'Securities of incorporated company of other body corporate submitted to clearing house office stock exchange recognized under the Securities Contract (regulartion) Act, 1956. - 5(c)(i)',
		);
		expect(ka).toContain(
			'Power of Attorney - for authorizing one or more person to act in a single transaction.',
		);
		expect(ka).toContain(
			'Transfer - property under section 25 of administrator generals act 1963.',
		);
		expect(ka).toContain('Administration Bond - Up to Rs.1000/-');
		expect(ka).toContain('Administration Bond - Upto Rs.1000/-');
	});

	it('holds the ambiguous lease row without the specification remark', () => {
		const ka = getArticles('KA')!;
		expect(ka).toContain(
			'Lease of Movable Property - Lease of movable property rent fixed, no premium',
		);
		expect(ka.some((v) => v.includes('ambiguous') || v.includes('30(2)(a)(i)'))).toBe(false);
	});

	it('returns a copy, and undefined for states without a catalog', () => {
		const a = getArticles('KA')!;
		a.pop();
		expect(getArticles('KA')).toHaveLength(120);
		for (const code of ESTAMP_STATE_CODES.filter((c) => c !== 'KA'))
			expect(getArticles(code)).toBeUndefined();
	});

	it('accepts every KA catalog value, including those that carry numbers', () => {
		for (const article of getArticles('KA')!) {
			expect(problems(EstampConfigSchema, config({ article }))).toEqual([]);
		}
		for (const article of [
			'Customs Bond or Excise Bond Art 23(b)',
			'Purchase or Sale of Government Securities - 37(c)',
			'Further charges Hypothecation of Movable property loan upto 10 Lakhs 34(d)(i)',
			'Surrender of Lease (Art 40b)',
			'Indemnity Bond (As per Article 47)',
		]) {
			expect(problems(EstampConfigSchema, config({ article }))).toEqual([]);
		}
	});

	it('rejects a KA value that is not exactly in the catalog', () => {
		expect(problems(EstampConfigSchema, config({ article: 'affidavit' }))).toEqual([
			'article: must be the exact KA catalog value "Affidavit" (capitalization, spacing and punctuation matter)',
		]);
		expect(problems(EstampConfigSchema, config({ article: 'Rent agreement' }))).toEqual([
			'article: must be an exact article value from the KA (Karnataka) catalog',
		]);
		// The remark of the specification is not part of the value.
		expect(
			problems(
				EstampConfigSchema,
				config({
					article:
						"Lease of Movable Property - Lease of movable property rent fixed, no premium (the catalog row for act reference 30(2)(a)(i), text 'upto 10 years', runs together with this row and the exact value of that row is ambiguous)",
				}),
			),
		).toHaveLength(1);
	});

	it('names the Stamp Act number when a KA value carries one', () => {
		for (const article of [
			'Article 5(b) - Affidavit',
			'Affidavit - Art 30',
			'Art. 4 Affidavit',
			'5(b) - Affidavit',
			'Affidavit (Article 4)',
		]) {
			expect(problems(EstampConfigSchema, config({ article }))).toEqual([
				'article: must not contain the Stamp Act article number; send the catalog value "Affidavit"',
			]);
		}
		expect(problems(EstampConfigSchema, config({ article: 'Art 30' }))[0]).toMatch(
			/only a Stamp Act article number/,
		);
	});
});

describe('article for states without a catalog', () => {
	it('accepts any non-empty instrument name', () => {
		for (const article of [
			'Rent Agreement',
			'Agreement (in any other cases)',
			'10 Years Lease',
			'Purchase - 37(c)',
		]) {
			expect(problems(EstampConfigSchema, config({ state: 'DL', article }))).toEqual([]);
		}
	});

	it('rejects an empty value, a leading Stamp Act number and a number alone', () => {
		expect(problems(EstampConfigSchema, config({ state: 'MH', article: '  ' }))).toEqual([
			'article: must not be empty',
		]);
		for (const article of [
			'Article 5(b) - Affidavit',
			'Art 30 Lease',
			'5(b) - Affidavit',
			'30: Lease',
			'Art. 12',
		]) {
			const lines = problems(EstampConfigSchema, config({ state: 'MH', article }));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/^article: .*Stamp Act article number/);
		}
	});

	it("accepts every value of the specification's KA catalog, trailing references included", () => {
		const refused = (getArticles('KA') ?? []).filter(
			(article) => problems(EstampConfigSchema, config({ state: 'MH', article })).length > 0,
		);
		expect(getArticles('KA')).toHaveLength(120);
		expect(refused).toEqual([]);
		for (const article of [
			'Customs Bond or Excise Bond Art 23(b)',
			'Indemnity Bond (As per Article 47)',
			'Surrender of Lease (Art 40b)',
			'Affidavit - Art 30',
		]) {
			expect(problems(EstampConfigSchema, config({ state: 'MH', article }))).toEqual([]);
		}
	});

	it('detects references only at the start', () => {
		expect(hasStampActNumber('Acknowledgement of Letter, Article, Package, Parcel .....')).toBe(
			false,
		);
		expect(hasStampActNumber('Letter of License - 1 year to 10 year')).toBe(false);
		expect(hasStampActNumber('Article 5(b) - Affidavit')).toBe(true);
		expect(hasStampActNumber('Affidavit - Art 30')).toBe(false);
		// "art" inside a word is not a reference.
		expect(hasStampActNumber('Lease - Part 3')).toBe(false);
		expect(hasStampActNumber('Smart 30 Agreement')).toBe(false);
	});
});

describe('e-stamp config', () => {
	it('applies payee and hardcopy defaults', () => {
		const parsed = EstampConfigSchema.parse(config());
		expect(parsed.payee).toBe('first-party');
		expect(parsed.hardcopy).toBe('n');
	});

	it('requires every mandatory field', () => {
		const lines = problems(EstampConfigSchema, {});
		for (const field of [
			'state',
			'article',
			'amount',
			'considerationAmount',
			'firstParty',
			'secondParty',
		]) {
			expect(lines).toContain(`${field}: Required`);
		}
	});

	it('checks the duty amount range per state', () => {
		expect(problems(EstampConfigSchema, config({ amount: '10' }))).toEqual([]);
		expect(problems(EstampConfigSchema, config({ amount: '10000000' }))).toEqual([]);
		expect(problems(EstampConfigSchema, config({ amount: '9' }))).toEqual([
			'amount: must be a whole number from 10 to 10000000 for state KA',
		]);
		expect(problems(EstampConfigSchema, config({ amount: '10000001' }))).toEqual([
			'amount: must be a whole number from 10 to 10000000 for state KA',
		]);
		expect(problems(EstampConfigSchema, config({ state: 'TN', amount: '10000001' }))).toEqual([
			"amount: must be a whole number from 10 to 10000000 for state TN (the specification's ceiling: the maximum of TN is not published, so a lower one is left to the service)",
		]);
		expect(problems(EstampConfigSchema, config({ amount: '12.5' }))[0]).toMatch(
			/^amount: must be a whole number/,
		);
		expect(problems(EstampConfigSchema, config({ amount: '-10' }))).toEqual([
			'amount: must be a whole number of rupees written as a string, such as "100"',
		]);
		expect(problems(EstampConfigSchema, config({ amount: 100 }))).toEqual([
			expect.stringMatching(/^amount: .*string/),
		]);
	});

	it('checks the consideration amount', () => {
		expect(problems(EstampConfigSchema, config({ considerationAmount: '0' }))).toEqual([]);
		expect(problems(EstampConfigSchema, config({ considerationAmount: '250000' }))).toEqual([]);
		for (const bad of ['-1', '1.5', '', '1e5']) {
			expect(problems(EstampConfigSchema, config({ considerationAmount: bad }))[0]).toMatch(
				/^considerationAmount: must be a non-negative whole number/,
			);
		}
	});

	it('checks payee and hardcopy enums', () => {
		expect(problems(EstampConfigSchema, config({ payee: 'second-party' }))).toEqual([]);
		expect(problems(EstampConfigSchema, config({ payee: 'third-party' }))).toEqual([
			expect.stringMatching(/^payee: .*["']first-party["'].*["']second-party["']/),
		]);
		expect(problems(EstampConfigSchema, config({ hardcopy: 'yes' }))).toEqual([
			expect.stringMatching(/^hardcopy: .*["']n["'].*["']y["']/),
		]);
	});

	it('checks the parties', () => {
		expect(
			problems(
				EstampConfigSchema,
				config({ firstParty: { ...party('Asha Rao'), mobile: '9876543210' } }),
			),
		).toEqual([]);
		expect(
			problems(EstampConfigSchema, config({ firstParty: { ...party('Asha Rao'), email: 'nope' } })),
		).toEqual(['firstParty.email: Invalid email']);
		expect(
			problems(
				EstampConfigSchema,
				config({ firstParty: { ...party('Asha Rao'), mobile: '+919876543210' } }),
			),
		).toEqual(['firstParty.mobile: must be a 10-digit mobile number']);
		expect(
			problems(EstampConfigSchema, config({ secondParty: { ...party('Asha Rao'), address: '' } })),
		).toContain('secondParty.address: is required');
	});

	it('requires different legal names (trimmed, case-insensitive)', () => {
		expect(
			problems(
				EstampConfigSchema,
				config({ secondParty: { ...party('Vikram Shetty'), name: '  asha RAO ' } }),
			),
		).toEqual([
			'secondParty.name: must differ from firstParty.name (the two legal names must be different)',
		]);
	});

	it('requires a valid shipping address when a hard copy is ordered', () => {
		const shipping = {
			name: 'Asha Rao',
			address: '1 MG Road',
			city: 'Bengaluru',
			state: 'Karnataka',
			pincode: '560001',
			mobile: '9876543210',
		};
		expect(problems(EstampConfigSchema, config({ hardcopy: 'y' }))).toEqual([
			"shipping: is required when hardcopy is 'y'",
		]);
		expect(problems(EstampConfigSchema, config({ hardcopy: 'y', shipping }))).toEqual([]);
		expect(
			problems(
				EstampConfigSchema,
				config({ hardcopy: 'y', shipping: { ...shipping, state: 'KA' } }),
			),
		).toEqual([
			'shipping.state: must be the full state name (such as "Karnataka"), not a two-letter code',
		]);
		expect(
			problems(
				EstampConfigSchema,
				config({ hardcopy: 'y', shipping: { ...shipping, state: 'Gondor' } }),
			)[0],
		).toMatch(/^shipping.state: must be the full name of an Indian state/);
		expect(
			problems(
				EstampConfigSchema,
				config({ hardcopy: 'y', shipping: { ...shipping, pincode: '56001' } }),
			),
		).toEqual(['shipping.pincode: must be a 6-digit PIN code']);
		expect(
			problems(
				EstampConfigSchema,
				config({ hardcopy: 'y', shipping: { ...shipping, mobile: '98765' } }),
			),
		).toEqual(['shipping.mobile: must be a 10-digit mobile number']);
		expect(
			problems(EstampConfigSchema, config({ hardcopy: 'y', shipping: { ...shipping, city: '' } })),
		).toEqual(['shipping.city: is required']);
	});

	it('is required complete inside workflow settings when e-stamping is on', () => {
		expect(problems(SigningSettingsSchema, { estampEnabled: true })).toEqual([
			'estampConfig: is required (complete) when estampEnabled is true',
		]);
		expect(
			problems(SigningSettingsSchema, { estampEnabled: true, estampConfig: config() }),
		).toEqual([]);
		expect(
			problems(SigningSettingsSchema, { estampEnabled: true, estampConfig: { state: 'KA' } }),
		).toContain('estampConfig.article: Required');
		expect(problems(SigningSettingsSchema, { estampEnabled: false })).toEqual([]);
	});
});
