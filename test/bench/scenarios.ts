/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The benchmarks. Each runs a real n8n workflow (Seed -> Document Signing) in this
 * process through the harness, against the sandbox in its own process over loopback
 * HTTP, checks that the work was really done, and returns its figures.
 */
import type { IDataObject, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';
import { PDFDocument } from 'pdf-lib';

import { DEFAULTS } from '../../nodes/shared/api/assumptions';
import {
	actionNode,
	chain,
	type Harness,
	type RunResult,
	type SeedItem,
	seedNode,
} from '../harness';
import { collectGarbage, MB, pdfOfSize, percentile, round, sampleRss } from './measure';
import type { RemoteSandbox } from './remote';

export const NODE = 'Document Signing';

const SIGNER = { name: 'Asha Rao', email: 'asha@example.com', role: 'signer' };

export interface Figure {
	/** Key used by targets.ts (and the table). */
	key: string;
	label: string;
	value: number;
	unit: string;
}

export interface BenchResult {
	name: string;
	figures: Figure[];
	/** Correctness problems (an item failed, a request missing...); any makes the run fail. */
	problems: string[];
}

export interface Context {
	h: Harness;
	sandbox: RemoteSandbox;
}

interface Timed {
	result: RunResult;
	items: INodeExecutionData[];
	/** Wall time of the whole workflow (Seed included), ms. */
	wallMs: number;
	/** n8n's own execution time of the Document Signing node, ms. */
	nodeMs: number;
}

/** Runs Seed -> Document Signing with the given parameters against the remote sandbox. */
async function runNode(ctx: Context, parameters: IDataObject, input: SeedItem[]): Promise<Timed> {
	const start = performance.now();
	const result = await ctx.h.run({
		nodes: [
			seedNode(),
			actionNode(
				{ resource: 'envelope', ...parameters } as Record<string, NodeParameterValueType>,
				{
					continueOnFail: true,
				},
			),
		],
		connections: chain('Seed', NODE),
		input,
		credentials: { baseUrl: ctx.sandbox.baseUrl, apiKey: ctx.sandbox.apiKey },
	});
	const wallMs = performance.now() - start;
	const nodeMs = result.runData[NODE]?.[0]?.executionTime ?? NaN;
	return { result, items: result.items(NODE), wallMs, nodeMs };
}

/** Problems common to every run: a workflow error, a missing output item, an error item. */
function outputProblems(run: Timed, expected: number): string[] {
	const problems: string[] = [];
	if (run.result.error) problems.push(`workflow error: ${run.result.error.message}`);
	if (run.items.length !== expected)
		problems.push(`${run.items.length} output items, expected ${expected}`);
	const failed = run.items.filter((item) => item.json.error !== undefined);
	if (failed.length)
		problems.push(`${failed.length} items failed, first: ${String(failed[0].json.error)}`);
	return problems;
}

const byExpression = (expression: string) => ({ __rl: true, mode: 'id', value: expression });

/** Runs `task` over `values` with at most `limit` in flight (seeding only). */
async function inParallel<T, R>(
	values: T[],
	limit: number,
	task: (value: T) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array(values.length);
	let next = 0;
	const worker = async () => {
		while (next < values.length) {
			const index = next++;
			results[index] = await task(values[index]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
	return results;
}

/** Creates an envelope through the API directly (setup, not measured). */
async function seedEnvelope(
	sandbox: RemoteSandbox,
	title: string,
	pdf?: Buffer,
): Promise<IDataObject> {
	const created = await sandbox.api<IDataObject>('POST', '/envelopes', {
		fileName: 'contract.pdf',
		title,
		recipients: [SIGNER],
	});
	if (pdf) {
		const upload = created.upload as { url: string };
		await sandbox.raw('PUT', upload.url, pdf, 'application/pdf');
	}
	return created;
}

// ---------------------------------------------------------------------------------------

export const CREATE_ITEMS = 200;
export const CREATE_PDF_BYTES = 200 * 1024;
export const INJECTED_LATENCY_MS = 20;

function createParams(): IDataObject {
	return {
		operation: 'create',
		pdfSource: 'binary',
		binaryPropertyName: 'data',
		title: '={{ "Bench lease " + $json.n }}',
		recipients: { recipient: [SIGNER] },
	};
}

/**
 * 1. Batch create with upload: CREATE_ITEMS items, each with a ~200 KB PDF. Per item:
 * from the start of its POST /envelopes to the end of its storage upload, as the
 * sandbox timed them (the k-th create pairs with the k-th upload: items run in order).
 */
export async function batchCreate(
	ctx: Context,
	latencyMs: number,
	tag: string,
): Promise<BenchResult> {
	const { sandbox } = ctx;
	await sandbox.reset();
	await sandbox.fault(latencyMs ? { latencyMs } : {});
	// One PDF for every item (n8n makes each item its own copy when the Seed node emits it).
	const pdf = await pdfOfSize(CREATE_PDF_BYTES, 'Lease');
	const input: SeedItem[] = Array.from({ length: CREATE_ITEMS }, (_, n) => ({
		json: { n },
		binary: { data: { data: pdf, fileName: `lease-${n}.pdf`, mimeType: 'application/pdf' } },
	}));
	await sandbox.clearTimings();

	const run = await runNode(ctx, createParams(), input);
	await sandbox.fault({});

	const problems = outputProblems(run, CREATE_ITEMS);
	const timings = await sandbox.timings();
	const creates = timings.filter((t) => t.method === 'POST' && t.path === '/api/v1/envelopes');
	const uploads = timings.filter(
		(t) => t.method === 'POST' && t.path.startsWith('/storage/upload/'),
	);
	if (creates.length !== CREATE_ITEMS || creates.some((t) => t.status !== 201))
		problems.push(`${creates.filter((t) => t.status === 201).length} creates answered 201`);
	if (uploads.length !== CREATE_ITEMS || uploads.some((t) => t.status !== 204))
		problems.push(`${uploads.filter((t) => t.status === 204).length} uploads answered 204`);
	run.items.forEach((item, n) => {
		const uploaded = item.json.uploaded as IDataObject | undefined;
		if (uploaded?.size !== pdf.length)
			problems.push(`item ${n}: uploaded ${String(uploaded?.size)} bytes`);
	});
	const perItem = creates.map((c, k) => (uploads[k] ? uploads[k].end - c.start : NaN));
	// The sandbox's own share: time between the two requests is the node's.
	const serverMs = creates.reduce(
		(sum, c, k) => sum + (c.end - c.start) + ((uploads[k]?.end ?? 0) - (uploads[k]?.start ?? 0)),
		0,
	);

	return {
		name: `Batch create + upload, ${CREATE_ITEMS} x ${CREATE_PDF_BYTES / 1024} KB PDF, ${latencyMs} ms latency`,
		problems: [...new Set(problems)].slice(0, 5),
		figures: [
			{
				key: `${tag}.itemsPerSecond`,
				label: 'items/s (node execution time)',
				value: round(CREATE_ITEMS / (run.nodeMs / 1000), 1),
				unit: 'items/s',
			},
			{
				key: `${tag}.nodeMs`,
				label: 'node execution time',
				value: Math.round(run.nodeMs),
				unit: 'ms',
			},
			{
				key: `${tag}.wallMs`,
				label: 'workflow wall time (Seed included)',
				value: Math.round(run.wallMs),
				unit: 'ms',
			},
			{
				key: `${tag}.p50`,
				label: 'per item p50 (create start -> upload end)',
				value: round(percentile(perItem, 50), 1),
				unit: 'ms',
			},
			{
				key: `${tag}.p95`,
				label: 'per item p95',
				value: round(percentile(perItem, 95), 1),
				unit: 'ms',
			},
			{
				key: `${tag}.meanPerItem`,
				label: 'node time per item (mean)',
				value: round(run.nodeMs / CREATE_ITEMS, 2),
				unit: 'ms',
			},
			{
				key: `${tag}.serverShare`,
				label: 'share of node time spent inside the sandbox',
				value: round((100 * serverMs) / run.nodeMs, 1),
				unit: '%',
			},
		],
	};
}

// ---------------------------------------------------------------------------------------

export const LARGE_ITEMS = 20;
export const LARGE_PDF_BYTES = Math.round(9.5 * MB);

/** Size of n8n's in-memory (base64) copy of one input file in 'default' binary mode. */
function base64Bytes(bytes: number): number {
	return Math.ceil(bytes / 3) * 4;
}

/**
 * 2. Large files: LARGE_ITEMS items of ~9.5 MB PDFs created and uploaded while RSS is
 * sampled every 5 ms. Growth is peak RSS minus RSS after a full GC just before the run.
 * n8n's 'default' binary mode keeps every input file in the items as base64, so the
 * inputs alone cost LARGE_ITEMS x base64 size; the node's own share is the rest.
 */
export async function largeFiles(ctx: Context): Promise<BenchResult> {
	const { sandbox } = ctx;
	await sandbox.reset();
	await sandbox.clearTimings();
	const pdf = await pdfOfSize(LARGE_PDF_BYTES, 'Large lease');
	const input: SeedItem[] = Array.from({ length: LARGE_ITEMS }, (_, n) => ({
		json: { n },
		binary: { data: { data: pdf, fileName: `large-${n}.pdf`, mimeType: 'application/pdf' } },
	}));

	collectGarbage();
	const { rss: before, arrayBuffers: buffersBefore, heapUsed: heapBefore } = process.memoryUsage();
	const sampler = sampleRss(5);
	let run: Timed | undefined = await runNode(ctx, createParams(), input);
	const { peak, peakBuffers, samples } = sampler.stop();

	const problems = outputProblems(run, LARGE_ITEMS);
	run.items.forEach((item, n) => {
		const uploaded = item.json.uploaded as IDataObject | undefined;
		if (uploaded?.size !== pdf.length)
			problems.push(`item ${n}: uploaded ${String(uploaded?.size)} bytes`);
	});
	const uploads = (await sandbox.timings()).filter(
		(t) => t.path.startsWith('/storage/upload/') && t.status === 204,
	);
	if (uploads.length !== LARGE_ITEMS) problems.push(`${uploads.length} uploads answered 204`);
	const { nodeMs } = run;
	run = undefined; // let the run's items (with their base64 copies) go
	collectGarbage();
	const after = process.memoryUsage();

	const growth = peak - before;
	const inputCopy = LARGE_ITEMS * base64Bytes(pdf.length);
	return {
		name: `Large files, ${LARGE_ITEMS} x ${round(pdf.length / MB, 2)} MB PDF`,
		problems: [...new Set(problems)].slice(0, 5),
		figures: [
			{
				key: 'large.peakGrowthMb',
				label: `peak RSS growth (${samples} samples)`,
				value: round(growth / MB, 1),
				unit: 'MB',
			},
			{
				key: 'large.inputCopyMb',
				label: "n8n's base64 copy of the inputs (20 x 12.7 MB)",
				value: round(inputCopy / MB, 1),
				unit: 'MB',
			},
			{
				key: 'large.nodeShareMb',
				label: 'peak growth beyond the input copy',
				value: round((growth - inputCopy) / MB, 1),
				unit: 'MB',
			},
			{
				key: 'large.peakBuffersMb',
				label: 'peak growth of Buffer memory (arrayBuffers)',
				value: round((peakBuffers - buffersBefore) / MB, 1),
				unit: 'MB',
			},
			{
				key: 'large.retainedMb',
				label: 'heap + Buffers kept after the run and a GC',
				value: round((after.heapUsed + after.arrayBuffers - heapBefore - buffersBefore) / MB, 1),
				unit: 'MB',
			},
			{ key: 'large.nodeMs', label: 'node execution time', value: Math.round(nodeMs), unit: 'ms' },
			{
				key: 'large.mbPerSecond',
				label: 'upload throughput',
				value: round((LARGE_ITEMS * pdf.length) / MB / (nodeMs / 1000), 1),
				unit: 'MB/s',
			},
		],
	};
}

// ---------------------------------------------------------------------------------------

export const LIST_ENVELOPES = 1000;
/** The API's largest page (assumptions.ts), which Return All asks for. */
export const MAX_PAGE_SIZE = DEFAULTS.maxLimit;

/** 3. getMany with Return All over LIST_ENVELOPES envelopes (seeded over HTTP). */
export async function listAll(ctx: Context): Promise<BenchResult> {
	const { sandbox } = ctx;
	await sandbox.reset();
	await inParallel(
		Array.from({ length: LIST_ENVELOPES }, (_, n) => n),
		8,
		(n) => seedEnvelope(sandbox, `Listed ${n}`),
	);
	const logged = (await sandbox.requests()).length;

	const run = await runNode(ctx, { operation: 'getMany', returnAll: true }, [{ json: {} }]);

	const problems = outputProblems(run, LIST_ENVELOPES);
	const requests = (await sandbox.requests()).slice(logged);
	const lists = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/envelopes');
	if (lists.length !== requests.length)
		problems.push(`${requests.length - lists.length} other requests`);
	if (lists.some((r) => Number(r.query.limit) !== MAX_PAGE_SIZE))
		problems.push(`a page was not read with limit=${MAX_PAGE_SIZE}`);
	const ids = new Set(run.items.map((item) => item.json.id));
	if (ids.size !== LIST_ENVELOPES) problems.push(`${ids.size} distinct envelopes listed`);

	return {
		name: `getMany Return All over ${LIST_ENVELOPES} envelopes`,
		problems,
		figures: [
			{ key: 'list.requests', label: 'API requests', value: requests.length, unit: 'requests' },
			{ key: 'list.items', label: 'items returned', value: run.items.length, unit: 'items' },
			{
				key: 'list.nodeMs',
				label: 'node execution time',
				value: Math.round(run.nodeMs),
				unit: 'ms',
			},
			{
				key: 'list.wallMs',
				label: 'workflow wall time',
				value: Math.round(run.wallMs),
				unit: 'ms',
			},
		],
	};
}

// ---------------------------------------------------------------------------------------

export const DOWNLOADS = 50;

/** 4. downloadFile of DOWNLOADS signed (completed) envelopes into binary data. */
export async function downloadSigned(ctx: Context): Promise<BenchResult> {
	const { sandbox } = ctx;
	await sandbox.reset();
	const pdf = await pdfOfSize(CREATE_PDF_BYTES, 'Signed lease');
	// Setup over HTTP: create, upload, send, and the signer signs through the action link.
	const ids = await inParallel(
		Array.from({ length: DOWNLOADS }, (_, n) => n),
		4,
		async (n) => {
			const created = await seedEnvelope(sandbox, `Signed ${n}`, pdf);
			const sent = await sandbox.api<IDataObject>('POST', `/envelopes/${String(created.id)}/send`);
			const [recipient] = sent.recipients as Array<{ actionUrl: string }>;
			await sandbox.raw('POST', recipient.actionUrl, '{}', 'application/json');
			return String(created.id);
		},
	);
	for (const id of ids) {
		const status = await sandbox.api<IDataObject>('GET', `/envelopes/${id}/status`);
		if (status.status !== 'completed')
			throw new Error(`envelope ${id} is ${String(status.status)}`);
	}
	const logged = (await sandbox.requests()).length;

	const run = await runNode(
		ctx,
		{
			operation: 'downloadFile',
			envelopeId: byExpression('={{ $json.envelopeId }}'),
			binaryPropertyName: 'signed',
		},
		ids.map((envelopeId) => ({ json: { envelopeId } })),
	);

	const problems = outputProblems(run, DOWNLOADS);
	let bytes = 0;
	for (let n = 0; n < run.items.length; n++) {
		const data = await run.result.binary(NODE, n, 'signed');
		bytes += data.length;
		if (data.subarray(0, 5).toString('latin1') !== '%PDF-') problems.push(`item ${n}: not a PDF`);
		if (data.length !== run.items[n].json.size) problems.push(`item ${n}: size differs`);
		// The signed copy is the original plus the signature stamp.
		const signed = await PDFDocument.load(data, { updateMetadata: false });
		if (signed.getSubject() !== 'signed-by:Asha Rao')
			problems.push(`item ${n}: not the signed copy`);
	}
	const requests = (await sandbox.requests()).slice(logged);
	if (requests.length !== 2 * DOWNLOADS)
		problems.push(`${requests.length} requests, expected ${2 * DOWNLOADS}`);

	return {
		name: `Download ${DOWNLOADS} signed PDFs as binary`,
		problems: [...new Set(problems)].slice(0, 5),
		figures: [
			{
				key: 'download.itemsPerSecond',
				label: 'items/s (node execution time)',
				value: round(DOWNLOADS / (run.nodeMs / 1000), 1),
				unit: 'items/s',
			},
			{
				key: 'download.nodeMs',
				label: 'node execution time',
				value: Math.round(run.nodeMs),
				unit: 'ms',
			},
			{ key: 'download.mb', label: 'PDF bytes received', value: round(bytes / MB, 1), unit: 'MB' },
			{
				key: 'download.requests',
				label: 'requests (file address + storage GET)',
				value: requests.length,
				unit: 'requests',
			},
		],
	};
}

// ---------------------------------------------------------------------------------------

export const STATUS_CALLS = 200;
export const FAILURE_RATE = 0.1;
/** The sandbox answers injected 503s with Retry-After: 1 (seconds). */
export const RETRY_AFTER_MS = 1000;

/** 5. getStatus over STATUS_CALLS envelopes while 10 % of status requests answer 503. */
export async function retries(ctx: Context): Promise<BenchResult> {
	const { sandbox } = ctx;
	await sandbox.reset();
	const ids = await inParallel(
		Array.from({ length: STATUS_CALLS }, (_, n) => n),
		8,
		async (n) => String((await seedEnvelope(sandbox, `Status ${n}`)).id),
	);
	await sandbox.fault({
		seed: 20240601,
		failures: [{ status: 503, rate: FAILURE_RATE, path: '/envelopes/' }],
	});
	const logged = (await sandbox.requests()).length;

	const run = await runNode(
		ctx,
		{ operation: 'getStatus', envelopeId: byExpression('={{ $json.envelopeId }}') },
		ids.map((envelopeId) => ({ json: { envelopeId } })),
	);
	await sandbox.fault({});

	const problems = outputProblems(run, STATUS_CALLS);
	run.items.forEach((item, n) => {
		if (item.json.envelopeId !== ids[n])
			problems.push(`item ${n}: status of ${String(item.json.envelopeId)}`);
	});
	const requests = (await sandbox.requests()).slice(logged);
	const failed = requests.filter((r) => r.status === 503).length;
	const ok = requests.filter((r) => r.status === 200).length;
	if (ok !== STATUS_CALLS) problems.push(`${ok} status requests answered 200`);
	if (requests.length !== ok + failed) problems.push('requests with other statuses');
	const waitMs = failed * RETRY_AFTER_MS;

	return {
		name: `getStatus x ${STATUS_CALLS} with ${FAILURE_RATE * 100} % injected 503 (Retry-After: 1)`,
		problems: [...new Set(problems)].slice(0, 5),
		figures: [
			{
				key: 'retry.succeeded',
				label: 'items succeeded',
				value: run.items.filter((i) => i.json.error === undefined).length,
				unit: 'items',
			},
			{
				key: 'retry.retries',
				label: 'retries (503 answers in the request log)',
				value: failed,
				unit: 'retries',
			},
			{ key: 'retry.requests', label: 'API requests', value: requests.length, unit: 'requests' },
			{
				key: 'retry.nodeMs',
				label: 'node execution time',
				value: Math.round(run.nodeMs),
				unit: 'ms',
			},
			{
				key: 'retry.waitMs',
				label: 'of which Retry-After waits (retries x 1 s)',
				value: waitMs,
				unit: 'ms',
			},
			{
				key: 'retry.overheadMs',
				label: 'node time beyond the waits',
				value: Math.round(run.nodeMs - waitMs),
				unit: 'ms',
			},
		],
	};
}
