/**
 * Clients of the sandbox's control routes (`/__sandbox`: reset, faults, request log, keys,
 * e-stamp timings; test/sandbox/routes/admin.ts), for the in-process tests, the sandbox's
 * own tests, the end-to-end suites and the benchmarks.
 */
import axios, { type AxiosInstance } from 'axios';

/** An axios client for the control routes that never throws on an HTTP status. */
export function admin(sandbox: { origin: string }, timeoutMs?: number): AxiosInstance {
	return axios.create({
		baseURL: `${sandbox.origin}/__sandbox`,
		validateStatus: () => true,
		...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
	});
}

/** POSTs `body` to the control route `path` (e.g. 'estamp') and returns the answer; throws unless 2xx. */
export async function adminPost<T = Record<string, unknown>>(
	sandbox: { origin: string },
	path: string,
	body: unknown,
): Promise<T> {
	const response = await admin(sandbox).post(`/${path}`, body);
	if (response.status < 200 || response.status >= 300)
		throw new Error(`${path}: ${response.status} ${JSON.stringify(response.data)}`);
	return response.data as T;
}
