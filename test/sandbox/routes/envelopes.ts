/**
 * /api/v1/envelopes: create, list, add recipients, send, status, fields, file, e-stamp check.
 * Key scopes are guesses (guesses.ts); list order and the add-recipients replace request
 * are choices of the mode (V13, V9).
 */
import { Router } from 'express';
import { GUESSED_SCOPES } from '../guesses';
import { rulesFor } from '../spec';
import { MAX_RECIPIENTS } from '../spec/limits';
import { PATHS } from '../spec/paths';
import { choicesOf } from '../variant';
import {
	buildRecipients,
	createEnvelopeRecord,
	createResponse,
	findEnvelope,
	listItem,
	queueEstampCheck,
	recipientView,
	sendEnvelope,
	statusView,
} from '../envelopes';
import {
	apiError,
	keyOf,
	pageOf,
	requireAuth,
	ruleError,
	validate,
	validationError,
} from '../http';
import { DOWNLOAD_EXPIRES_IN, type EnvelopeRecord, type SandboxState } from '../state';
import type { Request, Response } from 'express';

const newestChangeFirst = (a: EnvelopeRecord, b: EnvelopeRecord) =>
	a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id.localeCompare(a.id);
const oldestCreatedFirst = (a: EnvelopeRecord, b: EnvelopeRecord) =>
	a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id.localeCompare(b.id);

/** Answers NOT_FOUND unless the envelope exists in the key's workspace. */
function loadEnvelope(
	state: SandboxState,
	req: Request,
	res: Response,
): EnvelopeRecord | undefined {
	const envelope = findEnvelope(state, keyOf(res).workspace, String(req.params.envelopeId));
	if (!envelope) apiError(res, 'NOT_FOUND', `Envelope ${req.params.envelopeId} not found`);
	return envelope;
}

/** Answers a send outcome (shared with template document send). */
export function answerSend(res: Response, outcome: ReturnType<typeof sendEnvelope>): void {
	if (outcome.ok) {
		res.status(outcome.status).json(outcome.body);
	} else if (outcome.code === 'VALIDATION_ERROR') {
		ruleError(res, outcome.path ?? '', outcome.message);
	} else {
		apiError(res, outcome.code, outcome.message);
	}
}

export default function envelopeRoutes(state: SandboxState): Router {
	const router = Router();
	const read = requireAuth([GUESSED_SCOPES.documentsRead]);
	const write = requireAuth([GUESSED_SCOPES.documentsWrite]);
	const sign = requireAuth([GUESSED_SCOPES.signingWrite]);

	router.post(PATHS.envelopes, write, (req, res) => {
		const body = validate(rulesFor(choicesOf(state)).envelopeCreate, req.body ?? {});
		if (!body.ok) return void validationError(res, body.error);
		const { envelope, upload } = createEnvelopeRecord(state, keyOf(res).workspace, body.data);
		res.status(201).json(createResponse(envelope, upload));
	});

	router.get(PATHS.envelopes, read, (req, res) => {
		const query = validate(rulesFor(choicesOf(state)).envelopeList, req.query);
		if (!query.ok) return void validationError(res, query.error);
		const { page, limit, status, search } = query.data;
		const needle = search?.trim().toLowerCase();
		const items = [...state.envelopes.values()]
			.filter(
				(e) =>
					e.workspace.type === keyOf(res).workspace.type &&
					e.workspace.id === keyOf(res).workspace.id,
			)
			.filter((e) => !status || e.status === status)
			.filter((e) => !needle || e.title.toLowerCase().includes(needle))
			.sort(
				choicesOf(state).envelopeOrder === 'updatedDesc' ? newestChangeFirst : oldestCreatedFirst,
			)
			.map(listItem);
		res.json(pageOf(items, page, limit));
	});

	router.post(PATHS.envelopeRecipients, write, (req, res) => {
		const envelope = loadEnvelope(state, req, res);
		if (!envelope) return;
		const body = validate(rulesFor(choicesOf(state)).addRecipients, req.body ?? {});
		if (!body.ok) return void validationError(res, body.error);
		if (envelope.status !== 'draft') {
			return void apiError(
				res,
				'INVALID_STATUS',
				`Envelope is ${envelope.status}; recipients can be added only to a draft`,
			);
		}
		const replace = choicesOf(state).isReplace(body.data);
		// 4.1: appends count the existing recipients, a replacement only the new list.
		const total = (replace ? 0 : envelope.recipients.length) + body.data.recipients.length;
		if (total > MAX_RECIPIENTS) {
			return void ruleError(
				res,
				'recipients',
				`would make ${total} recipients; at most ${MAX_RECIPIENTS} are allowed across all roles`,
			);
		}
		const kept = replace ? [] : envelope.recipients;
		const firstOrder = kept.reduce((max, r) => Math.max(max, r.order), 0) + 1;
		const added = buildRecipients(state, body.data.recipients, firstOrder);
		envelope.recipients = [...kept, ...added];
		envelope.updatedAt = state.nowIso();
		res.json({
			message: replace
				? `Recipients replaced (${added.length})`
				: `${added.length} recipient(s) added`,
			recipients: envelope.recipients.map(recipientView),
		});
	});

	router.post(PATHS.envelopeSend, sign, (req, res) => {
		const envelope = loadEnvelope(state, req, res);
		if (!envelope) return;
		answerSend(res, sendEnvelope(state, envelope));
	});

	router.get(PATHS.envelopeStatus, read, (req, res) => {
		const envelope = loadEnvelope(state, req, res);
		if (!envelope) return;
		res.json(statusView(envelope));
	});

	router.get(PATHS.envelopeFields, read, (req, res) => {
		const envelope = loadEnvelope(state, req, res);
		if (!envelope) return;
		res.json({ items: envelope.fields, total: envelope.fields.length });
	});

	router.get(PATHS.envelopeFile, read, (req, res) => {
		const envelope = loadEnvelope(state, req, res);
		if (!envelope) return;
		// A completed envelope serves its signed PDF.
		const fileKey =
			envelope.status === 'completed' && envelope.signedFileKey
				? envelope.signedFileKey
				: envelope.fileKey;
		if (!state.storage.has(fileKey)) {
			return void apiError(
				res,
				'NOT_AVAILABLE',
				'The envelope file is not available: no PDF has been uploaded',
			);
		}
		const token = state.newToken();
		state.downloads.set(token, {
			token,
			fileKey,
			fileName: envelope.fileName,
			expiresAt: state.nowMs() + DOWNLOAD_EXPIRES_IN * 1000,
		});
		res.json({
			url: `${state.origin}/storage/download/${token}`,
			expiresIn: DOWNLOAD_EXPIRES_IN,
			fileName: envelope.fileName,
		});
	});

	router.post(PATHS.envelopeEstampCheck, sign, (req, res) => {
		const envelope = loadEnvelope(state, req, res);
		if (!envelope) return;
		res.json(queueEstampCheck(state, envelope));
	});

	return router;
}
