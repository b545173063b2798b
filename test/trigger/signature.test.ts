/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { createHmac } from 'crypto';

import {
	computeSignature,
	parseSignatureHeader,
} from '../../nodes/DocumentSigningTrigger/hmacSchemes';
import type {
	SignatureAlgorithm,
	SignatureEncoding,
} from '../../nodes/DocumentSigningTrigger/scheme';
import { verifySignature } from '../../nodes/DocumentSigningTrigger/signature';
import { sampleEvents, type SampleEvent } from './events';

const SECRET = 'whsec_3f9c1a7e5b2d4c6e8a0b1c2d3e4f5a6b';
const OLD_SECRET = 'whsec_old_0123456789abcdef0123456789abcdef';

function hmac(
	body: Buffer,
	secret = SECRET,
	alg = 'sha256',
	enc: 'hex' | 'base64' = 'hex',
): string {
	return createHmac(alg, secret).update(body).digest(enc);
}

/** JSON with the same meaning as `raw` but other bytes, as a proxy or framework might re-emit it. */
function reserialise(sample: SampleEvent, variant: number): Buffer {
	const obj = JSON.parse(sample.raw.toString('utf8'));
	const reorder = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(reorder);
		if (value && typeof value === 'object') {
			return Object.fromEntries(
				Object.entries(value as Record<string, unknown>)
					.reverse()
					.map(([k, v]) => [k, reorder(v)]),
			);
		}
		return value;
	};
	const escapeUnicode = (text: string) =>
		text
			.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
			.replace(/\//g, '\\/');
	const variants = [
		() => JSON.stringify(obj, null, 2),
		() => JSON.stringify(reorder(obj)),
		() => escapeUnicode(JSON.stringify(obj)),
		() => JSON.stringify(obj).replace(/":/g, '": ').replace(/,"/g, ', "'),
		() => `${JSON.stringify(obj)}\n`,
	];
	// Start at the chosen variant and take the first one whose bytes differ.
	for (let k = 0; k < variants.length; k++) {
		const text = variants[(variant + k) % variants.length]();
		const bytes = Buffer.from(text, 'utf8');
		if (!bytes.equals(sample.raw)) return bytes;
	}
	throw new Error('no re-serialisation differs from the original bytes');
}

function flipHexChar(sig: string, at: number): string {
	const i = at % sig.length;
	const c = sig[i];
	const replacement = c === '0' ? '1' : '0';
	return sig.slice(0, i) + replacement + sig.slice(i + 1);
}

interface Forgery {
	kind: string;
	rawBody: Buffer | undefined;
	header: string | string[] | undefined;
}

const FORGERY_KINDS = [
	'wrong secret',
	'flipped body byte',
	'truncated body',
	're-serialised body',
	'missing header',
	'wrong encoding',
	'wrong algorithm',
	'flipped signature char',
	'empty signature',
	'prefix names another algorithm',
] as const;

function forge(kind: (typeof FORGERY_KINDS)[number], sample: SampleEvent, n: number): Forgery {
	const raw = sample.raw;
	switch (kind) {
		case 'wrong secret':
			return { kind, rawBody: raw, header: hmac(raw, n % 2 ? OLD_SECRET : `${SECRET}x`) };
		case 'flipped body byte': {
			const body = Buffer.from(raw);
			const at = (n * 7919) % body.length;
			body[at] ^= 1 << n % 8;
			return { kind, rawBody: body, header: hmac(raw) };
		}
		case 'truncated body':
			return { kind, rawBody: raw.subarray(0, raw.length - 1 - (n % 20)), header: hmac(raw) };
		case 're-serialised body': {
			const body = reserialise(sample, n);
			// Same meaning, other bytes: exactly what must not be accepted.
			expect(JSON.parse(body.toString('utf8'))).toEqual(JSON.parse(raw.toString('utf8')));
			expect(body.equals(raw)).toBe(false);
			return { kind, rawBody: body, header: hmac(raw) };
		}
		case 'missing header':
			return { kind, rawBody: raw, header: n % 2 ? undefined : [] };
		case 'wrong encoding':
			// Base64 where hex is expected; the hex case against a base64 receiver is below.
			return { kind, rawBody: raw, header: hmac(raw, SECRET, 'sha256', 'base64') };
		case 'wrong algorithm':
			return { kind, rawBody: raw, header: hmac(raw, SECRET, n % 2 ? 'sha512' : 'sha1') };
		case 'flipped signature char':
			return { kind, rawBody: raw, header: flipHexChar(hmac(raw), n * 13) };
		case 'empty signature':
			return { kind, rawBody: raw, header: ['', ' ', ' , ', 'sha256='][n % 4] };
		case 'prefix names another algorithm':
			return { kind, rawBody: raw, header: `${n % 2 ? 'sha512' : 'sha1'}=${hmac(raw)}` };
	}
}

describe('webhook signature verification', () => {
	const samples = sampleEvents(300);

	it('refuses 1000 forged deliveries built from 300 event bodies', () => {
		const refusedByKind: Record<string, number> = {};
		let refused = 0;
		let accepted = 0;
		for (let n = 0; n < 1000; n++) {
			const kind = FORGERY_KINDS[n % FORGERY_KINDS.length];
			const sample = samples[n % samples.length];
			const forgery = forge(kind, sample, Math.floor(n / FORGERY_KINDS.length));
			const result = verifySignature({
				rawBody: forgery.rawBody,
				header: forgery.header,
				secret: SECRET,
			});
			if (result.ok) {
				accepted++;
			} else {
				refused++;
				refusedByKind[kind] = (refusedByKind[kind] ?? 0) + 1;
			}
		}
		expect(accepted).toBe(0);
		expect(refused).toBe(1000);
		for (const kind of FORGERY_KINDS) expect(refusedByKind[kind]).toBe(100);
	});

	it('refuses hex signatures when base64 is configured, and SHA-256 when SHA-512 is configured', () => {
		let refused = 0;
		for (const sample of samples.slice(0, 100)) {
			const hexToBase64 = verifySignature({
				rawBody: sample.raw,
				header: hmac(sample.raw),
				secret: SECRET,
				encoding: 'base64',
			});
			const sha256To512 = verifySignature({
				rawBody: sample.raw,
				header: hmac(sample.raw),
				secret: SECRET,
				algorithm: 'sha512',
			});
			if (!hexToBase64.ok) refused++;
			if (!sha256To512.ok) refused++;
		}
		expect(refused).toBe(200);
	});

	it('accepts every genuine delivery in each accepted form', () => {
		const forms: Array<{
			name: string;
			header: (raw: Buffer) => string | string[];
			algorithm?: SignatureAlgorithm;
			encoding?: SignatureEncoding;
			secret?: string | string[];
		}> = [
			{ name: 'plain hex', header: (raw) => hmac(raw) },
			{ name: 'sha256= prefix', header: (raw) => `sha256=${hmac(raw)}` },
			{ name: 'SHA256= prefix, spaces', header: (raw) => ` SHA256= ${hmac(raw)} ` },
			{ name: 'uppercase hex', header: (raw) => hmac(raw).toUpperCase() },
			{
				name: 'rotation list, good one second',
				header: (raw) => `${hmac(raw, OLD_SECRET)},${hmac(raw)}`,
			},
			{
				name: 'rotation list, prefixed',
				header: (raw) => `sha256=${hmac(raw, OLD_SECRET)}, sha256=${hmac(raw)}`,
			},
			{ name: 'header repeated', header: (raw) => [hmac(raw, OLD_SECRET), hmac(raw)] },
			{
				name: 'receiver with two secrets',
				header: (raw) => hmac(raw),
				secret: [OLD_SECRET, SECRET],
			},
			{
				name: 'base64',
				header: (raw) => hmac(raw, SECRET, 'sha256', 'base64'),
				encoding: 'base64',
			},
			{ name: 'sha512 hex', header: (raw) => hmac(raw, SECRET, 'sha512'), algorithm: 'sha512' },
			{
				name: 'sha1 base64 prefixed',
				header: (raw) => `sha1=${hmac(raw, SECRET, 'sha1', 'base64')}`,
				algorithm: 'sha1',
				encoding: 'base64',
			},
		];
		let accepted = 0;
		for (const form of forms) {
			for (const sample of samples) {
				const result = verifySignature({
					rawBody: sample.raw,
					header: form.header(sample.raw),
					secret: form.secret ?? SECRET,
					algorithm: form.algorithm,
					encoding: form.encoding,
				});
				if (!result.ok) throw new Error(`${form.name} refused: ${result.reason}`);
				accepted++;
			}
		}
		expect(accepted).toBe(forms.length * samples.length);
	});

	it('computeSignature matches a plain HMAC of the bytes', () => {
		const raw = samples[0].raw;
		expect(computeSignature(raw, SECRET)).toBe(hmac(raw));
		expect(computeSignature(raw, SECRET, 'sha512', 'base64')).toBe(
			hmac(raw, SECRET, 'sha512', 'base64'),
		);
	});

	it('gives a reason without echoing the signature or the secret', () => {
		const raw = samples[1].raw;
		const cases = [
			[
				verifySignature({ rawBody: undefined, header: hmac(raw), secret: SECRET }),
				'missing_raw_body',
			],
			[verifySignature({ rawBody: raw, header: undefined, secret: SECRET }), 'missing_signature'],
			[
				verifySignature({ rawBody: raw, header: 'not-a-signature!', secret: SECRET }),
				'malformed_signature',
			],
			[
				verifySignature({ rawBody: raw, header: `sha512=${hmac(raw)}`, secret: SECRET }),
				'algorithm_mismatch',
			],
			[
				verifySignature({ rawBody: raw, header: hmac(raw, OLD_SECRET), secret: SECRET }),
				'mismatch',
			],
			[verifySignature({ rawBody: raw, header: hmac(raw), secret: '' }), 'no_secret'],
		] as const;
		for (const [result, reason] of cases) {
			expect(result).toEqual({ ok: false, reason });
			expect(JSON.stringify(result)).not.toContain(SECRET);
			expect(JSON.stringify(result)).not.toContain(hmac(raw).slice(0, 16));
		}
	});

	it('parses prefixes only for hash names and v1, so base64 padding is not taken for one', () => {
		expect(parseSignatureHeader('sha256=abc, def==')).toEqual([
			{ prefix: 'sha256', value: 'abc' },
			{ value: 'def==' },
		]);
		expect(parseSignatureHeader('v1=abc')).toEqual([{ prefix: 'v1', value: 'abc' }]);
		expect(parseSignatureHeader('x1=abc')).toEqual([{ value: 'x1=abc' }]);
		expect(parseSignatureHeader(undefined)).toEqual([]);
	});
});
