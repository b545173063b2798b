/**
 * The address guard: which hosts the node may fetch, for every address besides the API
 * Base URL (a PDF URL, the service's presigned upload and download addresses), and the one
 * classification of addresses the Base URL check (baseUrl.ts) also uses.
 *
 * - Link-local and cloud metadata addresses are never fetched: they answer anyone on the
 *   machine and hand out its cloud keys. Multicast and reserved ranges neither.
 * - An address a user, mapped data or an AI agent supplies (rule `user`) may not be
 *   loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10), unique-local (fc00::/7) or
 *   unspecified unless the node's Allow Internal Addresses option is on.
 * - An address the configured service returns (rule `service`) may be any other address:
 *   a service on a private network hands out private storage addresses.
 *
 * Literal addresses are read after the URL parser has normalised them (2130706433,
 * 0x7f000001 and 0177.0.0.1 all become 127.0.0.1; IPv4 inside IPv6 is unwrapped). The ranges
 * are written out here rather than read with Node's `net.BlockList` (as n8n's own network
 * package does): a community node may import only `crypto` of Node's modules; the tests check
 * these classes against `net.BlockList` (test/security/embedded-ipv4.test.ts). Host names
 * are resolved once (n8n's lookup for nodes) and every address they resolve to is checked;
 * the request then goes to the checked address itself (pinTarget), so a second answer of the
 * name server cannot move it elsewhere.
 */

export type AddressClass =
	| 'metadata'
	| 'reserved'
	| 'loopback'
	| 'private'
	| 'unique-local'
	| 'unspecified'
	| 'public';

export type AddressRule = 'user' | 'service';

export interface GuardPolicy {
	rule: AddressRule;
	/** Rule `user` only: loopback, private, unique-local and unspecified are allowed. */
	allowInternal?: boolean;
}

export interface ResolvedAddress {
	address: string;
	family: number;
}

/** Resolves a host name to all its addresses (n8n's lookup in the node, a fake in tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Host names of cloud metadata services (lower case, no trailing dot). */
const METADATA_NAMES = new Set([
	'metadata',
	'metadata.google.internal',
	'metadata.goog',
	'metadata.azure.internal',
	'instance-data',
	'instance-data.ec2.internal',
	'metadata.tencentyun.com',
	'metadata.platformequinix.com',
]);

/** Metadata services that live outside 169.254.0.0/16 (Alibaba, Oracle's older address). */
const METADATA_IPV4 = new Set(['100.100.100.200', '192.0.0.192']);

/** The URL parser's host without IPv6 brackets and without a trailing dot. */
export function bareHost(hostname: string): string {
	return hostname
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.toLowerCase();
}

/** The four numbers of a dotted IPv4 address, or undefined. */
function ipv4Parts(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((p) => p <= 255) ? parts : undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(host: string): number[] | undefined {
	if (!host.includes(':')) return undefined;
	let text = host.replace(/%.*$/, '');
	const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
	if (tail) {
		const v4 = ipv4Parts(tail[1]);
		if (!v4) return undefined;
		text = `${text.slice(0, -tail[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
	}
	if (text.split('::').length > 2) return undefined;
	const [head, rest] = text.split('::');
	const read = (part: string | undefined) =>
		part ? part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : [];
	const front = read(head);
	const back = read(rest);
	const groups = text.includes('::')
		? [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill(0), ...back]
		: front;
	return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : undefined;
}

const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];

/**
 * An IPv4 address carried in IPv6 in its last 32 bits: mapped (::ffff:0:0/96), SIIT
 * (::ffff:0:0:0/96), IPv4-compatible, NAT64 (64:ff9b::/96); or in 6to4 (2002::/16).
 */
function embeddedIpv4(groups: number[]): number[] | undefined {
	const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
	if (zeros(0, 5) && groups[5] === 0xffff) return quad(groups[6], groups[7]);
	if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return quad(groups[6], groups[7]);
	if (zeros(0, 6) && (groups[6] !== 0 || groups[7] > 1)) return quad(groups[6], groups[7]);
	if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6], groups[7]);
	if (groups[0] === 0x2002) return quad(groups[1], groups[2]);
	return undefined;
}

/** Classes from the most to the least guarded: of several readings of one address, the first wins. */
const STRICTEST_FIRST: AddressClass[] = [
	'metadata',
	'reserved',
	'loopback',
	'private',
	'unique-local',
	'unspecified',
	'public',
];

/**
 * The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215): the gateway's prefix length, which
 * decides where the IPv4 address sits (RFC 6052: /48, /56, /64 or /96), is not known here.
 * The /96 place (the last 32 bits, what DNS64 set-ups use) is always read; the other places
 * count when they carry a link-local, loopback or private address, so no prefix length can
 * reach an internal address through an address judged public. The strictest reading wins.
 */
function localUseNat64(groups: number[]): AddressClass | undefined {
	if (groups[0] !== 0x64 || groups[1] !== 0xff9b || groups[2] !== 1) return undefined;
	const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
	const at = (...indexes: number[]) => indexes.map((n) => bytes[n]);
	const others = [at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12)]
		.map(classifyV4)
		.filter((kind) => kind === 'metadata' || kind === 'loopback' || kind === 'private');
	const readings = [classifyV4(at(12, 13, 14, 15)), ...others];
	return STRICTEST_FIRST.find((kind) => readings.includes(kind));
}

function classifyV4([a, b, c, d]: number[]): AddressClass {
	if (a === 169 && b === 254) return 'metadata';
	if (METADATA_IPV4.has(`${a}.${b}.${c}.${d}`)) return 'metadata';
	if (a === 0) return 'unspecified';
	if (a === 127) return 'loopback';
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
	if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT, 100.64/10
	if ((a === 192 && b === 0 && c === 0) || (a === 198 && (b === 18 || b === 19))) return 'private';
	if (a >= 224) return 'reserved'; // multicast, 240/4, broadcast
	return 'public';
}

function classifyV6(groups: number[]): AddressClass {
	const nat64 = localUseNat64(groups);
	if (nat64) return nat64;
	const inner = embeddedIpv4(groups);
	if (inner) return classifyV4(inner);
	if (groups.every((g) => g === 0)) return 'unspecified';
	if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return 'loopback';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'metadata'; // link-local, fe80::/10
	if (groups[0] === 0xfd00 && groups[1] === 0x0ec2) return 'metadata'; // AWS fd00:ec2::254
	if ((groups[0] & 0xfe00) === 0xfc00) return 'unique-local';
	if ((groups[0] & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
	if ((groups[0] & 0xff00) === 0xff00) return 'reserved'; // multicast
	return 'public';
}

/** The class of an IP literal (as the URL parser writes it, or as a resolver answers), or undefined for a name. */
export function classifyIp(hostname: string): AddressClass | undefined {
	const host = bareHost(hostname);
	const v4 = ipv4Parts(host);
	if (v4) return classifyV4(v4);
	const v6 = ipv6Groups(host);
	return v6 ? classifyV6(v6) : undefined;
}

/** The class a host has by its name or literal alone, or undefined when only its addresses tell. */
export function classifyHost(hostname: string): AddressClass | undefined {
	const host = bareHost(hostname);
	if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
	if (METADATA_NAMES.has(host)) return 'metadata';
	return classifyIp(host);
}

/** Whether the key stays on this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(hostname: string): boolean {
	return classifyHost(hostname) === 'loopback';
}

/** Link-local (169.254.0.0/16, fe80::/10) and cloud metadata addresses and names. */
export function isMetadataHost(hostname: string): boolean {
	return classifyHost(hostname) === 'metadata';
}

const KIND: Record<Exclude<AddressClass, 'public'>, string> = {
	metadata: 'a link-local or cloud metadata address',
	reserved: 'a multicast or reserved address',
	loopback: 'a loopback address (this machine)',
	private: 'a private network address',
	'unique-local': 'a unique-local (private IPv6) address',
	unspecified: 'the unspecified address (this machine)',
};

/**
 * Why an address of this class is refused under the policy, or undefined when it is allowed.
 * `shown` is the address as the message names it; `resolved` says it came from a name.
 */
export function refusalOf(
	kind: AddressClass,
	policy: GuardPolicy,
	shown: string,
	resolved = false,
): string | undefined {
	if (kind === 'public') return undefined;
	const what = `the address ${resolved ? 'resolves to' : 'is'} ${KIND[kind]} (${shown})`;
	if (kind === 'metadata' || kind === 'reserved') return `${what}, which is never fetched`;
	if (policy.rule === 'service' || policy.allowInternal) return undefined;
	return `${what}, which is refused unless Allow Internal Addresses is on`;
}

/** A refusal of the guard: the reason, to be prefixed with the field's name. */
export class AddressRefused extends Error {
	constructor(readonly reason: string) {
		super(reason);
		this.name = 'AddressRefused';
	}
}

/** Where a checked request goes: the address itself, with the name kept for Host and TLS. */
export interface PinnedTarget {
	/** The address to request: the checked IP in place of a name, when a name was resolved. */
	url: string;
	/** The Host header naming the original host, when the URL holds the IP instead. */
	headers: Record<string, string>;
	/** TLS server name (certificate check and SNI) when the URL holds the IP instead. */
	servername?: string;
}

/** What a name means where n8n gives nodes no lookup (n8n 1.x). */
const UNRESOLVED_NAME =
	'this n8n version gives nodes no way to check where a host name leads, so a name is refused unless Allow Internal Addresses is on (n8n 2.x checks it)';

/**
 * Checks an http(s) address under the policy and tells where to send the request. Without a
 * resolver (n8n 1.x offers none to nodes, and Node's own lookup is closed to community nodes)
 * a name cannot be checked: for rule `user` it needs Allow Internal Addresses; a service's
 * address is sent as it is, known metadata names refused.
 */
export async function pinTarget(
	url: URL,
	policy: GuardPolicy,
	resolver?: Resolver,
): Promise<PinnedTarget> {
	const byName = classifyHost(url.hostname);
	if (byName !== undefined) {
		const refusal = refusalOf(byName, policy, bareHost(url.hostname));
		if (refusal) throw new AddressRefused(refusal);
		return { url: url.href, headers: {} };
	}
	if (!resolver) {
		if (policy.rule === 'user' && !policy.allowInternal) throw new AddressRefused(UNRESOLVED_NAME);
		return { url: url.href, headers: {} };
	}
	const addresses = await resolver(bareHost(url.hostname));
	if (addresses.length === 0) throw new AddressRefused('the host name has no address');
	for (const { address } of addresses) {
		const refusal = refusalOf(classifyIp(address) ?? 'reserved', policy, address, true);
		if (refusal) throw new AddressRefused(refusal);
	}
	const [first] = addresses;
	const pinned = new URL(url.href);
	pinned.hostname =
		first.family === 6 || first.address.includes(':') ? `[${first.address}]` : first.address;
	return { url: pinned.href, headers: { Host: url.host }, servername: bareHost(url.hostname) };
}
