/**
 * PDF work of the sandbox (pdf-lib): the signed copy of a completed envelope and the
 * e-stamp certificate page. Text is written with a standard font and saved without
 * object streams so it stays findable in the raw bytes; the Subject/Keywords metadata
 * also name the signers / certificate so tests need no text extractor.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

export interface SignerMark {
	name: string;
	email?: string;
	role: string;
	signedAt: string;
}

/** Stamps each signer's (and approver's) name and time onto the last page. */
export async function signPdf(
	original: Buffer,
	marks: SignerMark[],
	envelopeId: string,
): Promise<Buffer> {
	const doc = await PDFDocument.load(original, { ignoreEncryption: true });
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const pages = doc.getPages();
	const page = pages[pages.length - 1];
	let y = 40 + marks.length * 14;
	page.drawText(`Electronically signed - envelope ${envelopeId}`, {
		x: 36,
		y: y + 14,
		size: 9,
		font,
		color: rgb(0, 0, 0.5),
	});
	for (const mark of marks) {
		const verb = mark.role === 'approver' ? 'Approved by' : 'Signed by';
		page.drawText(`${verb} ${mark.name} at ${mark.signedAt}`, {
			x: 36,
			y,
			size: 9,
			font,
			color: rgb(0, 0, 0.5),
		});
		y -= 14;
	}
	const signers = marks.filter((m) => m.role === 'signer').map((m) => m.name);
	doc.setSubject(`signed-by:${signers.join(', ')}`);
	const earlier = doc.getKeywords();
	doc.setKeywords([
		...(earlier ? [earlier] : []),
		`envelope:${envelopeId}`,
		...marks.map((m) => `${m.role === 'approver' ? 'approved-by' : 'signed-by'}:${m.name}`),
	]);
	doc.setModificationDate(new Date());
	return Buffer.from(await doc.save({ useObjectStreams: false }));
}

export interface CertificateInfo {
	certificateId: string;
	state: string;
	article: string;
	amount: string;
	firstParty: string;
	secondParty: string;
	issuedAt: string;
}

/** Inserts an e-stamp certificate as page 1. */
export async function addEstampCertificate(
	original: Buffer,
	info: CertificateInfo,
): Promise<Buffer> {
	const doc = await PDFDocument.load(original, { ignoreEncryption: true });
	const font = await doc.embedFont(StandardFonts.Helvetica);
	const bold = await doc.embedFont(StandardFonts.HelveticaBold);
	const first = doc.getPageCount() > 0 ? doc.getPage(0).getSize() : { width: 595, height: 842 };
	const page = doc.insertPage(0, [first.width, first.height]);
	let y = first.height - 72;
	page.drawText('E-STAMP CERTIFICATE', { x: 72, y, size: 20, font: bold });
	const lines = [
		`Certificate No.: ${info.certificateId}`,
		`State: ${info.state}`,
		`Article: ${info.article}`,
		`Stamp duty amount (Rs.): ${info.amount}`,
		`First party: ${info.firstParty}`,
		`Second party: ${info.secondParty}`,
		`Issued at: ${info.issuedAt}`,
	];
	for (const line of lines) {
		y -= 24;
		page.drawText(line.length > 95 ? `${line.slice(0, 92)}...` : line, {
			x: 72,
			y,
			size: 11,
			font,
		});
	}
	doc.setSubject(`estamp-certificate:${info.certificateId}`);
	doc.setKeywords([`estamp-certificate:${info.certificateId}`, `estamp-state:${info.state}`]);
	return Buffer.from(await doc.save({ useObjectStreams: false }));
}
