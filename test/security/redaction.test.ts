/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key, the test looks for its fragments */
/**
 * The API key in an error answer is replaced before the answer is cut for the message: a key
 * straddling the cut leaves no fragment, wherever the cut falls in it.
 */
import type { INode } from 'n8n-workflow';

import { apiResponseError, malformedResponseError } from '../../nodes/shared/http/errors';

const node: INode = {
	id: 'n',
	name: 'Document Signing',
	type: 'n8n-nodes-document-signing.documentSigning',
	typeVersion: 1.1,
	position: [0, 0],
	parameters: {},
};

// Characters the filler never holds, so any fragment of two or more is the key's.
const KEY = 'sk_live_Q7wZ3rT9vB2nM5kP8xC4jH6gF1dS0aLeUyIo';
const FILLER = '.';

/** Every piece of the key of `min` characters or more that appears in `text`. */
function fragments(text: string, min = 3): string[] {
	const found: string[] = [];
	for (let length = min; length <= KEY.length; length++) {
		for (let start = 0; start + length <= KEY.length; start++) {
			const piece = KEY.slice(start, start + length);
			if (text.includes(piece)) found.push(piece);
		}
	}
	return found;
}

const textOf = (error: { message: string; description?: string | null }) =>
	`${error.message}\n${error.description ?? ''}`;

describe('secrets are redacted before any cut', () => {
	// Cut at 300 characters (non-JSON error body): the key starts so that the cut falls after
	// each of its characters in turn, 0 to all of them.
	it.each(Array.from({ length: KEY.length + 1 }, (_, kept) => kept))(
		'error answer, %i key characters before the cut',
		(kept) => {
			const body = `${FILLER.repeat(300 - kept)}${KEY}${FILLER.repeat(50)}`;
			const error = apiResponseError(node, 500, body, KEY);
			expect(fragments(textOf(error))).toEqual([]);
			expect(textOf(error)).toMatch(/Response: \.+/);
		},
	);

	it.each(Array.from({ length: KEY.length + 1 }, (_, kept) => kept))(
		'malformed answer, %i key characters before the cut',
		(kept) => {
			const body = `${FILLER.repeat(120 - kept)}${KEY}${FILLER.repeat(50)}`;
			const error = malformedResponseError(node, 200, body, KEY);
			expect(fragments(textOf(error))).toEqual([]);
		},
	);

	it('a key inside a JSON error answer is replaced in every field', () => {
		const body = JSON.stringify({
			code: 'UNAUTHORIZED',
			message: `bad key ${KEY}`,
			details: { echo: KEY },
		});
		const error = apiResponseError(node, 401, body, KEY);
		expect(fragments(JSON.stringify({ ...error, text: textOf(error) }))).toEqual([]);
		expect(error.message).toBe('UNAUTHORIZED: bad key [redacted]');
	});
});
