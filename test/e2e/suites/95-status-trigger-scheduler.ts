/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * The Status Trigger under n8n 2.41's poll scheduler (N8N_SCHEDULER_ENABLED,
 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED) with durable cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED)
 * and a lowered N8N_SCHEDULER_POLL_TIMEOUT: a poll past it is abandoned (nothing emitted or
 * committed), so a backlog drains only if each poll fits n8n's budget and leaves a cursor.
 *
 * n8n starts once with these settings for the whole suite (and once more in the middle of a
 * drain: the durable cursor must carry on), then again with the run's own. The service answers
 * in 700 ms and takes 5 requests a second per key. Two workflows poll every 10 s: one lists a
 * backlog of completed envelopes (personal key), one also downloads their signed PDFs
 * (organization key, so the two are told apart in the service's log). Counted: envelopes
 * emitted against completed (0 missed, 0 twice), polls until drained, polls n8n abandoned, and
 * file requests per envelope.
 *
 * Sizes (env): E2E_SCHEDULER_TIMEOUT seconds (8), E2E_SCHEDULER_LIST envelopes (1300),
 * E2E_SCHEDULER_FILES envelopes (100), E2E_SCHEDULER_WAIT seconds to drain at most (300; the
 * check ends once both are drained, about 2.5 minutes on a loaded machine). The defaults
 * stall on a trigger that ignores the budget (a list poll then needs 13 pages of 700 ms) and
 * keep the suite under about 4 minutes.
 *
 * It runs last: its 1,400 envelopes send as many events to the example triggers the runner
 * subscribed, which n8n then works through for minutes, and a suite after it would wait
 * behind them.
 *
 * E2E_SCHEDULER=off runs the same drain on n8n's classic poller (no scheduler settings, a
 * 5-minute budget). A classic poll can take a whole default backlog at once, so there the
 * restart comes while the first poll after the backlog is reading it, if nothing is out yet;
 * n8n abandons no poll there, so that count does not apply.
 */
import axios, { type AxiosInstance } from 'axios';
import { existsSync, promises as fs } from 'fs';
import path from 'path';

import { sleep } from '../../../scripts/lib/stack';
import {
	check,
	type E2eContext,
	executions,
	expect,
	expectEqual,
	log,
	makePdf,
	restartN8n,
} from '../lib';

const LIST_WORKFLOW = 'DsE2eSchedList01';
const FILE_WORKFLOW = 'DsE2eSchedFile01';
const ORG_CREDENTIAL = 'DsSandboxOrgCrd1';
const TRIGGER = 'Document Signing Status Trigger';

const setting = (name: string, fallback: number) => {
	const value = Number(process.env[name] ?? fallback);
	return Number.isFinite(value) && value > 0 ? value : fallback;
};
const TIMEOUT_S = setting('E2E_SCHEDULER_TIMEOUT', 8);
const LIST_BACKLOG = setting('E2E_SCHEDULER_LIST', 1300);
const FILE_BACKLOG = setting('E2E_SCHEDULER_FILES', 100);
const WAIT_S = setting('E2E_SCHEDULER_WAIT', 300);
const SCHEDULED = scheduled(process.env.E2E_SCHEDULER);

function scheduled(value: string | undefined): boolean {
	if (value === undefined || value === '' || value === 'on') return true;
	if (value === 'off') return false;
	throw new Error(`E2E_SCHEDULER must be "on" or "off", not "${value}"`);
}

const SCHEDULER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TIMEOUT: String(TIMEOUT_S),
};
/** What n8n starts with for the drain: the scheduler's settings, or none (the classic poller). */
const POLLER_ENV: Record<string, string> = SCHEDULED ? SCHEDULER_ENV : {};
const POLLER = SCHEDULED ? 'the scheduler' : 'the classic poller';
/** n8n's budget for that timeout (trigger-execution-context.factory.js): less 20 %, at least 5 s, at most half. */
const BUDGET_S = TIMEOUT_S - Math.min(Math.max(0.2 * TIMEOUT_S, 5), TIMEOUT_S / 2);

interface LoggedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	keyId?: string | null;
	status: number | null;
	time: string;
}

export default async function suite(context: E2eContext): Promise<void> {
	const { stack, sandbox, workflows } = context;
	expect(
		workflows[LIST_WORKFLOW] && workflows[FILE_WORKFLOW],
		'the scheduler fixtures are missing',
	);
	let abandoned = 0;
	const countAbandoned = async () => {
		const file = path.join(stack.dir, 'n8n.log');
		const text = existsSync(file) ? await fs.readFile(file, 'utf8') : '';
		abandoned += (text.match(/Poll exceeded its timeout and was abandoned/g) ?? []).length;
	};
	let started = false;
	await check(
		SCHEDULED
			? `n8n starts with the poll scheduler, poll triggers and durable cursors on, poll timeout ${TIMEOUT_S} s (budget ${BUDGET_S} s)`
			: 'n8n starts with its classic poller (no scheduler settings; budget 5 minutes)',
		async () => {
			await restartN8n(stack, {
				env: POLLER_ENV,
				whileStopped: async () => await importOrgCredential(context),
			});
			started = true;
		},
	);
	if (!started) return;
	try {
		await drains(context, countAbandoned, () => abandoned);
	} finally {
		for (const id of [LIST_WORKFLOW, FILE_WORKFLOW])
			await stack.api.post(`/workflows/${id}/deactivate`, {}).catch(() => undefined);
		await sandbox.post('/faults', { latencyMs: 0, rateLimitPerSecond: null });
		log('  n8n starts again with the run’s own settings');
		await restartN8n(stack);
	}
}

/** The organization key's credential, imported while n8n is stopped (its file lives only for the import). */
async function importOrgCredential({ stack }: E2eContext): Promise<void> {
	const file = path.join(stack.dir, 'org-credential.json');
	const credential = {
		id: ORG_CREDENTIAL,
		name: 'Document Signing sandbox (organization)',
		type: 'documentSigningApi',
		data: { baseUrl: stack.sandbox.baseUrl, apiKey: stack.sandbox.orgApiKey, webhookSecret: '' },
	};
	await fs.writeFile(file, JSON.stringify([credential]), { mode: 0o600 });
	try {
		await stack.n8nCli(['import:credentials', `--input=${file}`]);
	} finally {
		await fs.rm(file, { force: true });
	}
}

async function drains(
	context: E2eContext,
	countAbandoned: () => Promise<void>,
	abandoned: () => number,
): Promise<void> {
	const { stack, sandbox } = context;
	const personal = service(stack.sandbox.baseUrl, stack.sandbox.apiKey);
	const organization = service(stack.sandbox.baseUrl, stack.sandbox.orgApiKey);
	const keys = {
		list: await keyIdOf(sandbox, personal),
		files: await keyIdOf(sandbox, organization),
	};

	await check(
		`under ${POLLER}: ${LIST_BACKLOG} completed envelopes (list only) and ${FILE_BACKLOG} with signed PDFs, at 700 ms and 5 requests/s, drain over several polls with an n8n restart in the middle: 0 missed, 0 twice, each file served once, again only where the restart stopped the poll that fetched it`,
		async () => {
			for (const id of [LIST_WORKFLOW, FILE_WORKFLOW]) {
				const activated = await stack.api.post(`/workflows/${id}/activate`, {});
				expectEqual(
					activated.status,
					200,
					`activating ${id} (${JSON.stringify(activated.data).slice(0, 200)})`,
				);
			}
			// The activation poll is not committed (n8n's test poll): the first scheduled one takes the baseline.
			await pollsOf(sandbox, keys.list, 2);
			await pollsOf(sandbox, keys.files, 2);
			// Sent while the service is fast; then it slows down, and they complete in a burst.
			const pdf = await makePdf('Scheduler backlog');
			const [listed, filed] = await Promise.all([
				sendMany(personal, pdf, 'Backlog', LIST_BACKLOG),
				sendMany(organization, pdf, 'With file', FILE_BACKLOG),
			]);
			const from = ((await sandbox.get('/requests')).data.items as LoggedRequest[]).length;
			await sandbox.post('/faults', { latencyMs: 700, rateLimitPerSecond: 5 });
			const t0 = Date.now();
			await signAll([...listed, ...filed]);
			log(
				`  ${LIST_BACKLOG + FILE_BACKLOG} envelopes completed in ${Math.round((Date.now() - t0) / 1000)} s`,
			);
			const list = listed.map((e) => e.id);
			const files = filed.map((e) => e.id);
			const drained = await watchDrain(context, { list, files }, countAbandoned, {
				keyId: keys.list,
				from,
			});
			await countAbandoned();
			const requests = ((await sandbox.get('/requests')).data.items as LoggedRequest[]).slice(from);
			report({ list, files }, drained, requests, keys, abandoned());
		},
	);
}

function service(baseURL: string, key: string): AxiosInstance {
	return axios.create({
		baseURL,
		headers: { Authorization: `Bearer ${key}` },
		validateStatus: () => true,
		timeout: 30_000,
	});
}

/** The id the service's log gives requests made with this key. */
async function keyIdOf(sandbox: AxiosInstance, client: AxiosInstance): Promise<string> {
	await client.get('/envelopes', { params: { limit: 1, search: 'key probe' } });
	const items = (await sandbox.get('/requests')).data.items as LoggedRequest[];
	const probe = items.reverse().find((r) => r.query.search === 'key probe');
	expect(probe?.keyId, 'the service logged no key id');
	return probe.keyId!;
}

/** Polls of one trigger: first-page reads of the completed list with its key, 5 s or more apart. */
function pollStarts(requests: LoggedRequest[], keyId: string): number[] {
	const starts: number[] = [];
	for (const r of requests) {
		if (r.keyId !== keyId || !r.path.endsWith('/envelopes') || r.query.status !== 'completed')
			continue;
		if (r.query.page !== '1' || r.query.limit !== '100') continue;
		const at = Date.parse(r.time);
		if (starts.length === 0 || at - starts[starts.length - 1] > 5_000) starts.push(at);
	}
	return starts;
}

async function pollsOf(sandbox: AxiosInstance, keyId: string, count: number): Promise<void> {
	const end = Date.now() + 90_000;
	for (;;) {
		const items = (await sandbox.get('/requests')).data.items as LoggedRequest[];
		if (pollStarts(items, keyId).length >= count) return;
		expect(Date.now() < end, `fewer than ${count} polls of the trigger in 90 s`);
		await sleep(1_000);
	}
}

/** Creates, uploads and sends envelopes, 20 at a time; returns their ids and signing links. */
async function sendMany(
	client: AxiosInstance,
	pdf: Buffer,
	prefix: string,
	count: number,
): Promise<Array<{ id: string; links: string[] }>> {
	const one = async (title: string) => {
		const created = await client.post('/envelopes', {
			fileName: 'contract.pdf',
			title,
			recipients: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
		});
		expectEqual(created.status, 201, `create "${title}"`);
		const put = await axios.put(created.data.upload.url, pdf, {
			headers: { 'Content-Type': 'application/pdf' },
			validateStatus: () => true,
		});
		expectEqual(put.status, 200, `upload of "${title}"`);
		const sent = await client.post(`/envelopes/${created.data.id}/send`, {});
		expectEqual(sent.status, 200, `send "${title}"`);
		const links = (sent.data.recipients as Array<{ actionUrl: string }>).map((r) => r.actionUrl);
		return { id: created.data.id as string, links };
	};
	const envelopes: Array<{ id: string; links: string[] }> = [];
	for (let start = 0; start < count; start += 20) {
		const batch = Array.from({ length: Math.min(20, count - start) }, (_, i) =>
			one(`${prefix} ${start + i + 1}`),
		);
		envelopes.push(...(await Promise.all(batch)));
	}
	return envelopes;
}

/** Every signer signs through the signing page (not the API): the envelopes complete at once. */
async function signAll(envelopes: Array<{ links: string[] }>): Promise<void> {
	const links = envelopes.flatMap((e) => e.links);
	for (let start = 0; start < links.length; start += 20) {
		await Promise.all(
			links.slice(start, start + 20).map(async (url) => {
				const signed = await axios.post(url, {}, { validateStatus: () => true });
				expectEqual(signed.status, 200, 'signing');
			}),
		);
	}
}

interface Drained {
	/** Envelope ids each workflow's executions started with. */
	emitted: { list: string[]; files: string[] };
	/** Seconds from the backlog to the last of it, per workflow (undefined: not drained). */
	seconds: { list?: number; files?: number };
	/** n8n was restarted in the middle of a drain. */
	restarted?: boolean;
	/** When n8n was stopped for the restart (ms since epoch), and the files emitted by then. */
	restart?: { at: number; filesOut: Set<string> };
	/** When the watch began (ms since epoch). */
	startedAt: number;
}

/**
 * Watches both workflows' executions until both backlogs are out (or the wait ends); restarts
 * n8n once, when either backlog is partway out (on the classic poller also while its first poll
 * after the backlog reads it: `since` names the list's key and where the backlog's log starts).
 */
async function watchDrain(
	{ stack, sandbox }: E2eContext,
	backlog: { list: string[]; files: string[] },
	countAbandoned: () => Promise<void>,
	since: { keyId: string; from: number },
): Promise<Drained> {
	const t0 = Date.now();
	const drained: Drained = { emitted: { list: [], files: [] }, seconds: {}, startedAt: t0 };
	let restarted = false;
	while (Date.now() - t0 < WAIT_S * 1000) {
		await sleep(3_000);
		drained.emitted.list = await emitted(stack, LIST_WORKFLOW);
		drained.emitted.files = await emitted(stack, FILE_WORKFLOW);
		const seconds = Math.round((Date.now() - t0) / 1000);
		for (const kind of ['list', 'files'] as const) {
			const out = new Set(drained.emitted[kind]);
			if (drained.seconds[kind] === undefined && backlog[kind].every((id) => out.has(id)))
				drained.seconds[kind] = seconds;
		}
		if (drained.seconds.list !== undefined && drained.seconds.files !== undefined) break;
		const listRuns = new Set(drained.emitted.list).size;
		const fileRuns = new Set(drained.emitted.files).size;
		const partway = (out: number, of: number) => out > 0 && out < of;
		const reading =
			!SCHEDULED && listRuns === 0 && (await listReads(sandbox, since)) >= RESTART_AFTER_READS;
		const middle =
			partway(listRuns, backlog.list.length) || partway(fileRuns, backlog.files.length);
		if (!restarted && (middle || reading)) {
			restarted = true;
			log(
				`  n8n restarts in the middle of the drain (list ${listRuns} of ${backlog.list.length} out, files ${fileRuns} of ${backlog.files.length}${reading ? ', a poll reading the backlog' : ''})`,
			);
			await countAbandoned();
			drained.restart = { at: Date.now(), filesOut: new Set(drained.emitted.files) };
			await restartN8n(stack, { env: POLLER_ENV });
		}
	}
	drained.restarted = restarted;
	return drained;
}

/** List reads after which a classic poll counts as under way. */
const RESTART_AFTER_READS = 3;

/** The list trigger's reads of the envelope list since the backlog completed. */
async function listReads(
	sandbox: AxiosInstance,
	{ keyId, from }: { keyId: string; from: number },
): Promise<number> {
	const items = ((await sandbox.get('/requests')).data.items as LoggedRequest[]).slice(from);
	return items.filter((r) => r.keyId === keyId && r.path.endsWith('/envelopes')).length;
}

async function emitted(stack: E2eContext['stack'], workflowId: string): Promise<string[]> {
	const list = await executions(stack, workflowId);
	return list.flatMap((e) =>
		(e.data?.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
			(item) => item.json.envelopeId as string,
		),
	);
}

function report(
	backlog: { list: string[]; files: string[] },
	drained: Drained,
	requests: LoggedRequest[],
	keys: { list: string; files: string },
	abandoned: number,
): void {
	const figures: string[] = [];
	const failures: string[] = [];
	for (const kind of ['list', 'files'] as const) {
		const counts = new Map<string, number>();
		for (const id of drained.emitted[kind]) counts.set(id, (counts.get(id) ?? 0) + 1);
		const missed = backlog[kind].filter((id) => !counts.has(id)).length;
		const twice = [...counts.values()].filter((n) => n > 1).length;
		const starts = pollStarts(requests, keys[kind]);
		const took = drained.seconds[kind];
		const until = starts.filter(
			(at) => took !== undefined && at <= drained.startedAt + took * 1000,
		);
		figures.push(
			`${kind === 'list' ? 'list only' : 'with files'}: ${counts.size} of ${backlog[kind].length} emitted, ${missed} missed, ${twice} twice, ${took === undefined ? 'not drained' : `drained in ${took} s after ${until.length} polls`}, ${starts.length} polls watched`,
		);
		if (missed > 0 || twice > 0) failures.push(`${kind}: ${missed} missed, ${twice} twice`);
	}
	const files = new Map<string, { served: number[]; refused: number }>();
	for (const r of requests) {
		const id = /\/envelopes\/([^/]+)\/file$/.exec(r.path)?.[1];
		if (!id || r.method !== 'GET') continue;
		const entry = files.get(id) ?? { served: [], refused: 0 };
		if (r.status === 200) entry.served.push(Date.parse(r.time));
		else entry.refused++;
		files.set(id, entry);
	}
	const served = backlog.files.map((id) => files.get(id)?.served.length ?? 0);
	const refused = [...files.values()].reduce((sum, f) => sum + f.refused, 0);
	const again = servedAgain(backlog.files, files, drained.restart);
	figures.push(
		`file requests per envelope: ${Math.min(...served)} to ${Math.max(...served)} served, ${refused} refused or cut; served again: ${again.cut} downloaded by a poll the restart stopped (n8n keeps nothing of it), ${again.other} otherwise; ${SCHEDULED ? `n8n abandoned ${abandoned} polls` : 'abandoned polls: not applicable (classic poller)'}`,
	);
	for (const line of figures) log(`  ${line}`);
	if (served.some((n) => n === 0)) failures.push('a file emitted without being served');
	if (again.other > 0)
		failures.push(`${again.other} files served again that the restart does not explain`);
	if (SCHEDULED && abandoned > 0) failures.push(`n8n abandoned ${abandoned} polls`);
	if (!drained.restarted) failures.push('n8n was not restarted in the middle of a drain');
	expect(failures.length === 0, failures.join('; '));
}

/**
 * Files served more than once, split by why. A poll that n8n's restart stopped had downloaded
 * files it never emitted (n8n commits nothing of a poll it did not finish): those are fetched
 * again once, by the poll after the restart. Any other second serve is the trigger's waste.
 */
function servedAgain(
	ids: string[],
	files: Map<string, { served: number[] }>,
	restart: Drained['restart'],
): { cut: number; other: number } {
	let cut = 0;
	let other = 0;
	for (const id of ids) {
		const served = files.get(id)?.served ?? [];
		if (served.length < 2) continue;
		const stopped = restart && served[0] < restart.at && !restart.filesOut.has(id);
		if (stopped && served.length === 2 && served[1] > restart.at) cut++;
		else other++;
	}
	return { cut, other };
}
