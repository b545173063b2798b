/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
/**
 * IPv4 addresses carried inside IPv6 are judged by the IPv4 address they carry, in every form
 * a translator reads: mapped (::ffff:0:0/96), SIIT (::ffff:0:0:0/96, written ::ffff:0:a.b.c.d),
 * IPv4-compatible, NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48 at each prefix length
 * RFC 6052 allows in it), 6to4. Node's own `net.BlockList` (what n8n's network package uses,
 * and what a community node may not import) is the second reading of the ranges here.
 */
import { BlockList, isIPv4 } from 'net';

import { type AddressClass, classifyHost, classifyIp } from '../../nodes/shared/guard/addressGuard';
import { errorOf, useProbeHarness } from '../transport/setup';

const octets = (v4: string) => v4.split('.').map(Number);
const hex = (high: number, low: number) => ((high << 8) | low).toString(16);

/** The IPv6 forms that carry `v4` in their last 32 bits. */
function tailForms(v4: string): Record<string, string> {
	const [a, b, c, d] = octets(v4);
	const tail = `${hex(a, b)}:${hex(c, d)}`;
	return {
		mapped: `::ffff:${tail}`,
		siit: `::ffff:0:${tail}`,
		nat64: `64:ff9b::${tail}`,
		'local-use nat64 /96': `64:ff9b:1::${tail}`,
		'local-use nat64 /96 at 64:ff9b:1:fffe::': `64:ff9b:1:fffe::${tail}`,
	};
}

/**
 * `v4` in the local-use prefix 64:ff9b:1::/48 at the places RFC 6052 gives it for prefix
 * lengths 48, 56 and 64 (bits 64 to 71 stay zero).
 */
function localUseForms(v4: string): Record<string, string> {
	const [a, b, c, d] = octets(v4);
	return {
		'/48': `64:ff9b:1:${hex(a, b)}:${hex(0, c)}:${hex(d, 0)}::`,
		'/56': `64:ff9b:1:${hex(0xab, a)}:${hex(0, b)}:${hex(c, d)}::`,
		'/64': `64:ff9b:1:ab:${hex(0, a)}:${hex(b, c)}:${hex(d, 0)}:0`,
	};
}

/** The ranges the guard documents, in Node's own reading. */
const RANGES: Array<[string, number, AddressClass]> = [
	['169.254.0.0', 16, 'metadata'],
	['0.0.0.0', 8, 'unspecified'],
	['127.0.0.0', 8, 'loopback'],
	['10.0.0.0', 8, 'private'],
	['172.16.0.0', 12, 'private'],
	['192.168.0.0', 16, 'private'],
	['100.64.0.0', 10, 'private'],
	['192.0.0.0', 24, 'private'],
	['198.18.0.0', 15, 'private'],
	['224.0.0.0', 3, 'reserved'],
];
const METADATA_V4 = ['100.100.100.200', '192.0.0.192'];

function classByBlockList(v4: string): AddressClass {
	if (METADATA_V4.includes(v4)) return 'metadata';
	for (const [network, prefix, kind] of RANGES) {
		const list = new BlockList();
		list.addSubnet(network, prefix, 'ipv4');
		if (list.check(v4, 'ipv4')) return kind;
	}
	return 'public';
}

/** Addresses at the edges of every range, and a spread of others (a fixed seed: repeatable). */
function sampleV4(): string[] {
	const out = new Set<string>(['8.8.8.8', '1.10.5.6', '93.184.216.34', ...METADATA_V4]);
	for (const [network, prefix] of RANGES) {
		const base = octets(network).reduce((n, o) => n * 256 + o, 0);
		const size = 2 ** (32 - prefix);
		for (const n of [base - 1, base, base + 1, base + size - 1, base + size])
			if (n >= 0 && n < 2 ** 32) out.add([24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.'));
	}
	let seed = 41;
	for (let n = 0; n < 400; n++) {
		seed = (seed * 1103515245 + 12345) % 2 ** 31;
		out.add([24, 16, 8, 0].map((s) => ((seed * 7919) >>> s) & 255).join('.'));
	}
	return [...out].filter((v4) => isIPv4(v4));
}

const SAMPLE = sampleV4();

describe('the IPv4 classes agree with net.BlockList', () => {
	it(`for ${SAMPLE.length} addresses at the edges of every range and between`, () => {
		const disagree = SAMPLE.filter((v4) => classifyIp(v4) !== classByBlockList(v4));
		expect(disagree).toEqual([]);
	});
});

describe('an IPv4 address in the last 32 bits is judged by that address', () => {
	it.each(Object.keys(tailForms('8.8.8.8')))('%s', (form) => {
		const wrong = SAMPLE.map((v4) => [v4, tailForms(v4)[form]])
			.filter(([v4, v6]) => classifyIp(v6) !== classByBlockList(v4))
			.map(([v4, v6]) => `${v6} (${v4}): ${classifyIp(v6)}`);
		expect(wrong).toEqual([]);
	});

	it('as the URL parser writes them: ::ffff:0:127.0.0.1 and 64:ff9b:1::169.254.169.254', () => {
		const host = (url: string) => classifyHost(new URL(url).hostname);
		expect(new URL('http://[::ffff:0:127.0.0.1]/').hostname).toBe('[::ffff:0:7f00:1]');
		expect(host('http://[::ffff:0:127.0.0.1]/a.pdf')).toBe('loopback');
		expect(host('http://[64:ff9b:1::169.254.169.254]/a.pdf')).toBe('metadata');
		expect(host('http://[64:ff9b:1::10.0.0.5]/a.pdf')).toBe('private');
		expect(host('http://[64:ff9b:1::8.8.8.8]/a.pdf')).toBe('public');
	});
});

describe('the local-use NAT64 prefix at prefix lengths 48, 56 and 64', () => {
	const INTERNAL: AddressClass[] = ['metadata', 'loopback', 'private'];
	it.each(['/48', '/56', '/64'])(
		'%s: an internal IPv4 address is never taken for public',
		(length) => {
			const wrong = SAMPLE.filter((v4) => INTERNAL.includes(classByBlockList(v4)))
				.map((v4) => [v4, localUseForms(v4)[length]])
				.filter(([, v6]) => classifyIp(v6) === 'public')
				.map(([v4, v6]) => `${v6} (${v4})`);
			expect(wrong).toEqual([]);
		},
	);

	it.each(['/48', '/56', '/64'])('%s: the metadata address is a metadata address', (length) => {
		expect(classifyIp(localUseForms('169.254.169.254')[length])).toBe('metadata');
		expect(classifyIp(localUseForms('127.0.0.1')[length])).toBe('loopback');
	});
});

describe('a PDF URL whose name resolves into these prefixes', () => {
	const { probe } = useProbeHarness();

	it.each([
		['::ffff:0:7f00:1', /loopback address \(this machine\) \(::ffff:0:7f00:1\)/],
		['64:ff9b:1::7f00:1', /loopback address \(this machine\) \(64:ff9b:1::7f00:1\)/],
		['64:ff9b:1:a9fe:a9:fe00::', /link-local or cloud metadata address.*which is never fetched/],
	])('%s is refused before any connection', async (address, said) => {
		const error = errorOf(
			await probe('fetchGuarded', {
				url: 'http://files.example.test/a.pdf',
				hosts: { 'files.example.test': address },
			}),
		);
		expect(error.message).toMatch(said);
	});
});
