/**
 * Where the API key may go: the one check of the credential's Base URL, used by the
 * credential test and before every API request.
 *
 * - `https://` always; `http://` only to a loopback address (the key never leaves the
 *   machine) or when the user turns on Allow Insecure HTTP.
 * - Never to a link-local or cloud metadata address or path, whatever the option says:
 *   those answer anyone on the machine and hand out the machine's own cloud keys.
 *
 * Names are not resolved here: community nodes may not use Node's `dns` module, and an
 * answer read here could differ from the one n8n connects to a moment later. A name that
 * resolves to a metadata address is refused by n8n's SSRF protection
 * (`N8N_SSRF_PROTECTION_ENABLED=true`), which checks the address it connects to.
 */

export const BASE_URL_EXAMPLE = 'https://<your-service>/api/v1';

export type BaseUrlCheck =
	| { ok: true; url: string; origin: string }
	| { ok: false; message: string };

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

/** Paths of metadata services (AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack), lower case. */
const METADATA_PATHS = [
	'/latest/meta-data',
	'/latest/user-data',
	'/latest/dynamic',
	'/latest/api/token',
	'/computemetadata',
	'/metadata/instance',
	'/metadata/identity',
	'/metadata/v1',
	'/opc/v1',
	'/opc/v2',
	'/openstack',
];

/** The four numbers of a dotted IPv4 address, or undefined. */
function ipv4Parts(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((p) => p <= 255) ? parts : undefined;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it, or undefined. */
function ipv6Groups(host: string): number[] | undefined {
	if (!host.includes(':')) return undefined;
	const [head, tail] = host.split('::');
	const read = (text: string | undefined) => (text ? text.split(':').map((g) => parseInt(g, 16)) : []);
	const front = read(head);
	const back = read(tail);
	const groups = host.includes('::') ? [...front, ...Array(8 - front.length - back.length).fill(0), ...back] : front;
	return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** An IPv4 address carried in IPv6 (`::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`). */
function embeddedIpv4(groups: number[]): number[] | undefined {
	const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
	const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
	if (!mapped && !nat64) return undefined;
	return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff];
}

function isLoopbackV4(parts: number[]): boolean {
	return parts[0] === 127;
}

function isMetadataV4(parts: number[]): boolean {
	return (parts[0] === 169 && parts[1] === 254) || METADATA_IPV4.has(parts.join('.'));
}

/** The URL parser's host without IPv6 brackets and without a trailing dot. */
function bareHost(hostname: string): string {
	return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

/** Whether the key stays on this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(hostname: string): boolean {
	const host = bareHost(hostname);
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const v4 = ipv4Parts(host);
	if (v4) return isLoopbackV4(v4);
	const v6 = ipv6Groups(host);
	if (!v6) return false;
	const inner = embeddedIpv4(v6);
	if (inner) return isLoopbackV4(inner);
	return v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1;
}

/** Link-local (169.254.0.0/16, fe80::/10) and cloud metadata addresses and names. */
export function isMetadataHost(hostname: string): boolean {
	const host = bareHost(hostname);
	if (METADATA_NAMES.has(host)) return true;
	const v4 = ipv4Parts(host);
	if (v4) return isMetadataV4(v4);
	const v6 = ipv6Groups(host);
	if (!v6) return false;
	const inner = embeddedIpv4(v6);
	if (inner) return isMetadataV4(inner);
	const linkLocal = (v6[0] & 0xffc0) === 0xfe80;
	const awsImds = v6[0] === 0xfd00 && v6[1] === 0x0ec2;
	return linkLocal || awsImds;
}

function isMetadataPath(pathname: string): boolean {
	const path = pathname.toLowerCase();
	return METADATA_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Checks a Base URL; on success returns it without trailing slashes, and its origin (the
 * only place the API key may go). The message of a refusal says why and what to change.
 */
export function checkBaseUrl(value: unknown, allowInsecureHttp = false): BaseUrlCheck {
	// Asked twice per request (the transport and the credential's authenticate) for the same
	// few values; the answer depends on the input alone, so it is kept per value.
	if (typeof value !== 'string') return judgeBaseUrl(value, allowInsecureHttp);
	const key = `${allowInsecureHttp ? 'insecure' : 'secure'} ${value}`;
	let check = checkedBaseUrls.get(key);
	if (!check) {
		if (checkedBaseUrls.size >= 64) checkedBaseUrls.clear();
		check = judgeBaseUrl(value, allowInsecureHttp);
		checkedBaseUrls.set(key, check);
	}
	return { ...check };
}

const checkedBaseUrls = new Map<string, BaseUrlCheck>();

function judgeBaseUrl(value: unknown, allowInsecureHttp: boolean): BaseUrlCheck {
	const text = typeof value === 'string' ? value.trim() : '';
	if (text === '') {
		return { ok: false, message: `The credential has no Base URL: set it to the service address, e.g. ${BASE_URL_EXAMPLE}` };
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { ok: false, message: `The Base URL is not a complete web address: write it as ${BASE_URL_EXAMPLE}` };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return { ok: false, message: `The Base URL must start with https:// (it starts with ${url.protocol}//): write it as ${BASE_URL_EXAMPLE}` };
	}
	if (url.username !== '' || url.password !== '') {
		return { ok: false, message: 'The Base URL holds a user name or password: remove them from it (the API key is the only credential the service needs)' };
	}
	if (isMetadataHost(url.hostname) || isMetadataPath(url.pathname)) {
		return {
			ok: false,
			message: `The Base URL points at ${url.host}${isMetadataPath(url.pathname) ? url.pathname : ''}, a link-local or cloud metadata address: the API key is never sent there. Set the Base URL to the service's address, e.g. ${BASE_URL_EXAMPLE}`,
		};
	}
	if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
		return {
			ok: false,
			message: `The Base URL uses http:// to ${url.host}, which would send the API key unencrypted: use https://, or turn on Allow Insecure HTTP in the credential if the network to this host is trusted`,
		};
	}
	// The URL as written (the parser would add a slash to a bare host), without trailing slashes.
	return { ok: true, url: text.replace(/\/+$/, ''), origin: url.origin };
}

/** The origin of an address, or undefined when it is not one. */
export function originOf(address: string, base?: string): string | undefined {
	try {
		return new URL(address, base).origin;
	} catch {
		return undefined;
	}
}
