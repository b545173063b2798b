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

import { isLoopbackHost, isMetadataHost } from './addressGuard';

// The address classification lives in the address guard, for every address the node fetches.
export { isLoopbackHost, isMetadataHost };

export const BASE_URL_EXAMPLE = 'https://<your-service>/api/v1';

export type BaseUrlCheck =
	| { ok: true; url: string; origin: string }
	| { ok: false; message: string };

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

function isMetadataPath(pathname: string): boolean {
	const path = pathname.toLowerCase();
	return METADATA_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Checks a Base URL; on success returns it without trailing slashes, and its origin (the
 * only place the API key may go). The message of a refusal says why and what to change.
 */
export function checkBaseUrl(value: unknown, allowInsecureHttp = false): BaseUrlCheck {
	// Asked once per node run (pacing.ts) and by the credential's authenticate for every
	// request, for the same few values; the answer depends on the input alone: kept per value.
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
		return {
			ok: false,
			message: `The credential has no Base URL: set it to the service address, e.g. ${BASE_URL_EXAMPLE}`,
		};
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return {
			ok: false,
			message: `The Base URL is not a complete web address: write it as ${BASE_URL_EXAMPLE}`,
		};
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return {
			ok: false,
			message: `The Base URL must start with https:// (it starts with ${url.protocol}//): write it as ${BASE_URL_EXAMPLE}`,
		};
	}
	if (url.username !== '' || url.password !== '') {
		return {
			ok: false,
			message:
				'The Base URL holds a user name or password: remove them from it (the API key is the only credential the service needs)',
		};
	}
	// Paths are appended to the Base URL as text: `/api/v1?tenant=a` would become
	// `/api/v1?tenant=a/envelopes`. The raw text is read, as the parser drops a bare `?` or `#`.
	// Its content is not repeated: a query may hold a token.
	const mark = /[?#]/.exec(text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, ''))?.[0];
	if (mark) {
		return {
			ok: false,
			message: `The Base URL holds ${mark === '?' ? 'a query' : 'a fragment'}: remove everything from "${mark}" on, so it reads like ${BASE_URL_EXAMPLE} (the node adds each path after it)`,
		};
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
