/** Every guessed endpoint path is stated in the assumptions table (and so in docs/assumptions.md). */
import { ASSUMPTIONS } from '../../nodes/shared/assumptions';
import { apiPath, ENDPOINTS, GUESSED_ENDPOINTS, routePattern } from '../../nodes/shared/endpoints';

describe('endpoint table', () => {
	const guesses = ASSUMPTIONS.map((a) => a.guess.replace(/\{\w+\}/g, '{id}'));

	it.each(GUESSED_ENDPOINTS.map((g) => [`${g.method} ${ENDPOINTS[g.endpoint]}`, g]))('%s is in the assumptions table', (_name, g) => {
		const stated = `\`${g.method} ${ENDPOINTS[g.endpoint].replace(/\{\w+\}/g, '{id}')}`;
		expect(guesses.some((guess) => guess.includes(stated))).toBe(true);
	});

	it('fills path parameters encoded, and gives express routes', () => {
		expect(apiPath('templateCopies', 'tpl 1/x')).toBe('/templates/tpl%201%2Fx/copies');
		expect(routePattern('envelopeEstampCheck')).toBe('/envelopes/:envelopeId/estamp/check');
		expect(() => apiPath('template')).toThrow('template takes 1 path parameter(s), got 0');
	});
});
