/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/** Small measuring tools: percentiles, an RSS sampler, a forced GC, PDFs of a given size. */
import { randomBytes } from 'crypto';
import * as v8 from 'v8';
import * as vm from 'vm';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Nearest-rank percentile (p in 0..100) of the values. */
export function percentile(values: number[], p: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[rank - 1];
}

export const MB = 1024 * 1024;

/**
 * Samples process.memoryUsage() every `everyMs` until stopped; returns the peaks of RSS
 * and of Buffer memory (`arrayBuffers`, the bytes of live Buffers outside V8's heap).
 */
export function sampleRss(everyMs = 5): {
	stop(): { peak: number; peakBuffers: number; samples: number };
} {
	let peak = 0;
	let peakBuffers = 0;
	let samples = 0;
	const sample = () => {
		const { rss, arrayBuffers } = process.memoryUsage();
		samples += 1;
		peak = Math.max(peak, rss);
		peakBuffers = Math.max(peakBuffers, arrayBuffers);
	};
	sample();
	const timer = setInterval(sample, everyMs);
	return {
		stop() {
			clearInterval(timer);
			sample();
			return { peak, peakBuffers, samples };
		},
	};
}

let gcFn: (() => void) | undefined;

/** A full garbage collection (exposes V8's gc once, without a command-line flag). */
export function collectGarbage(): void {
	if (!gcFn) {
		v8.setFlagsFromString('--expose-gc');
		gcFn = vm.runInNewContext('gc') as () => void;
	}
	gcFn();
	gcFn();
}

/**
 * A valid PDF of about `bytes` bytes: one page of text plus an embedded file of random
 * (incompressible) bytes, so the size on the wire is the size asked for.
 */
export async function pdfOfSize(bytes: number, label: string): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const page = doc.addPage([595, 842]);
	page.drawText(label, { x: 50, y: 780, size: 18, font });
	page.drawText('Signature of tenant', { x: 50, y: 200, size: 12, font });
	const overhead = 1200;
	await doc.attach(randomBytes(Math.max(0, bytes - overhead)), 'annex.bin', {
		mimeType: 'application/octet-stream',
	});
	return Buffer.from(await doc.save());
}

export function round(value: number, digits = 1): number {
	const f = 10 ** digits;
	return Math.round(value * f) / f;
}

/** BENCH_N8N_ENV="NAME=value NAME2=value": more settings for the bench's n8n, e.g. N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. */
export function benchN8nEnv(): Record<string, string> {
	const pairs = (process.env.BENCH_N8N_ENV ?? '').split(' ').filter(Boolean);
	return Object.fromEntries(
		pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
	);
}
