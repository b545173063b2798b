/** How a failed or odd HTTP exchange is read: what may have reached the service, and the body as text. */

/** Network failures where no byte reached the server: safe to resend for any method. */
export const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** Network failures where the request may have arrived: resend only reads and idempotent requests. */
export const MAYBE_SENT_CODES = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'UND_ERR_SOCKET',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

/** The Node.js error code (ECONNREFUSED, ...) anywhere in the error's cause chain. */
export function systemErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		// n8n 1.x's authenticated helper wraps the socket error in a NodeApiError that keeps
		// its code only as `httpCode` (and drops the cause).
		for (const code of [
			(current as { code?: unknown }).code,
			(current as { httpCode?: unknown }).httpCode,
		]) {
			if (typeof code === 'string' && (NOT_SENT_CODES.has(code) || MAYBE_SENT_CODES.has(code))) {
				return code;
			}
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

export function messageOf(error: unknown): string {
	const cause = (error as { cause?: { message?: unknown } })?.cause;
	if (cause && typeof cause.message === 'string') return cause.message;
	return error instanceof Error ? error.message : String(error);
}

export function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

export function isJson(text: string): boolean {
	if (!text.trim()) return true; // an empty answer (e.g. 204) is fine
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

/** Presigned addresses carry signatures in their query: never show it. */
export function addressWithoutQuery(url: string): string {
	return url.split('?')[0];
}
