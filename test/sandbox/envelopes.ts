/**
 * Envelope rules of the sandbox, shared by POST /envelopes, template document creation
 * and reusable workflow runs: record creation with defaults, the presigned upload grant,
 * response shapes, every send requirement, the e-stamp step and signing progress.
 */
import { CREDITS_PER_AADHAAR_RECIPIENT, GUESSED_DEFAULTS } from './guesses';
import { addEstampCertificate, signPdf } from './pdf';
import {
	type EnvelopeField,
	type EnvelopeRecord,
	type RecipientRecord,
	type RecipientRole,
	type SandboxState,
	type WorkflowSettings,
	type WorkspaceRef,
	MAX_FILE_SIZE,
	UPLOAD_EXPIRES_IN,
	sameWorkspace,
} from './state';
import { rulesFor } from './spec';
import { ESTAMP_CHECK_INTERVAL_MS } from './spec/limits';
import { choicesOf } from './variant';
import { emitEvent } from './webhooks';

/**
 * E-stamp provider failure trigger: an `estampConfig.firstParty.name` equal to this value
 * makes the simulated provider fail the purchase (terminal failure; envelope `estamp_failed`,
 * or `estamp_error` in the variant mode).
 */
export const PROVIDER_FAILURE_NAME = 'Provider Failure';

export interface RecipientInput {
	id?: string;
	name: string;
	email?: string;
	phone?: string;
	role?: string;
	order?: number;
	signatureMethod?: string;
	verificationMethod?: string;
	signaturePlacement?: Record<string, unknown>;
}

export interface CreateEnvelopeInput {
	fileName: string;
	title?: string;
	recipients?: RecipientInput[];
	workflow?: Partial<WorkflowSettings> & Record<string, unknown>;
	/** Form fields (template use); recipientId must already name an envelope recipient. */
	fields?: EnvelopeField[];
	templateId?: string;
	/** PDF bytes to store at once (template use); otherwise the caller uploads. */
	file?: Buffer;
}

export interface UploadConfig {
	url: string;
	fields: Record<string, string>;
}

/** Applies recipient defaults; `firstOrder` is the order of the first new recipient when omitted. */
export function buildRecipients(
	state: SandboxState,
	input: RecipientInput[],
	firstOrder = 1,
): RecipientRecord[] {
	return input.map((r, index) => ({
		id: r.id ?? state.newId('rcp'),
		name: r.name,
		...(r.email !== undefined ? { email: r.email } : {}),
		...(r.phone !== undefined ? { phone: r.phone } : {}),
		role: (r.role ?? GUESSED_DEFAULTS.recipientRole) as RecipientRole,
		order: r.order ?? firstOrder + index,
		signatureMethod: r.signatureMethod ?? GUESSED_DEFAULTS.recipientSignatureMethod,
		...(r.verificationMethod !== undefined ? { verificationMethod: r.verificationMethod } : {}),
		...(r.signaturePlacement !== undefined ? { signaturePlacement: r.signaturePlacement } : {}),
		status: 'pending',
		token: state.newToken(),
	}));
}

export function buildWorkflow(input: Record<string, unknown> = {}): WorkflowSettings {
	const d = GUESSED_DEFAULTS.workflow;
	return {
		...input,
		mode: (input.mode as string) ?? d.mode,
		verificationMethod: (input.verificationMethod as string) ?? d.verificationMethod,
		reminderEveryHours: (input.reminderEveryHours as number) ?? d.reminderEveryHours,
		emailNotifications: (input.emailNotifications as string) ?? d.emailNotifications,
		whatsappNotifications: (input.whatsappNotifications as string) ?? d.whatsappNotifications,
		estampEnabled: (input.estampEnabled as boolean) ?? false,
	} as WorkflowSettings;
}

/**
 * A presigned upload address for fileKey, valid UPLOAD_EXPIRES_IN seconds of the sandbox
 * clock. The form fields mimic an S3 POST policy; every one must come back unchanged.
 */
export function createUploadGrant(state: SandboxState, fileKey: string): UploadConfig {
	const token = state.newToken();
	const expiresAt = state.nowMs() + UPLOAD_EXPIRES_IN * 1000;
	const policy = Buffer.from(
		JSON.stringify({
			expiration: new Date(expiresAt).toISOString(),
			conditions: [
				{ key: fileKey },
				{ 'Content-Type': 'application/pdf' },
				['content-length-range', 1, MAX_FILE_SIZE],
			],
		}),
	).toString('base64');
	const fields: Record<string, string> = {
		key: fileKey,
		'Content-Type': 'application/pdf',
		policy,
		'x-sandbox-credential': `sandbox/${token.slice(0, 8)}`,
		'x-sandbox-signature': state.newToken(),
	};
	state.uploads.set(token, { token, fileKey, fields, expiresAt, maxFileSize: MAX_FILE_SIZE });
	return { url: `${state.origin}/storage/upload/${token}`, fields };
}

/** Creates a draft envelope (no validation: callers validate their own body first). */
export function createEnvelopeRecord(
	state: SandboxState,
	workspace: WorkspaceRef,
	input: CreateEnvelopeInput,
): { envelope: EnvelopeRecord; upload: UploadConfig } {
	const id = state.newId('env');
	const now = state.nowIso();
	const fileKey = `envelopes/${id}/${input.fileName}`;
	const envelope: EnvelopeRecord = {
		id,
		workspace,
		title: input.title ?? input.fileName,
		fileName: input.fileName,
		fileKey,
		status: 'draft',
		createdAt: now,
		updatedAt: now,
		recipients: buildRecipients(state, input.recipients ?? []),
		workflow: buildWorkflow(input.workflow),
		fields: input.fields ? input.fields.map((f) => ({ ...f })) : [],
		...(input.templateId ? { templateId: input.templateId } : {}),
	};
	state.envelopes.set(id, envelope);
	if (input.file)
		state.storage.set(fileKey, {
			data: input.file,
			contentType: 'application/pdf',
			uploadedAt: now,
		});
	return { envelope, upload: createUploadGrant(state, fileKey) };
}

/** The envelope if it exists and belongs to the key's workspace. */
export function findEnvelope(
	state: SandboxState,
	workspace: WorkspaceRef,
	id: string,
): EnvelopeRecord | undefined {
	const envelope = state.envelopes.get(id);
	return envelope && sameWorkspace(envelope.workspace, workspace) ? envelope : undefined;
}

export function createResponse(envelope: EnvelopeRecord, upload: UploadConfig) {
	return {
		id: envelope.id,
		title: envelope.title,
		fileName: envelope.fileName,
		status: envelope.status,
		fileKey: envelope.fileKey,
		upload,
		expiresIn: UPLOAD_EXPIRES_IN,
		maxFileSize: MAX_FILE_SIZE,
		createdAt: envelope.createdAt,
		recipientsAdded: envelope.recipients.length,
	};
}

/** Signers and approvers act; cc recipients do not. */
export function actionable(envelope: EnvelopeRecord): RecipientRecord[] {
	return envelope.recipients.filter((r) => r.role !== 'cc');
}

function isDone(r: RecipientRecord): boolean {
	return r.status === 'signed' || r.status === 'approved';
}

export function listItem(envelope: EnvelopeRecord) {
	return {
		id: envelope.id,
		title: envelope.title,
		status: envelope.status,
		createdAt: envelope.createdAt,
		updatedAt: envelope.updatedAt,
		totalRecipients: envelope.recipients.length,
		completedActions: envelope.recipients.filter(isDone).length,
	};
}

export function recipientView(r: RecipientRecord) {
	return {
		id: r.id,
		name: r.name,
		email: r.email ?? null,
		phone: r.phone ?? null,
		role: r.role,
		order: r.order,
		status: r.status,
		signatureMethod: r.signatureMethod,
	};
}

export function estampView(envelope: EnvelopeRecord) {
	const e = envelope.estamp;
	if (!e) return undefined;
	return {
		enabled: e.enabled,
		status: e.status,
		transactionId: e.transactionId,
		reference: e.reference,
		certificateId: e.certificateId,
		initiatedAt: e.initiatedAt,
		pollAttempts: e.pollAttempts,
		lastError: e.lastError,
	};
}

/**
 * Signing progress (2.7). totalRecipients counts every recipient; completedCount counts
 * signed and approved recipients; percentage is completedCount over signers and approvers
 * (cc takes no action), rounded to two decimals.
 */
export function statusView(envelope: EnvelopeRecord) {
	const acting = actionable(envelope);
	const completedCount = envelope.recipients.filter(isDone).length;
	const estamp = estampView(envelope);
	return {
		envelopeId: envelope.id,
		status: envelope.status,
		...(estamp ? { estamp } : {}),
		totalRecipients: envelope.recipients.length,
		completedCount,
		percentage: acting.length ? Math.round((completedCount / acting.length) * 10000) / 100 : 0,
		recipients: inSigningOrder(envelope.recipients).map((r) => ({
			id: r.id,
			name: r.name,
			email: r.email ?? null,
			role: r.role,
			status: r.status,
			...(r.signedAt ? { signedAt: r.signedAt } : {}),
			order: r.order,
		})),
	};
}

/** Recipients as the API lists them: by signing order. */
export function inSigningOrder(recipients: RecipientRecord[]): RecipientRecord[] {
	return [...recipients].sort((a, b) => a.order - b.order);
}

export function actionUrl(state: SandboxState, r: RecipientRecord): string {
	return `${state.origin}/sign/${r.token}`;
}

function sentWorkflowView(state: SandboxState, envelope: EnvelopeRecord) {
	const w = envelope.workflow;
	return {
		mode: w.mode,
		verificationMethod: w.verificationMethod,
		message: w.message ?? null,
		reminderEveryHours: w.reminderEveryHours,
		expiresAt:
			w.expiresAt ??
			new Date(state.nowMs() + GUESSED_DEFAULTS.expiresInDays * 86400_000).toISOString(),
		emailNotifications: w.emailNotifications,
		whatsappNotifications: w.whatsappNotifications,
	};
}

/** The 200 body of a send (also the recipients notified when an e-stamp completes). */
export function sentResponse(state: SandboxState, envelope: EnvelopeRecord) {
	return {
		message: 'Envelope sent to recipients',
		envelopeId: envelope.id,
		status: envelope.status,
		recipients: inSigningOrder(envelope.recipients).map((r) => ({
			id: r.id,
			name: r.name,
			email: r.email ?? null,
			role: r.role,
			order: r.order,
			status: r.status,
			actionUrl: actionUrl(state, r),
		})),
		workflow: sentWorkflowView(state, envelope),
	};
}

/** The outcome of a send: an HTTP status and body, or an error code for apiError. */
export type SendOutcome =
	| { ok: true; status: 200 | 202; body: Record<string, unknown> }
	| { ok: false; code: string; message: string; path?: string };

/** Credits per aadhaar_otp recipient (a guess: the cost is not shown). */
export function creditCost(envelope: EnvelopeRecord): number {
	return (
		envelope.recipients.filter((r) => r.signatureMethod === 'aadhaar_otp').length *
		CREDITS_PER_AADHAAR_RECIPIENT
	);
}

/**
 * Sends a draft: every requirement of 4.1 in order (draft status, a signer, an uploaded
 * PDF, a complete estampConfig when e-stamping, enough credits), then takes the credits
 * and either notifies recipients (200, `document.sent`) or queues the e-stamp (202).
 */
export function sendEnvelope(state: SandboxState, envelope: EnvelopeRecord): SendOutcome {
	if (envelope.status !== 'draft') {
		return {
			ok: false,
			code: 'INVALID_STATUS',
			message: `Envelope is ${envelope.status}; only a draft can be sent`,
		};
	}
	if (!envelope.recipients.some((r) => r.role === 'signer')) {
		return {
			ok: false,
			code: 'VALIDATION_ERROR',
			path: 'recipients',
			message: 'At least one signer is required to send',
		};
	}
	if (!state.storage.has(envelope.fileKey)) {
		return {
			ok: false,
			code: 'FILE_NOT_UPLOADED',
			message: 'Upload the PDF before sending the envelope',
		};
	}
	if (envelope.workflow.estampEnabled) {
		const check = rulesFor(choicesOf(state)).estampConfig.safeParse(envelope.workflow.estampConfig);
		if (!check.success) {
			const issue = check.error.issues[0];
			const path = ['workflow', 'estampConfig', ...issue.path].join('.');
			const message =
				envelope.workflow.estampConfig === undefined
					? 'is required (complete) when estampEnabled is true'
					: issue.message;
			return { ok: false, code: 'VALIDATION_ERROR', path, message };
		}
	}
	const cost = creditCost(envelope);
	const balance = state.balance(envelope.workspace);
	if (cost > balance) {
		return {
			ok: false,
			code: 'INSUFFICIENT_CREDITS',
			message: `Sending needs ${cost} credit(s) for aadhaar_otp recipients; the ${envelope.workspace.type === 'organization' ? 'organization wallet' : 'personal balance'} has ${balance}`,
		};
	}
	if (cost > 0) {
		state.consumeCredits(envelope.workspace, cost, {
			reason: 'aadhaar_esign',
			description: `Aadhaar e-signature for ${cost} recipient(s) of envelope ${envelope.id}`,
			envelopeId: envelope.id,
			signatureMethod: 'aadhaar_otp',
			source: 'api',
		});
	}
	envelope.sentAt = state.nowIso();
	envelope.updatedAt = envelope.sentAt;
	if (envelope.workflow.estampEnabled) {
		startEstamp(state, envelope);
		return {
			ok: true,
			status: 202,
			body: {
				success: true,
				estamp: true,
				estampStatus: 'queued',
				message:
					'E-stamp purchase queued; recipients are notified once the stamp certificate is attached',
				envelopeId: envelope.id,
				status: envelope.status,
			},
		};
	}
	openForSigning(state, envelope);
	return { ok: true, status: 200, body: sentResponse(state, envelope) };
}

/** Envelope goes `pending`, recipients are notified, `document.sent` is emitted. */
function openForSigning(state: SandboxState, envelope: EnvelopeRecord): void {
	envelope.status = 'pending';
	envelope.updatedAt = state.nowIso();
	emitEvent(state, 'document.sent', {
		envelopeId: envelope.id,
		title: envelope.title,
		status: 'pending',
		recipients: inSigningOrder(envelope.recipients).map((r) => ({
			id: r.id,
			name: r.name,
			email: r.email ?? null,
			role: r.role,
			order: r.order,
			status: r.status,
		})),
		occurredAt: state.nowIso(),
	});
}

// ---------------------------------------------------------------- e-stamp

function startEstamp(state: SandboxState, envelope: EnvelopeRecord): void {
	envelope.status = 'estamping';
	envelope.estamp = {
		enabled: true,
		status: 'queued',
		transactionId: state.newId('estx'),
		reference: `REF-${Math.floor(state.random() * 1e9)
			.toString()
			.padStart(9, '0')}`,
		certificateId: null,
		initiatedAt: state.nowIso(),
		pollAttempts: 0,
		lastError: null,
		nextCheckAt: state.nowMs() + ESTAMP_CHECK_INTERVAL_MS,
	};
	state.schedule(() => acceptEstamp(state, envelope), state.estampTiming.acceptAfterMs);
}

function acceptEstamp(state: SandboxState, envelope: EnvelopeRecord): void {
	const e = envelope.estamp;
	if (!e || e.status !== 'queued') return;
	e.status = 'pending';
	envelope.updatedAt = state.nowIso();
	emitEvent(state, 'document.estamp.started', {
		envelopeId: envelope.id,
		title: envelope.title,
		status: 'pending',
		transactionId: e.transactionId,
		reference: e.reference,
		occurredAt: state.nowIso(),
	});
	const after = state.estampTiming.completeAfterMs;
	if (after !== null) state.schedule(() => void resolveEstamp(state, envelope), after);
}

function providerFails(envelope: EnvelopeRecord): boolean {
	return envelope.workflow.estampConfig?.firstParty?.name === PROVIDER_FAILURE_NAME;
}

/** The provider's answer for a pending e-stamp: stamp attached, or terminal failure. */
async function resolveEstamp(state: SandboxState, envelope: EnvelopeRecord): Promise<void> {
	const e = envelope.estamp;
	if (!e || e.status !== 'pending') return;
	const generation = state.generation;
	if (providerFails(envelope)) {
		e.status = 'failed';
		e.lastError = 'Provider rejected the e-stamp purchase';
		envelope.status = choicesOf(state).estampFailedStatus;
		envelope.updatedAt = state.nowIso();
		emitEvent(state, 'document.estamp.failed', {
			envelopeId: envelope.id,
			title: envelope.title,
			status: 'failed',
			transactionId: e.transactionId,
			reference: e.reference,
			error: e.lastError,
			occurredAt: state.nowIso(),
		});
		return;
	}
	e.status = 'processing'; // guards against a second resolution while the PDF is built
	const config = envelope.workflow.estampConfig ?? {};
	const certificateId = `IN-${String(config.state ?? 'XX')}${Math.floor(state.random() * 1e14)
		.toString()
		.padStart(14, '0')}`;
	const original = state.storage.get(envelope.fileKey);
	let stamped: Buffer | undefined;
	try {
		if (original) {
			stamped = await addEstampCertificate(original.data, {
				certificateId,
				state: String(config.state ?? ''),
				article: String(config.article ?? ''),
				amount: String(config.amount ?? ''),
				firstParty: String(config.firstParty?.name ?? ''),
				secondParty: String(config.secondParty?.name ?? ''),
				issuedAt: state.nowIso(),
			});
		}
	} catch (err) {
		if (generation !== state.generation) return;
		e.status = 'pending';
		e.lastError = `Stamped PDF could not be built: ${(err as Error).message}`;
		return;
	}
	if (generation !== state.generation) return;
	if (stamped)
		state.storage.set(envelope.fileKey, {
			data: stamped,
			contentType: 'application/pdf',
			uploadedAt: state.nowIso(),
		});
	shiftForCertificatePage(envelope);
	e.status = 'completed';
	e.certificateId = certificateId;
	e.lastError = null;
	emitEvent(state, 'document.estamp.completed', {
		envelopeId: envelope.id,
		title: envelope.title,
		status: 'completed',
		transactionId: e.transactionId,
		reference: e.reference,
		certificateId,
		documentId: envelope.id,
		occurredAt: state.nowIso(),
	});
	openForSigning(state, envelope);
}

/** The certificate is page 1: fields and page-restricted placements move down one page (2.5). */
function shiftForCertificatePage(envelope: EnvelopeRecord): void {
	for (const f of envelope.fields) f.pageNumber += 1;
	for (const r of envelope.recipients) {
		const pages = r.signaturePlacement?.pages;
		if (pages) r.signaturePlacement!.pages = pages.map((p) => p + 1);
	}
}

/** A provider status check (manual or hourly): counts the attempt and re-reads the outcome. */
export function runEstampCheck(state: SandboxState, envelope: EnvelopeRecord): void {
	const e = envelope.estamp;
	if (!e || (e.status !== 'pending' && e.status !== 'queued')) return;
	e.pollAttempts += 1;
	e.nextCheckAt = state.nowMs() + ESTAMP_CHECK_INTERVAL_MS;
	if (e.status === 'queued') acceptEstamp(state, envelope);
	void resolveEstamp(state, envelope);
}

/** POST /envelopes/{id}/estamp/check: queues a check of a queued or pending e-stamp. */
export function queueEstampCheck(state: SandboxState, envelope: EnvelopeRecord) {
	const e = envelope.estamp;
	const checkable = !!e && (e.status === 'pending' || e.status === 'queued');
	if (checkable)
		state.schedule(() => runEstampCheck(state, envelope), state.estampTiming.checkAfterMs);
	return {
		envelopeId: envelope.id,
		queued: checkable,
		estampStatus: e ? e.status : null,
		message: !e
			? 'E-stamping is not enabled for this envelope'
			: checkable
				? 'Provider status check queued; read the result with the status endpoint'
				: `E-stamp is ${e.status}; nothing to check`,
	};
}

/** Hourly platform check: runs for every e-stamp whose hour has passed on the sandbox clock. */
export function runHourlyChecks(state: SandboxState): void {
	for (const envelope of state.envelopes.values()) {
		const e = envelope.estamp;
		if (e && (e.status === 'pending' || e.status === 'queued') && state.nowMs() >= e.nextCheckAt) {
			runEstampCheck(state, envelope);
		}
	}
}

// ---------------------------------------------------------------- signing

export type ActOutcome =
	| { ok: true; body: Record<string, unknown> }
	| { ok: false; code: string; message: string };

export function findRecipientByToken(
	state: SandboxState,
	token: string,
): { envelope: EnvelopeRecord; recipient: RecipientRecord } | undefined {
	for (const envelope of state.envelopes.values()) {
		const recipient = envelope.recipients.find((r) => r.token === token);
		if (recipient) return { envelope, recipient };
	}
	return undefined;
}

/** Recipients whose turn it is: all pending actors in parallel mode, the lowest order in sequential. */
export function currentTurn(envelope: EnvelopeRecord): RecipientRecord[] {
	const waiting = actionable(envelope).filter((r) => !isDone(r));
	if (envelope.workflow.mode !== 'sequential' || waiting.length === 0) return waiting;
	const lowest = Math.min(...waiting.map((r) => r.order));
	return waiting.filter((r) => r.order === lowest);
}

/** A signer signs or an approver approves; completes the envelope when every actor is done. */
export async function actAsRecipient(
	state: SandboxState,
	envelope: EnvelopeRecord,
	recipient: RecipientRecord,
): Promise<ActOutcome> {
	if (recipient.role === 'cc') {
		return {
			ok: false,
			code: 'INVALID_STATUS',
			message: 'A cc recipient receives a copy and takes no action',
		};
	}
	if (envelope.status !== 'pending') {
		return {
			ok: false,
			code: 'INVALID_STATUS',
			message: `Envelope is ${envelope.status}; it is not open for signing`,
		};
	}
	if (isDone(recipient)) {
		return {
			ok: false,
			code: 'INVALID_STATUS',
			message: `Recipient has already ${recipient.status}`,
		};
	}
	const turn = currentTurn(envelope);
	if (!turn.includes(recipient)) {
		const first = turn[0];
		return {
			ok: false,
			code: 'INVALID_STATUS',
			message: `Out of turn: in sequential mode recipient order ${first.order} (${first.name}) must act before order ${recipient.order}`,
		};
	}
	recipient.status = recipient.role === 'approver' ? 'approved' : 'signed';
	recipient.signedAt = state.nowIso();
	envelope.updatedAt = recipient.signedAt;
	const signedEvent = choicesOf(state).recipientSignedEvent;
	if (signedEvent) {
		emitEvent(state, signedEvent, {
			envelopeId: envelope.id,
			title: envelope.title,
			recipientId: recipient.id,
			name: recipient.name,
			email: recipient.email ?? null,
			role: recipient.role,
			status: recipient.status,
			occurredAt: recipient.signedAt,
		});
	}
	if (actionable(envelope).every(isDone) && !envelope.completedAt)
		await completeEnvelope(state, envelope);
	const body: Record<string, unknown> = {
		envelopeId: envelope.id,
		recipientId: recipient.id,
		role: recipient.role,
		status: recipient.status,
		envelopeStatus: envelope.status,
	};
	const redirect = envelope.workflow.redirectUrl;
	if (redirect) {
		const url = new URL(redirect);
		url.searchParams.set('envelopeId', envelope.id);
		url.searchParams.set('signerEmail', recipient.email ?? '');
		url.searchParams.set('role', recipient.role);
		url.searchParams.set('status', recipient.status);
		url.searchParams.set('event', recipient.role === 'approver' ? 'approved' : 'signed');
		body.redirectUrl = url.toString();
	}
	return { ok: true, body };
}

async function completeEnvelope(state: SandboxState, envelope: EnvelopeRecord): Promise<void> {
	envelope.completedAt = state.nowIso(); // set first: a parallel last action must not complete twice
	const source = state.storage.get(envelope.fileKey);
	if (source) {
		const marks = inSigningOrder(actionable(envelope)).map((r) => ({
			name: r.name,
			email: r.email,
			role: r.role,
			signedAt: r.signedAt!,
		}));
		const original = source.data;
		const signedKey = `envelopes/${envelope.id}/signed/${envelope.fileName}`;
		let signed: Promise<Buffer> | undefined;
		state.storage.set(signedKey, {
			data: Buffer.alloc(0),
			// once, however many downloads ask at the same time
			render: async () => await (signed ??= signPdf(original, marks, envelope.id)),
			contentType: 'application/pdf',
			uploadedAt: state.nowIso(),
		});
		envelope.signedFileKey = signedKey;
	}
	envelope.status = 'completed';
	envelope.updatedAt = envelope.completedAt;
	const completedEvent = choicesOf(state).completedEvent;
	if (completedEvent) {
		emitEvent(state, completedEvent, {
			envelopeId: envelope.id,
			title: envelope.title,
			status: 'completed',
			occurredAt: envelope.completedAt,
		});
	}
}
