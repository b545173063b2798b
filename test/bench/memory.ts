/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * Scenario 4 of `npm run bench`: the memory a 10 MB PDF upload adds to a real n8n's peak,
 * in n8n's `filesystem` binary-data mode (the default of regular mode) and in the
 * in-memory `default` mode. One n8n per mode; each holds two webhook workflows that read
 * the same file from disk: one uploads it with this node (envelope create with upload),
 * the other ends in an Edit Fields node that outputs an empty item (no binary, as the
 * create's output has none). The n8n process's peak RSS (VmHWM, reset through
 * /proc/<pid>/clear_refs before each run) over its RSS just before the run is measured
 * for both, alternately; the node's share is the difference of the medians, so what n8n
 * itself spends on reading the file and recording the execution is not counted.
 * Before each sample n8n runs a full garbage collection (asked for through its inspector,
 * open on loopback for this bench only), so the RSS a sample starts from does not depend
 * on how much garbage the earlier runs left.
 */
import axios from 'axios';
import { promises as fs } from 'fs';
import * as path from 'path';

import { freePort, NODE24, run, Stack, type WorkflowFixture } from '../../scripts/lib/stack';
import { MB, pdfOfSize } from './measure';
import { CREDENTIAL_ID, PACKAGE_NODE } from './contenders';

export const MEMORY_PDF_BYTES = 10_000_000;
const RUNS = 9;
const WARM_UP = 2;

export interface MemoryFigure {
	mode: string;
	/** Median peak added by the upload workflow, bytes. */
	upload: number;
	/** Median peak added by the same workflow without the upload, bytes. */
	readOnly: number;
	/** upload - readOnly: what this node adds. */
	node: number;
	samples: { upload: number[]; readOnly: number[] };
}

function memoryWorkflow(id: string, pathName: string, upload: boolean): WorkflowFixture {
	const last = upload
		? {
				name: 'Create Envelope',
				type: PACKAGE_NODE,
				typeVersion: 1,
				credentials: { documentSigningApi: { id: CREDENTIAL_ID, name: 'Document Signing bench' } },
				parameters: {
					resource: 'envelope',
					operation: 'create',
					pdfSource: 'binary',
					binaryPropertyName: 'data',
					title: 'Memory bench',
					recipients: {
						recipient: [{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer' }],
					},
				},
			}
		: // Ends like the upload does: one item of JSON without the binary (Edit Fields with no
			// fields keeps none). A No Operation node would pass the file on, and in default mode
			// n8n would then record it twice, which the upload run does not.
			{ name: 'Create Envelope', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: {} };
	const tail = id.slice(-2);
	return {
		id,
		name: `Bench: 10 MB ${upload ? 'upload' : 'read only'}`,
		active: true,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `c4d5e6f7-0000-4000-8000-0000000000${tail}`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `c4d5e6f7-0000-4000-8000-0000000001${tail}`,
				parameters: {
					httpMethod: 'POST',
					path: pathName,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: `c4d5e6f7-0000-4000-8000-0000000002${tail}`,
				name: 'Read PDF',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				position: [200, 0],
				parameters: {
					operation: 'read',
					fileSelector: '__FILES_DIR__/large.pdf',
					options: { dataPropertyName: 'data' },
				},
			},
			{ id: `c4d5e6f7-0000-4000-8000-0000000003${tail}`, position: [400, 0], ...last },
		],
		connections: {
			Webhook: { main: [[{ node: 'Read PDF', type: 'main', index: 0 }]] },
			'Read PDF': { main: [[{ node: 'Create Envelope', type: 'main', index: 0 }]] },
		},
	};
}

export async function kb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
	const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
	if (!match) throw new Error(`no ${field} for process ${pid}`);
	return Number(match[1]) * 1024;
}

/**
 * A full garbage collection in the n8n whose inspector listens on `port`, through the
 * DevTools protocol (HeapProfiler.collectGarbage). Node 24 runs the client: it has a
 * WebSocket client built in.
 */
async function collectGarbage(port: number): Promise<void> {
	const client = `
		const targets = await (await fetch('http://127.0.0.1:${port}/json/list')).json();
		const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
		socket.onopen = () => socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
		socket.onmessage = (event) => { if (JSON.parse(event.data).id === 1) socket.close(); };
		socket.onerror = () => process.exit(1);
		socket.onclose = () => process.exit(0);`;
	await run(NODE24, ['--input-type=module', '-e', client]);
}

/** Peak RSS of n8n during one run of the workflow at `url`, over its RSS just before. */
async function peakAdded(
	pid: number,
	inspectPort: number,
	url: string,
	check: (data: Record<string, unknown>) => void,
): Promise<number> {
	await new Promise((r) => setTimeout(r, 300)); // let the last run's answer settle
	await collectGarbage(inspectPort);
	await new Promise((r) => setTimeout(r, 200)); // and the pages it frees return
	const before = await kb(pid, 'VmRSS');
	await fs.writeFile(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
	const response = await axios.post(url, {}, { validateStatus: () => true, timeout: 120_000 });
	if (response.status !== 200)
		throw new Error(
			`${url} answered ${response.status}: ${JSON.stringify(response.data).slice(0, 300)}`,
		);
	check(response.data as Record<string, unknown>);
	return (await kb(pid, 'VmHWM')) - before;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measureMode(
	mode: 'filesystem' | 'default',
	pdf: Buffer,
	log: (line: string) => void,
): Promise<MemoryFigure> {
	const inspectPort = await freePort();
	const stack = new Stack({
		name: `bench-memory-${mode}`,
		fresh: true,
		log,
		n8nEnv: { N8N_DEFAULT_BINARY_DATA_MODE: mode },
		n8nNodeArgs: [`--inspect=127.0.0.1:${inspectPort}`],
	});
	const upload = memoryWorkflow('DsBenchMemUpl001', 'bench-memory-upload', true);
	const readOnly = memoryWorkflow('DsBenchMemRead01', 'bench-memory-read', false);
	try {
		await stack.start({
			credentials: (sandbox) => [
				{
					id: CREDENTIAL_ID,
					name: 'Document Signing bench',
					type: 'documentSigningApi',
					data: {
						baseUrl: sandbox.baseUrl,
						apiKey: sandbox.apiKey,
						webhookSecret: sandbox.webhookSecret,
					},
				},
			],
			workflows: [upload, readOnly],
			substitutions: { __FILES_DIR__: stack.filesDir },
		});
		await fs.writeFile(path.join(stack.filesDir, 'large.pdf'), pdf);
		const pid = stack.processes.pidOf('n8n');
		if (!pid) throw new Error('n8n is not running');
		const uploaded = (data: Record<string, unknown>) => {
			const size = (data.uploaded as { size?: number } | undefined)?.size;
			if (size !== pdf.length)
				throw new Error(`the upload run uploaded ${String(size)} bytes, not ${pdf.length}`);
		};
		const read = (data: Record<string, unknown>) => {
			if (!data || typeof data !== 'object') throw new Error('the read-only run answered nothing');
		};
		const urls = {
			upload: `${stack.n8nUrl}/webhook/bench-memory-upload`,
			readOnly: `${stack.n8nUrl}/webhook/bench-memory-read`,
		};
		const samples = { upload: [] as number[], readOnly: [] as number[] };
		for (let k = 0; k < WARM_UP + RUNS; k++) {
			const u = await peakAdded(pid, inspectPort, urls.upload, uploaded);
			const r = await peakAdded(pid, inspectPort, urls.readOnly, read);
			if (k >= WARM_UP) {
				samples.upload.push(u);
				samples.readOnly.push(r);
			}
		}
		const figure = {
			mode,
			upload: median(samples.upload),
			readOnly: median(samples.readOnly),
			node: 0,
			samples,
		};
		figure.node = figure.upload - figure.readOnly;
		log(
			`4 (${mode}): upload ${(figure.upload / MB).toFixed(1)} MB, read only ${(figure.readOnly / MB).toFixed(1)} MB (medians of ${RUNS})`,
		);
		return figure;
	} finally {
		await stack.stop();
	}
}

/** Scenario 4 in both binary-data modes. */
export async function uploadMemory(log: (line: string) => void): Promise<MemoryFigure[]> {
	const pdf = await pdfOfSize(MEMORY_PDF_BYTES, 'Memory bench');
	const figures: MemoryFigure[] = [];
	for (const mode of ['filesystem', 'default'] as const)
		figures.push(await measureMode(mode, pdf, log));
	return figures;
}
