/**
 * The presigned storage of the sandbox (outside /api/v1, no Bearer key needed).
 * Errors answer like an object store, as JSON {code, message}:
 *   403 AccessDenied        unknown or expired address, or a form field altered
 *   400 InvalidArgument     a form field missing
 *   400 MalformedPOSTRequest no file part, or the file not the last part
 *   400 InvalidContentType  not application/pdf, or the bytes do not start with %PDF-
 *   413 EntityTooLarge      more than maxFileSize (10485760) bytes
 * Success: multipart POST -> 204; PUT -> 200 with an ETag.
 */
import Busboy from 'busboy';
import { createHash } from 'crypto';
import { Router, type Request, type Response } from 'express';
import { isPdf } from '../spec/limits';
import { contentOf, type SandboxState, type UploadGrant } from '../state';

function storageError(res: Response, status: number, code: string, message: string): void {
	if (!res.headersSent) res.status(status).json({ code, message });
}

/** The grant of a live upload address, or an answer explaining why not. */
function grantOf(state: SandboxState, req: Request, res: Response): UploadGrant | undefined {
	const grant = state.uploads.get(String(req.params.token));
	if (!grant) {
		storageError(res, 403, 'AccessDenied', 'Unknown or revoked upload address');
		return undefined;
	}
	if (state.nowMs() > grant.expiresAt) {
		storageError(
			res,
			403,
			'AccessDenied',
			'Request has expired: the upload address was valid for 3600 seconds',
		);
		return undefined;
	}
	return grant;
}

function store(state: SandboxState, grant: UploadGrant, data: Buffer): string {
	state.storage.set(grant.fileKey, {
		data,
		contentType: 'application/pdf',
		uploadedAt: state.nowIso(),
	});
	return `"${createHash('md5').update(data).digest('hex')}"`;
}

/** Reads the request body up to limit+1 bytes, then drains the rest (so the client gets the answer). */
function readBody(req: Request, limit: number): Promise<{ data: Buffer; tooLarge: boolean }> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => resolve({ data: Buffer.concat(chunks), tooLarge }));
		req.on('error', reject);
	});
}

export default function storageRoutes(state: SandboxState): Router {
	const router = Router();

	router.put('/upload/:token', async (req, res) => {
		const grant = grantOf(state, req, res);
		const contentType = String(req.headers['content-type'] ?? '')
			.split(';')[0]
			.trim()
			.toLowerCase();
		const { data, tooLarge } = await readBody(req, grant?.maxFileSize ?? 0);
		if (!grant) return;
		if (contentType !== 'application/pdf') {
			return storageError(
				res,
				400,
				'InvalidContentType',
				`Content-Type must be application/pdf, got ${contentType || 'none'}`,
			);
		}
		if (tooLarge) {
			return storageError(
				res,
				413,
				'EntityTooLarge',
				`The file exceeds the maximum size of ${grant.maxFileSize} bytes`,
			);
		}
		if (!isPdf(data))
			return storageError(
				res,
				400,
				'InvalidContentType',
				'The file is not a PDF (it does not start with %PDF-)',
			);
		const etag = store(state, grant, data);
		res.setHeader('ETag', etag);
		res.status(200).end();
	});

	router.post('/upload/:token', (req, res) => {
		const grant = grantOf(state, req, res);
		let busboy: Busboy.Busboy;
		try {
			busboy = Busboy({
				headers: req.headers,
				limits: { fileSize: (grant?.maxFileSize ?? 0) + 1 },
			});
		} catch (e) {
			req.resume();
			return storageError(
				res,
				400,
				'MalformedPOSTRequest',
				`The body must be multipart/form-data: ${(e as Error).message}`,
			);
		}
		const fields: Record<string, string> = {};
		let problem: { status: number; code: string; message: string } | undefined;
		let file: { data: Buffer; mimeType: string; tooLarge: boolean } | undefined;
		const fail = (status: number, code: string, message: string) => {
			problem ??= { status, code, message };
		};

		busboy.on('field', (name, value) => {
			if (file)
				fail(
					400,
					'MalformedPOSTRequest',
					`The file must be the last part of the form; field "${name}" came after it`,
				);
			fields[name] = value;
		});
		busboy.on('file', (_name, stream, info) => {
			if (file)
				fail(
					400,
					'MalformedPOSTRequest',
					'Only one file may be uploaded, as the last part of the form',
				);
			const chunks: Buffer[] = [];
			const current = { data: Buffer.alloc(0), mimeType: info.mimeType, tooLarge: false };
			file ??= current;
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('limit', () => {
				current.tooLarge = true;
			});
			stream.on('end', () => {
				current.data = Buffer.concat(chunks);
			});
		});
		busboy.on('error', (e: Error) => {
			fail(400, 'MalformedPOSTRequest', `Malformed multipart body: ${e.message}`);
			req.unpipe(busboy);
			req.resume();
			finish();
		});
		busboy.on('close', () => finish());
		req.pipe(busboy);

		let finished = false;
		function finish() {
			if (finished) return;
			finished = true;
			if (!grant) return; // already answered
			if (!problem && file) {
				// Every field of the upload configuration must come, unchanged, before the file.
				for (const [name, expected] of Object.entries(grant.fields)) {
					if (!(name in fields)) {
						fail(
							400,
							'InvalidArgument',
							`Missing form field "${name}": send every upload.fields entry before the file`,
						);
						break;
					}
					if (fields[name] !== expected) {
						fail(
							403,
							'AccessDenied',
							`Invalid according to Policy: form field "${name}" does not match the upload configuration`,
						);
						break;
					}
				}
			}
			if (!problem && !file)
				fail(
					400,
					'MalformedPOSTRequest',
					'No file part: the PDF must be the last part of the form',
				);
			if (!problem && file && file.mimeType.toLowerCase() !== 'application/pdf') {
				fail(
					400,
					'InvalidContentType',
					`The file part must have Content-Type application/pdf, got ${file.mimeType}`,
				);
			}
			if (!problem && file?.tooLarge) {
				fail(
					413,
					'EntityTooLarge',
					`The file exceeds the maximum size of ${grant.maxFileSize} bytes`,
				);
			}
			if (!problem && file && !isPdf(file.data)) {
				fail(400, 'InvalidContentType', 'The file is not a PDF (it does not start with %PDF-)');
			}
			if (problem) return storageError(res, problem.status, problem.code, problem.message);
			const etag = store(state, grant, file!.data);
			res.setHeader('ETag', etag);
			res.status(204).end();
		}
	});

	router.get('/download/:token', async (req, res) => {
		const grant = state.downloads.get(String(req.params.token));
		if (!grant) return storageError(res, 403, 'AccessDenied', 'Unknown download address');
		if (state.nowMs() > grant.expiresAt) {
			return storageError(
				res,
				403,
				'AccessDenied',
				'Request has expired: the download address was valid for 3600 seconds',
			);
		}
		const object = state.storage.get(grant.fileKey);
		if (!object) return storageError(res, 404, 'NoSuchKey', 'The file no longer exists');
		res.setHeader('Content-Type', object.contentType);
		res.setHeader(
			'Content-Disposition',
			`attachment; filename="${grant.fileName.replace(/"/g, '')}"`,
		);
		let data: Buffer;
		try {
			data = await contentOf(object);
		} catch {
			return storageError(res, 500, 'InternalError', 'The file could not be read');
		}
		res.status(200).send(data);
	});

	return router;
}
