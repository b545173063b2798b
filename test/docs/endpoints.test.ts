/** Every guessed endpoint path is stated in the assumptions table (and so in docs/assumptions.md). */
import { ASSUMPTIONS } from '../../nodes/shared/api/assumptions';
import { apiPath, ENDPOINTS, GUESSED_ENDPOINTS } from '../../nodes/shared/api/endpoints';
import { type GuessedEndpoint, GUESSED_PATHS } from '../../nodes/shared/api/pathSettings';
import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';

describe('endpoint table', () => {
	const guesses = ASSUMPTIONS.map((a) => a.guess.replace(/\{\w+\}/g, '{id}'));

	it.each(GUESSED_ENDPOINTS.map((g) => [`${g.method} ${ENDPOINTS[g.endpoint]}`, g]))(
		'%s is in the assumptions table',
		(_name, g) => {
			const stated = `\`${g.method} ${ENDPOINTS[g.endpoint].replace(/\{\w+\}/g, '{id}')}`;
			expect(guesses.some((guess) => guess.includes(stated))).toBe(true);
		},
	);

	it('every guessed path can be changed in the credential; its default is the guess', () => {
		const credential = new DocumentSigningApi();
		for (const { endpoint } of GUESSED_ENDPOINTS) {
			const setting = GUESSED_PATHS[endpoint as GuessedEndpoint];
			expect(setting).toBeDefined();
			const field = credential.properties.find((p) => p.name === setting.field);
			expect(field).toMatchObject({
				displayName: setting.label,
				type: 'string',
				default: ENDPOINTS[endpoint],
			});
		}
		// The block comes after the fields every credential had (base URL, key, secret).
		const names = credential.properties.map((p) => p.name);
		const firstGuessed = Math.min(
			...Object.values(GUESSED_PATHS).map((setting) => names.indexOf(setting.field)),
		);
		for (const name of ['baseUrl', 'apiKey', 'webhookSecret'])
			expect(names.indexOf(name)).toBeLessThan(firstGuessed);
		expect(typeof credential.authenticate).toBe('function');
	});

	it('fills path parameters encoded', () => {
		expect(apiPath('templateCopies', 'tpl 1/x')).toBe('/templates/tpl%201%2Fx/copies');
		expect(() => apiPath('template')).toThrow('template takes 1 path parameter(s), got 0');
	});
});
