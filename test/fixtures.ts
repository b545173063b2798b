/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Test inputs and waits used across suites (one copy each). */

/** A real PDF with `pages` pages, each saying its number, with a line to place a signature above. */
export async function makePdf(pages = 1, label = 'Agreement'): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	for (let p = 1; p <= pages; p++) {
		const page = doc.addPage([595, 842]);
		page.drawText(`${label} - page ${p}`, { x: 50, y: 780, size: 18, font });
		page.drawText('Signature of tenant', { x: 50, y: 200, size: 12, font });
	}
	return Buffer.from(await doc.save());
}

/** A buffer of exactly `size` bytes that starts like a PDF. */
export function pdfOfSize(size: number): Buffer {
	const data = Buffer.alloc(size, 0x20);
	data.write('%PDF-1.7\n', 0, 'latin1');
	return data;
}

/** Polls `check` until it gives a truthy value (the sandbox's e-stamp and deliveries run on timers). */
export async function waitFor<T>(
	check: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 10_000,
): Promise<T> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > end) throw new Error('timed out waiting');
		// real time: the sandbox works over HTTP on real timers; ends as soon as `check` holds
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}
