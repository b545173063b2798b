/* eslint-disable @n8n/community-nodes/no-restricted-globals -- local tooling: reads the sandbox's and n8n's records, not published (package.json "files" is dist/ only) */
/**
 * What a batch did, read from the records rather than from the contenders: the sandbox's
 * request log (creates, documents created twice, second calls that succeeded, 429s) and
 * the time n8n recorded for the API-calling nodes. Used by `npm run bench` and by the
 * rate-limited batch of `npm run e2e:queue`.
 */

import type { SandboxInfo, Stack } from '../../scripts/lib/stack';
import { CALL_NODES, TEMPLATE_ID } from './contenders';
import { RATE_POLICY } from '../../nodes/shared/pacing/ratePolicy';
import { admin } from '../sandbox-admin';

interface LogEntry {
	method: string;
	path: string;
	status: number | null;
	body: { title?: string } | null;
	time: string;
}

export interface Outcome {
	requests: number;
	rateLimited: number;
	/** Answers with a 5xx status. */
	serverErrors: number;
	/** Documents or envelopes created more than once for one title. */
	duplicates: number;
	/** Items whose second call (send, or status) succeeded. */
	completed: number;
}

/** Figures from the sandbox's request log and records, from the `from`-th logged request on. */
export async function outcome(sandbox: SandboxInfo, from = 0): Promise<Outcome> {
	const requests = ((await admin(sandbox).get('/requests')).data.items as LogEntry[]).slice(from);
	const creates = [`/api/v1/templates/${TEMPLATE_ID}/documents`, '/api/v1/envelopes'];
	const created = requests.filter(
		(r) => r.method === 'POST' && creates.includes(r.path) && r.status === 201,
	);
	const titles = new Set(created.map((r) => r.body?.title));
	const second = (r: LogEntry) =>
		(r.method === 'POST' && /^\/api\/v1\/documents\/[^/]+\/send$/.test(r.path)) ||
		(r.method === 'GET' && r.path.endsWith('/status'));
	const secondOk = new Set(
		requests.filter((r) => second(r) && r.status === 200).map((r) => r.path),
	);
	return {
		requests: requests.length,
		rateLimited: requests.filter((r) => r.status === 429).length,
		serverErrors: requests.filter((r) => (r.status ?? 0) >= 500).length,
		duplicates: created.length - titles.size,
		completed: secondOk.size,
	};
}

/** The time of the API-calling nodes in an execution's data (n8n's own figures), in seconds. */
export function callSeconds(
	runData: Record<string, Array<{ executionTime?: number }>> | undefined,
): number {
	let ms = 0;
	for (const name of CALL_NODES)
		for (const run of runData?.[name] ?? []) ms += run.executionTime ?? 0;
	return ms / 1000;
}

/** How many requests the sandbox has logged so far (outcome's `from` for the next batch). */
export async function logged(sandbox: SandboxInfo): Promise<number> {
	return ((await admin(sandbox).get('/requests')).data.items as unknown[]).length;
}

/** callSeconds of the latest execution of a workflow, once n8n has recorded it. */
export async function latestCallSeconds(
	stack: Stack,
	workflowId: string | undefined,
): Promise<number | undefined> {
	for (let attempt = 0; attempt < 20; attempt++) {
		const response = await stack.api.get('/executions', {
			params: { workflowId, includeData: true, limit: 1 },
		});
		const execution = response.data?.data?.[0];
		const runData = execution?.data?.resultData?.runData;
		if (execution?.finished !== undefined && runData) return callSeconds(runData);
		await new Promise((r) => setTimeout(r, 250));
	}
	return undefined;
}

/**
 * The requests from the `from`-th on per 100 ms of arrival: answered / 429 / 5xx (to see how a
 * batch is paced), after the first BENCH_TIMELINE_FIRST (6) one by one, in order of arrival.
 */
export async function timeline(sandbox: SandboxInfo, from = 0): Promise<string> {
	const requests = ((await admin(sandbox).get('/requests')).data.items as LogEntry[]).slice(from);
	if (!requests.length) return 'no requests';
	const t0 = Math.min(...requests.map((r) => Date.parse(r.time)));
	const slots: Array<[number, number, number]> = [];
	for (const r of requests) {
		const slot = (slots[Math.floor((Date.parse(r.time) - t0) / 100)] ??= [0, 0, 0]);
		slot[r.status === 429 ? 1 : (r.status ?? 0) >= 500 ? 2 : 0]++;
	}
	const start = new Date(t0).toISOString().slice(17, 23);
	const first = [...requests]
		.sort((a, b) => Date.parse(a.time) - Date.parse(b.time))
		.slice(0, Number(process.env.BENCH_TIMELINE_FIRST ?? 6))
		.map((r) => `${r.method} ${r.path.slice(7, 40)} ${r.status} +${Date.parse(r.time) - t0}`);
	return (
		`${first.join(', ')}\nfrom ${start}: ` +
		Array.from(slots, (s, k) => `${k / 10}:${s ? s.join('/') : '-'}`).join(' ')
	);
}

/** Waits until the pace a credential's runs learned is forgotten (RATE_POLICY.rememberMs after `lastEnd`), so the next run starts as a scheduled batch does. */
export async function untilPaceForgotten(lastEnd: number): Promise<void> {
	const wait = lastEnd + RATE_POLICY.rememberMs + 200 - Date.now();
	if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
