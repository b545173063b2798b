/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- made-up secrets, the test looks for their encoded forms; test code, not published */
/**
 * The API key and the webhook secret are redacted in the forms a service may echo them:
 * base64 (also inside a longer base64 text such as a Basic header, at each of the three byte
 * alignments), base64url and hex (lower and upper case), before any cut of the text.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { INode } from 'n8n-workflow';

import { apiResponseError, malformedResponseError } from '../../nodes/shared/http/errors';
import { errorOf, useProbeHarness } from '../transport/setup';

const node: INode = {
	id: 'n',
	name: 'Document Signing',
	type: 'n8n-nodes-document-signing.documentSigning',
	typeVersion: 1.1,
	position: [0, 0],
	parameters: {},
};

// `~>?` makes base64 and base64url differ (their `/` and `_`).
const KEY = 'sk_live_Q7wZ3rT9vB2nM5kP8xC4jH6g~>?F1dS0aLeUy';
const WEBHOOK_SECRET = 'whsec_Zq4Xv8Lm2Np6Rt0Wy3Bc7Df1Gh5Jk9';
const SECRETS = [KEY, WEBHOOK_SECRET];
const FILLER = '.'; // never part of base64, base64url or hex

/**
 * Each encoded form of a secret as a service could echo it, and the part of it that only the
 * secret's bytes decide (a base64 character can mix bits of the text around the secret).
 */
function forms(secret: string): Array<{ form: string; encoded: string; secretPart: string }> {
	const bytes = Buffer.from(secret, 'utf8');
	const base64Within = (before: string) => {
		const encoded = Buffer.from(`${before}${secret}`).toString('base64');
		const from = Math.ceil((before.length * 8) / 6);
		const to = Math.floor(((before.length + bytes.length) * 8) / 6);
		return { encoded, secretPart: encoded.slice(from, to) };
	};
	const whole = (encoded: string) => ({ encoded, secretPart: encoded });
	return [
		{ form: 'base64', ...whole(bytes.toString('base64')) },
		{ form: 'base64 inside "Bearer <key>"', ...base64Within('Bearer ') },
		{ form: 'base64 inside a Basic header "x:<key>"', ...base64Within('x:') },
		{ form: 'base64url', ...whole(bytes.toString('base64url')) },
		{ form: 'hex', ...whole(bytes.toString('hex')) },
		{ form: 'HEX', ...whole(bytes.toString('hex').toUpperCase()) },
	];
}

const CASES = SECRETS.flatMap((secret) =>
	forms(secret).map(({ form, encoded, secretPart }) => ({
		name: `${secret === KEY ? 'API key' : 'webhook secret'} as ${form}`,
		encoded,
		secretPart,
	})),
);

/** Pieces of `encoded` of `min` characters or more found in `text` (the filler holds none). */
function leaked(text: string, encoded: string, min = 6): string[] {
	const found: string[] = [];
	for (let start = 0; start + min <= encoded.length; start++) {
		const piece = encoded.slice(start, start + min);
		if (text.includes(piece)) found.push(piece);
	}
	return found;
}

const textOf = (error: { message: string; description?: string | null }) =>
	`${error.message}\n${error.description ?? ''}`;

it('the key used here has a base64 form that differs from its base64url form', () => {
	expect(Buffer.from(KEY).toString('base64')).not.toBe(Buffer.from(KEY).toString('base64url'));
});

describe.each(CASES)('$name', ({ encoded, secretPart }) => {
	// Where the cut (300 characters, non-JSON error answer) falls in the encoded secret.
	const keptCounts = [0, 1, Math.floor(encoded.length / 2), encoded.length - 1, encoded.length];

	it.each(keptCounts)('error answer, %i characters of it before the cut', (kept) => {
		const body = `${FILLER.repeat(300 - kept)}${encoded}${FILLER.repeat(50)}`;
		const error = apiResponseError(node, 500, body, SECRETS);
		expect(leaked(textOf(error), secretPart)).toEqual([]);
		expect(textOf(error)).toMatch(/Response: \.+/);
	});

	it.each(keptCounts)('malformed answer, %i characters of it before the cut', (kept) => {
		const body = `${FILLER.repeat(120 - kept)}${encoded}${FILLER.repeat(50)}`;
		const error = malformedResponseError(node, 200, body, SECRETS);
		expect(leaked(textOf(error), secretPart)).toEqual([]);
	});

	it('in every field of a JSON error answer', () => {
		const body = JSON.stringify({
			code: 'UNAUTHORIZED',
			message: `bad key ${encoded}`,
			details: { echo: encoded },
		});
		const error = apiResponseError(node, 401, body, SECRETS);
		expect(leaked(JSON.stringify({ ...error, text: textOf(error) }), secretPart)).toEqual([]);
		expect(error.message).toMatch(/^UNAUTHORIZED: bad key .*\[redacted\]/);
	});
});

describe('over HTTP: a service echoing the encoded key and webhook secret', () => {
	const { probe } = useProbeHarness();
	const echoes = CASES.map((c) => c.encoded);
	const server = http.createServer((_req, res) => {
		res.writeHead(500, { 'content-type': 'text/plain' }).end(`echo ${echoes.join(' ')}`);
	});
	beforeAll(async () => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	it('the error the workflow sees holds none of them', async () => {
		const { port } = server.address() as AddressInfo;
		const error = errorOf(
			await probe('request', { method: 'POST', endpoint: '/envelopes' }, undefined, {
				baseUrl: `http://127.0.0.1:${port}/api/v1`,
				apiKey: KEY,
				webhookSecret: WEBHOOK_SECRET,
			}),
		);
		expect(error.message).toBe('The service answered HTTP 500');
		const text = JSON.stringify({ ...error, text: textOf(error) });
		for (const { name, secretPart } of CASES)
			expect([name, leaked(text, secretPart)]).toEqual([name, []]);
	});
});
