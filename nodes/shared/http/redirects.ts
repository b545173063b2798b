/**
 * Redirects of API answers. n8n's helpers follow redirects to any host and send the
 * Authorization header along, so API requests are sent with redirects off and this decides:
 *
 * - a redirect to another origin is never followed: the key goes only to the Base URL's
 *   origin, and the error names the other origin so the user can check the Base URL;
 * - nor one whose Location holds a user name or password (they would go as Basic auth);
 * - a redirect within the origin is followed (at most MAX_SAME_ORIGIN_REDIRECTS times) when
 *   the request stays the same: any redirect of a read, or 307/308 of any method. A 301,
 *   302 or 303 answered to a write would turn it into a GET (or send it twice), so it is
 *   refused with a message instead.
 */

export const MAX_SAME_ORIGIN_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type RedirectStep = { follow: string } | { refuse: string };

export function isRedirect(statusCode: number): boolean {
	return REDIRECT_STATUSES.has(statusCode);
}

export interface RedirectInput {
	statusCode: number;
	/** The Location header as received. */
	location: unknown;
	/** The full address that answered with the redirect. */
	from: string;
	/** The Base URL's origin: the only one the key may go to. */
	origin: string;
	method: string;
	/** Redirects already followed for this request. */
	followed: number;
}

const pathOf = (url: URL) => url.pathname;

export function nextRedirect({
	statusCode,
	location,
	from,
	origin,
	method,
	followed,
}: RedirectInput): RedirectStep {
	const fromUrl = new URL(from);
	const text = Array.isArray(location) ? location[0] : location;
	let target: URL | undefined;
	try {
		target = typeof text === 'string' && text !== '' ? new URL(text, fromUrl) : undefined;
	} catch {
		target = undefined;
	}
	const request = `${method} ${pathOf(fromUrl)}`;
	if (!target) {
		return {
			refuse: `The API answered ${request} with a redirect (HTTP ${statusCode}) without a valid address to go to. Check the Base URL in the credential.`,
		};
	}
	// n8n's helpers would send a Location's user name and password as Basic authentication.
	if (target.username !== '' || target.password !== '') {
		return {
			refuse: `The API answered ${request} with a redirect to an address holding a user name and password; it was not followed, as they would be sent as Basic authentication. Check the Base URL in the credential.`,
		};
	}
	if (target.origin !== origin) {
		return {
			refuse: `The API answered ${request} with a redirect to ${target.origin}, another address than the Base URL's (${origin}). The API key is only sent to the Base URL's address, so the redirect was not followed. Check the Base URL in the credential: if the service has moved to ${target.origin}, set the Base URL to its address there.`,
		};
	}
	const read = method === 'GET' || method === 'HEAD';
	if (!read && statusCode !== 307 && statusCode !== 308) {
		return {
			refuse: `The API answered ${request} with a redirect (HTTP ${statusCode}) to ${pathOf(target)}; it was not followed, as that would change or repeat the request. Check the Base URL in the credential.`,
		};
	}
	if (followed >= MAX_SAME_ORIGIN_REDIRECTS) {
		return {
			refuse: `The API redirected ${request} more than ${MAX_SAME_ORIGIN_REDIRECTS} times. Check the Base URL in the credential.`,
		};
	}
	return { follow: target.href };
}
