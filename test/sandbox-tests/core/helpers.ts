/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** Shared helpers of the sandbox core tests: a started sandbox, an HTTP client and PDFs. */
import axios, { type AxiosInstance } from 'axios';
import express from 'express';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { makePdf } from '../../fixtures';
import { startSandbox, type Sandbox } from '../../sandbox/server';

export type { Sandbox };
export { startSandbox };

/** An axios client for the API that never throws on HTTP status. */
export function client(sandbox: Sandbox, apiKey: string | null = sandbox.apiKey): AxiosInstance {
	return axios.create({
		baseURL: sandbox.baseUrl,
		validateStatus: () => true,
		headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
	});
}

export { makePdf, pdfOfSize, waitFor } from '../../fixtures';
/** A client for the /__sandbox admin routes. */
export { admin } from '../../sandbox-admin';

export interface UploadConfig {
	url: string;
	fields: Record<string, string>;
}

/** Multipart POST: every field, then the file (order and contents adjustable for error cases). */
export async function uploadPost(
	upload: UploadConfig,
	data: Buffer,
	opts: {
		omit?: string;
		alter?: Record<string, string>;
		fileFirst?: boolean;
		fileType?: string;
		headers?: Record<string, string>;
	} = {},
): Promise<{ status: number; body: any }> {
	const form = new FormData();
	const file = new Blob([data], { type: opts.fileType ?? 'application/pdf' });
	if (opts.fileFirst) form.append('file', file, 'document.pdf');
	for (const [name, value] of Object.entries(upload.fields)) {
		if (name === opts.omit) continue;
		form.append(name, opts.alter?.[name] ?? value);
	}
	if (!opts.fileFirst) form.append('file', file, 'document.pdf');
	const response = await fetch(upload.url, { method: 'POST', body: form, headers: opts.headers });
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function uploadPut(
	url: string,
	data: Buffer,
	contentType = 'application/pdf',
): Promise<{ status: number; body: any }> {
	const response = await fetch(url, {
		method: 'PUT',
		body: data,
		headers: { 'Content-Type': contentType },
	});
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : null };
}

export const signer = (name: string, extra: Record<string, unknown> = {}) => ({
	name,
	email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
	role: 'signer',
	...extra,
});

/** A complete estampConfig for Karnataka. */
export function estampConfig(firstPartyName = 'Acme Private Limited') {
	return {
		state: 'KA',
		article: 'Affidavit',
		amount: '100',
		considerationAmount: '0',
		firstParty: {
			name: firstPartyName,
			email: 'legal@acme.example',
			address: '1 MG Road, Bengaluru',
		},
		secondParty: {
			name: 'Ravi Kumar',
			email: 'ravi@example.com',
			address: '2 Brigade Road, Bengaluru',
		},
	};
}

/** Creates an envelope and uploads a PDF; returns the create response. */
export async function draftWithPdf(
	api: AxiosInstance,
	body: Record<string, unknown>,
	pdf?: Buffer,
): Promise<any> {
	const created = await api.post('/envelopes', { fileName: 'contract.pdf', ...body });
	if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.data)}`);
	const put = await uploadPut(created.data.upload.url, pdf ?? (await makePdf()));
	if (put.status !== 200) throw new Error(`upload failed: ${JSON.stringify(put.body)}`);
	return created.data;
}

/** A small webhook receiver on port 0 that records raw bodies; `failFirst` answers 500 that many times. */
export async function startReceiver(opts: { failFirst?: number } = {}): Promise<{
	url: string;
	received: Array<{ raw: Buffer; headers: Record<string, unknown>; body: any }>;
	hits: number;
	close(): Promise<void>;
}> {
	const app = express();
	const state = {
		received: [] as Array<{ raw: Buffer; headers: Record<string, unknown>; body: any }>,
		hits: 0,
	};
	let failures = opts.failFirst ?? 0;
	app.post('/hook', express.raw({ type: '*/*' }), (req, res) => {
		state.hits += 1;
		if (failures > 0) {
			failures -= 1;
			res.status(500).send('not now');
			return;
		}
		state.received.push({
			raw: req.body as Buffer,
			headers: req.headers,
			body: JSON.parse((req.body as Buffer).toString('utf8')),
		});
		res.status(200).json({ ok: true });
	});
	const server: Server = await new Promise((resolve) => {
		const s = app.listen(0, '127.0.0.1', () => resolve(s));
	});
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		get received() {
			return state.received;
		},
		get hits() {
			return state.hits;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/**
 * Text drawn by pdf-lib with a standard font: inflates the content streams and decodes
 * the hex strings of `Tj` operators. Enough to read back what the sandbox stamped.
 */
export function pdfTextOf(pdf: Buffer): string {
	const { inflateSync } = require('zlib') as typeof import('zlib');
	const raw = pdf.toString('latin1');
	const out: string[] = [];
	const streamRe = /(?<!end)stream\r?\n/g;
	let match: RegExpExecArray | null;
	while ((match = streamRe.exec(raw))) {
		const start = match.index + match[0].length;
		const end = raw.indexOf('endstream', start);
		if (end < 0) break;
		const bytes = pdf.subarray(start, end);
		let content: string;
		try {
			content = inflateSync(bytes).toString('latin1');
		} catch {
			content = bytes.toString('latin1');
		}
		for (const hex of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
			out.push(Buffer.from(hex[1], 'hex').toString('latin1'));
		for (const lit of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) out.push(lit[1]);
		streamRe.lastIndex = end;
	}
	return out.join('\n');
}
