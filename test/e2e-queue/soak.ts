/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: load on n8n in queue mode, not published (package.json "files" is dist/ only) */
/**
 * A soak of the webhook trigger in a real n8n: `concurrency` deliveries in flight for
 * `seconds`, a mix of new valid events, repeated copies of valid events (some at once,
 * some later) and forged ones (wrong signature, tampered body, unsigned, another secret).
 * Samples the RSS of n8n's processes from /proc while it runs; at the end counts the
 * executions per event id from n8n's records and, after one closing event once every
 * delivery is answered, reads the trigger's stored memory of ids.
 * Used by the short suite 40-soak.ts and by `npm run soak` (scripts/soak.ts).
 */
import axios from 'axios';
import { createHmac, randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import http from 'http';

import { rememberedIds } from '../../nodes/DocumentSigningTrigger/memory';
import { sleep, type Stack, waitFor } from '../../scripts/lib/stack';
import type { ExecutionSummary } from './lib';

export interface SoakOptions {
	stack: Stack;
	/** The trigger's production URL (on the webhook process in queue mode). */
	url: string;
	secret: string;
	workflowId: string;
	seconds: number;
	concurrency: number;
	/** Processes whose RSS is sampled: name -> pid (read again at each sample). */
	pids: () => Record<string, number | undefined>;
	log: (line: string) => void;
}

export interface RssFigures {
	samples: number;
	firstMb: number;
	lastMb: number;
	maxMb: number;
	/** The highest sample of the run's first half (warm-up included). */
	firstHalfMaxMb: number;
	/** Least-squares slope over the whole run and over its second half, MB per minute. */
	slopeMbPerMin: number;
	secondHalfSlopeMbPerMin: number;
}

export interface SoakFigures {
	seconds: number;
	deliveries: number;
	validNew: number;
	validCopies: number;
	forged: number;
	/** Answers per kind of delivery (new, copy, forged) and status. */
	answers: Record<string, number>;
	/** Valid deliveries made again after a non-2xx answer or none, as the service does. */
	retries: number;
	/** What must not happen: a valid event not started exactly once, a copy started, a forged delivery answered 2xx. */
	unexpectedAnswers: Record<string, number>;
	executions: number;
	/** Valid event ids with no execution, with more than one, and executions of forged ids or of no known id. */
	validWithout: number;
	validMoreThanOnce: number;
	forgedExecutions: number;
	unknownExecutions: number;
	failedExecutions: number;
	/** Status and error of the first few executions that did not succeed (what n8n recorded). */
	failures: string[];
	/** Seconds from the last delivery until every execution had finished. */
	drainSeconds: number;
	storedIds: number | null;
	rss: Record<string, RssFigures>;
}

type Kind = 'new' | 'copy' | 'forged';

/** Keep-alive connections as a service's delivery client would use. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });

function eventBody(id: string, kind = 'document.sent'): string {
	return JSON.stringify({
		id,
		event: kind,
		createdAt: new Date().toISOString(),
		data: {
			envelopeId: `env_${id}`,
			title: 'Soak',
			status: 'pending',
			recipients: [],
			occurredAt: new Date().toISOString(),
		},
	});
}

export async function rssMb(pid: number): Promise<number | undefined> {
	const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
	const match = /VmRSS:\s+(\d+) kB/.exec(status);
	return match ? Number(match[1]) / 1024 : undefined;
}

function slope(points: Array<[number, number]>): number {
	if (points.length < 2) return 0;
	const n = points.length;
	const mx = points.reduce((s, [x]) => s + x, 0) / n;
	const my = points.reduce((s, [, y]) => s + y, 0) / n;
	const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
	const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
	return sxx === 0 ? 0 : sxy / sxx;
}

function rssFigures(points: Array<[number, number]>): RssFigures {
	const round = (v: number) => Math.round(v * 10) / 10;
	const perMin = points.map(([t, mb]): [number, number] => [t / 60_000, mb]);
	return {
		samples: points.length,
		firstMb: round(points[0]?.[1] ?? 0),
		lastMb: round(points[points.length - 1]?.[1] ?? 0),
		maxMb: round(Math.max(...points.map(([, mb]) => mb))),
		firstHalfMaxMb: round(
			Math.max(...points.slice(0, Math.max(1, Math.floor(points.length / 2))).map(([, mb]) => mb)),
		),
		slopeMbPerMin: round(slope(perMin)),
		secondHalfSlopeMbPerMin: round(slope(perMin.slice(Math.floor(perMin.length / 2)))),
	};
}

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
	const { stack, url, secret, workflowId, log } = options;
	const sign = (body: string, key = secret) => createHmac('sha256', key).update(body).digest('hex');
	const post = async (body: string, headers: Record<string, string>) =>
		await axios.post(url, body, {
			headers: { 'Content-Type': 'application/json', ...headers },
			validateStatus: () => true,
			timeout: 60_000,
			httpAgent: agent,
		});
	const known = new Set((await listAll(stack, workflowId, false)).map((e) => e.id));
	const tag = randomBytes(3).toString('hex');
	let serial = 0;
	const validIds = new Set<string>();
	const forgedIds = new Set<string>();
	/** Valid events already answered, with their bodies, for later copies. */
	const delivered: Array<{ id: string; body: string }> = [];
	const counts = { new: 0, copy: 0, forged: 0 };
	const unexpected: Record<string, number> = {};
	const miss = (what: string) => (unexpected[what] = (unexpected[what] ?? 0) + 1);

	/** Answers per kind of delivery: `new 200 started`, `copy 503`, `forged 401`... */
	const answers: Record<string, number> = {};
	const note = (
		kind: string,
		a: { status: number; data?: { started?: boolean; reason?: string } } | undefined,
	) => {
		const what =
			a === undefined
				? `${kind} no answer`
				: `${kind} ${a.status}${a.status === 200 ? ` ${a.data?.started === true ? 'started' : (a.data?.reason ?? '')}` : ''}`;
		answers[what] = (answers[what] ?? 0) + 1;
	};
	let retries = 0;
	/** A valid delivery as the service makes it: again after a non-2xx answer or no answer, 1 s apart. */
	const deliverValid = async (kind: 'new' | 'copy', body: string) => {
		for (let attempt = 1; ; attempt++) {
			const answer = await post(body, { 'X-Service-Signature': sign(body) }).catch(() => undefined);
			note(kind, answer);
			if ((answer && answer.status < 300) || attempt === 30) return answer;
			retries++;
			await sleep(1000);
		}
	};

	/** One delivery of the mix: 45 % new valid events (a fifth of them sent as 3 copies at once), 20 % later copies, 35 % forged. */
	const once = async () => {
		const roll = Math.random();
		const kind: Kind =
			roll < 0.45 || delivered.length === 0 ? 'new' : roll < 0.65 ? 'copy' : 'forged';
		if (kind === 'new') {
			const id = `evt_soak_${tag}_${++serial}`;
			const body = eventBody(id);
			validIds.add(id);
			const copiesAtOnce = Math.random() < 0.2 ? 3 : 1;
			counts.new++;
			counts.copy += copiesAtOnce - 1;
			const results = await Promise.all(
				Array.from(
					{ length: copiesAtOnce },
					async (_, i) => await deliverValid(i === 0 ? 'new' : 'copy', body),
				),
			);
			const started = results.filter((a) => a?.data?.started === true).length;
			if (started !== 1) miss(`valid event started ${started} times`);
			if (started > 0) delivered.push({ id, body });
			if (delivered.length > 500) delivered.shift();
			return;
		}
		if (kind === 'copy') {
			const { body } = delivered[Math.floor(Math.random() * delivered.length)];
			counts.copy++;
			const answer = await deliverValid('copy', body);
			if (answer?.status === 200 && answer.data?.reason !== 'duplicate delivery')
				miss(
					`copy answered 200 ${answer.data?.started === true ? 'started' : answer.data?.reason}`,
				);
			return;
		}
		counts.forged++;
		const id = `evt_soak_forged_${tag}_${++serial}`;
		forgedIds.add(id);
		const body = eventBody(id);
		const variant = serial % 4;
		const headers: Record<string, string> =
			variant === 0
				? { 'X-Service-Signature': sign(`${body} `) }
				: variant === 1
					? { 'X-Service-Signature': sign(body, 'not-the-secret') }
					: variant === 2
						? {}
						: { 'X-Service-Signature': 'deadbeef' };
		// A tampered copy of a valid event: the original's signature over a changed body.
		const tampered =
			variant === 3 && delivered.length > 0
				? delivered[Math.floor(Math.random() * delivered.length)]
				: undefined;
		const answer = tampered
			? await post(tampered.body.replace('"Soak"', '"Tampered"'), {
					'X-Service-Signature': sign(tampered.body),
				})
			: await post(body, headers);
		note('forged', answer);
		// 401 from the trigger, or 503 from n8n before the trigger ran: either starts nothing.
		if (answer.status < 300) miss(`forged answered ${answer.status}`);
	};

	const samples: Record<string, Array<[number, number]>> = {};
	const t0 = Date.now();
	const end = t0 + options.seconds * 1000;
	let sampling = true;
	const sampler = (async () => {
		while (sampling) {
			for (const [name, pid] of Object.entries(options.pids())) {
				const mb = pid === undefined ? undefined : await rssMb(pid);
				if (mb !== undefined) (samples[name] ??= []).push([Date.now() - t0, mb]);
			}
			await sleep(2000);
		}
	})();
	let lastReport = t0;
	const loops = Array.from({ length: options.concurrency }, async () => {
		while (Date.now() < end) {
			await once().catch((error: Error) => miss(`request error ${error.message}`));
			if (Date.now() - lastReport > 30_000) {
				lastReport = Date.now();
				const rss = Object.entries(samples)
					.map(([name, s]) => `${name} ${Math.round(s[s.length - 1][1])} MB`)
					.join(', ');
				log(
					`  soak ${Math.round((Date.now() - t0) / 1000)} s: ${counts.new} new, ${counts.copy} copies, ${counts.forged} forged; RSS ${rss}`,
				);
			}
		}
	});
	await Promise.all(loops);
	const sentAt = Date.now();

	// Every valid event should become one execution; wait until they have all finished.
	const allFinished = async () =>
		await waitFor(
			`${validIds.size} soak executions to finish`,
			async () => {
				const list = (await listAll(stack, workflowId, false)).filter((e) => !known.has(e.id));
				return list.length >= validIds.size &&
					list.every((e) => !['new', 'running', 'waiting'].includes(e.status))
					? list
					: undefined;
			},
			Math.max(120_000, options.seconds * 1000),
			2000,
		).catch(() => undefined);
	let settled = await allFinished();
	const drainSeconds = Math.round((Date.now() - sentAt) / 1000);
	// One more new event once every delivery is answered. n8n saves static data as a whole
	// (the last write wins): a delivery saved at the same moment as another may store the
	// memory without the other's id, which the webhook process still holds and writes with
	// the next delivery. The stored memory is read after that next delivery.
	const closingId = `evt_soak_${tag}_closing`;
	validIds.add(closingId);
	counts.new++;
	const closing = await deliverValid('new', eventBody(closingId));
	if (closing?.data?.started !== true) miss('the closing event did not start');
	if (settled) settled = await allFinished();
	const deliveries = counts.new + counts.copy + counts.forged;
	await sleep(3000); // an extra execution would show by now
	sampling = false;
	await sampler;
	if (!settled) log('  soak: not every valid event became a finished execution in time');

	const withData = (await listAll(stack, workflowId, true)).filter((e) => !known.has(e.id));
	const perId = new Map<string, number>();
	let forgedExecutions = 0;
	let unknownExecutions = 0;
	for (const e of withData) {
		const id = String(
			e.data?.resultData?.runData?.['Document Signing Trigger']?.[0]?.data?.main?.[0]?.[0]?.json
				?.id ?? '',
		);
		if (validIds.has(id)) perId.set(id, (perId.get(id) ?? 0) + 1);
		else if (forgedIds.has(id)) forgedExecutions++;
		else unknownExecutions++;
	}
	const stored = await stack.api.get(`/workflows/${workflowId}`);
	const seen = rememberedIds(stored.data?.staticData?.['node:Document Signing Trigger'] ?? {});
	const rss: Record<string, RssFigures> = {};
	for (const [name, points] of Object.entries(samples)) rss[name] = rssFigures(points);
	return {
		seconds: Math.round((sentAt - t0) / 1000),
		deliveries,
		validNew: counts.new,
		validCopies: counts.copy,
		forged: counts.forged,
		answers,
		retries,
		unexpectedAnswers: unexpected,
		executions: withData.length,
		validWithout: [...validIds].filter((id) => !perId.has(id)).length,
		validMoreThanOnce: [...perId.values()].filter((n) => n > 1).length,
		forgedExecutions,
		unknownExecutions,
		failedExecutions: withData.filter((e) => e.status !== 'success').length,
		failures: withData
			.filter((e) => e.status !== 'success')
			.slice(0, 3)
			.map(
				(e) =>
					`${e.id} ${e.status}: ${e.data?.resultData?.error?.message ?? '(no error recorded)'}`,
			),
		drainSeconds,
		storedIds: seen.length,
		rss,
	};
}

type ExecutionWithData = ExecutionSummary & {
	data?: {
		resultData?: {
			error?: { message?: string };
			runData?: Record<
				string,
				Array<{ data?: { main?: Array<Array<{ json?: { id?: unknown } }>> } }>
			>;
		};
	};
};

/** Every execution of the workflow through n8n's public API pages (with their data when asked). */
async function listAll(
	stack: Stack,
	workflowId: string,
	includeData: boolean,
): Promise<ExecutionWithData[]> {
	const all: ExecutionWithData[] = [];
	let cursor: string | undefined;
	do {
		const response = await stack.api.get('/executions', {
			params: { workflowId, includeData, limit: includeData ? 100 : 250, cursor },
		});
		if (response.status !== 200)
			throw new Error(`GET /api/v1/executions answered ${response.status}`);
		all.push(...(response.data.data as ExecutionWithData[]));
		cursor = response.data.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

/** The figures as log lines. */
export function describeSoak(f: SoakFigures): string[] {
	const lines = [
		`${f.deliveries} deliveries in ${f.seconds} s: ${f.validNew} new valid events, ${f.validCopies} copies of valid events, ${f.forged} forged`,
		`${f.executions} executions (${f.failedExecutions} not successful); valid events without an execution ${f.validWithout}, with more than one ${f.validMoreThanOnce}; executions of forged ids ${f.forgedExecutions}, of unknown ids ${f.unknownExecutions}; drained ${f.drainSeconds} s after the last delivery`,
		...(f.failures.length ? [`not successful: ${f.failures.join('; ')}`] : []),
		`answers: ${JSON.stringify(f.answers)}; ${f.retries} valid deliveries made again after a non-2xx answer`,
		`unexpected answers: ${JSON.stringify(f.unexpectedAnswers)}; ids in the trigger's stored memory: ${f.storedIds ?? 'not readable'}`,
	];
	for (const [name, r] of Object.entries(f.rss)) {
		lines.push(
			`RSS ${name}: first ${r.firstMb} MB, last ${r.lastMb} MB, max ${r.maxMb} MB (first half ${r.firstHalfMaxMb} MB), slope ${r.slopeMbPerMin} MB/min (second half ${r.secondHalfSlopeMbPerMin} MB/min), ${r.samples} samples`,
		);
	}
	return lines;
}
