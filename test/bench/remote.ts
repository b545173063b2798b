/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * Starts test/bench/sandbox-process.ts as a child process and talks to it: the API with
 * the sandbox's key (for seeding), the admin routes (reset, faults, request log; through
 * test/sandbox-admin.ts) and the per-request timings.
 */
import axios from 'axios';
import { spawn, type ChildProcess } from 'child_process';
import * as http from 'http';
import * as path from 'path';
import type { IDataObject } from 'n8n-workflow';

import type { SandboxRequest } from '../harness';
import { admin, adminPost } from '../sandbox-admin';
import type { RequestTiming } from './sandbox-process';

export interface RemoteSandbox {
	origin: string;
	baseUrl: string;
	apiKey: string;
	pid: number;
	api<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T>;
	reset(): Promise<void>;
	fault(spec: IDataObject): Promise<void>;
	requests(): Promise<SandboxRequest[]>;
	raw(method: string, url: string, data: Buffer | string, contentType: string): Promise<string>;
	timings(): Promise<RequestTiming[]>;
	clearTimings(): Promise<void>;
	close(): Promise<void>;
}

export async function startRemoteSandbox(): Promise<RemoteSandbox> {
	const entry = path.join(__dirname, 'sandbox-process.ts');
	const child: ChildProcess = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', entry],
		{ stdio: ['pipe', 'pipe', 'inherit'], cwd: path.resolve(__dirname, '..', '..') },
	);
	const info = await new Promise<{ origin: string; baseUrl: string; apiKey: string }>(
		(resolve, reject) => {
			let text = '';
			child.once('exit', (code) => reject(new Error(`sandbox process exited (${code})`)));
			child.stdout!.on('data', (chunk: Buffer) => {
				text += chunk.toString('utf8');
				const line = text.indexOf('\n');
				if (line >= 0) resolve(JSON.parse(text.slice(0, line)));
			});
		},
	);

	// No keep-alive: an idle pooled socket closed by the server would fail the next call.
	const client = axios.create({
		httpAgent: new http.Agent({ keepAlive: false }),
		validateStatus: () => true,
		responseType: 'text',
		transformResponse: (text: string) => text,
		maxBodyLength: Infinity,
		maxContentLength: Infinity,
	});

	async function call<T>(method: string, url: string, body?: unknown, auth = false): Promise<T> {
		const response = await client.request<string>({
			method,
			url,
			headers: {
				'content-type': 'application/json',
				...(auth ? { authorization: `Bearer ${info.apiKey}` } : {}),
			},
			data: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = response.data;
		if (response.status >= 400)
			throw new Error(`${method} ${url.split('?')[0]}: ${response.status} ${text}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	/** Any other request to the sandbox (storage, action links). */
	async function raw(method: string, url: string, data: Buffer | string, contentType: string) {
		const response = await client.request<string>({
			method,
			url,
			data,
			headers: { 'content-type': contentType },
		});
		if (response.status >= 400)
			throw new Error(`${method} ${url.split('?')[0]}: ${response.status} ${response.data}`);
		return response.data;
	}

	return {
		...info,
		pid: child.pid!,
		raw,
		api: (method, p, body) => call(method, `${info.baseUrl}${p}`, body, true),
		reset: async () => void (await adminPost(info, 'reset', {})),
		fault: async (spec) => void (await adminPost(info, 'faults', spec)),
		requests: async () =>
			((await admin(info).get('/requests')).data as { items: SandboxRequest[] }).items,
		timings: async () =>
			(await call<{ items: RequestTiming[] }>('GET', `${info.origin}/__bench/timings`)).items,
		clearTimings: async () => void (await call('POST', `${info.origin}/__bench/timings/clear`)),
		close: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once('exit', () => resolve());
				child.kill('SIGTERM');
			}),
	};
}
