/**
 * /api/v1/templates and /api/v1/documents/{envelopeId}/send (specification 4.2, 2.8-2.10).
 *
 * A template belongs to the workspace of the key that created it (only keys of that
 * workspace see it) and is owned by that key: in the sandbox each key stands for one
 * member, so only the creating key may update, archive, restore or delete it; other keys
 * of the workspace get NOT_FOUND there, as for a template they cannot reach.
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod/v3';
import { TEMPLATE_STATUSES } from '../spec/limits';

import { rulesFor } from '../spec';
import { PATHS } from '../spec/paths';
import {
	documentProblems,
	fieldProblems,
	hasValue,
	type FormFieldInput,
	type Problem,
	type TemplateRecipientInput,
} from '../spec/templates';
import { choicesOf } from '../variant';
import {
	actionUrl,
	createEnvelopeRecord,
	findEnvelope,
	inSigningOrder,
	sendEnvelope,
	type RecipientInput,
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
import {
	MAX_FILE_SIZE,
	UPLOAD_EXPIRES_IN,
	createUploadGrant,
	sameWorkspace,
	type EnvelopeField,
	type SandboxState,
	type WorkspaceRef,
} from '../state';
import { answerSend } from './envelopes';

export interface TemplateRecipientRecord extends TemplateRecipientInput {
	id: string;
}

export interface TemplateFieldRecord extends FormFieldInput {
	id: string;
}

export interface TemplateRecord {
	id: string;
	workspace: WorkspaceRef;
	/** Id of the key that created the template (its owner). */
	ownerKeyId: string;
	name: string;
	description: string | null;
	fileName: string;
	fileKey: string;
	status: 'active' | 'archived';
	recipients: TemplateRecipientRecord[];
	formFields: TemplateFieldRecord[];
	workflow: Record<string, unknown>;
	usageCount: number;
	lastUsedAt: string | null;
	createdAt: string;
	updatedAt: string;
}

const clone = <T>(value: T): T => structuredClone(value);

function withRecipientIds(
	state: SandboxState,
	recipients: TemplateRecipientInput[],
): TemplateRecipientRecord[] {
	return recipients.map((r) => ({ ...r, id: r.id ?? state.newId('trc') }));
}

function withFieldIds(state: SandboxState, fields: FormFieldInput[]): TemplateFieldRecord[] {
	return fields.map((f) => ({ ...f, id: f.id ?? state.newId('fld') }));
}

/** The template if it exists in the workspace. */
export function findTemplate(
	state: SandboxState,
	workspace: WorkspaceRef,
	id: string,
): TemplateRecord | undefined {
	const template = state.templates.get(id) as TemplateRecord | undefined;
	return template && sameWorkspace(template.workspace, workspace) ? template : undefined;
}

/** True when the template's PDF has been uploaded. */
export function templateHasPdf(state: SandboxState, template: TemplateRecord): boolean {
	return state.storage.has(template.fileKey);
}

function fileSize(state: SandboxState, template: TemplateRecord): number | null {
	return state.storage.get(template.fileKey)?.data.length ?? null;
}

function listItem(template: TemplateRecord) {
	return {
		id: template.id,
		name: template.name,
		description: template.description,
		fileName: template.fileName,
		status: template.status,
		usageCount: template.usageCount,
		recipientsCount: template.recipients.length,
		createdAt: template.createdAt,
		updatedAt: template.updatedAt,
	};
}

function fullView(state: SandboxState, template: TemplateRecord) {
	return {
		id: template.id,
		name: template.name,
		description: template.description,
		fileName: template.fileName,
		fileSize: fileSize(state, template),
		status: template.status,
		recipients: clone(template.recipients),
		workflow: clone(template.workflow),
		usageCount: template.usageCount,
		lastUsedAt: template.lastUsedAt,
		createdAt: template.createdAt,
		updatedAt: template.updatedAt,
		formFields: clone(template.formFields),
	};
}

/** The first problem as a 400 answer; false when there is none. */
function answerProblems(res: Response, problems: Problem[]): boolean {
	if (problems.length === 0) return false;
	ruleError(res, problems[0].path.join('.'), problems[0].message);
	return true;
}

/**
 * Builds the draft envelope of a template use: recipients from the template roles with the
 * caller's contacts, the template's fields (recipient fields bound to the new recipients,
 * sender fields holding their value), the workflow, and a copy of the PDF. Everything is
 * copied, so later template edits leave the envelope alone. Counts the use.
 */
export function createEnvelopeFromTemplate(
	state: SandboxState,
	workspace: WorkspaceRef,
	template: TemplateRecord,
	input: {
		title: string;
		contacts: Map<string, { name: string; email?: string; phone?: string }>;
		/** Envelope recipient settings by template recipient id (workflow runs override these). */
		overrides?: Map<string, Partial<RecipientInput>>;
		prefill?: Map<string, unknown>;
		workflow: Record<string, unknown>;
	},
) {
	const recipientIdOf = new Map<string, string>();
	const recipients: RecipientInput[] = [];
	template.recipients.forEach((r, index) => {
		const contact = input.contacts.get(r.id);
		if (!contact) return;
		const id = state.newId('rcp');
		recipientIdOf.set(r.id, id);
		recipients.push({
			id,
			name: contact.name,
			...(contact.email ? { email: contact.email } : {}),
			...(contact.phone ? { phone: contact.phone } : {}),
			role: r.role,
			order: r.order ?? index + 1,
			signatureMethod: r.signatureMethod,
			verificationMethod: r.verificationMethod,
			signaturePlacement: r.signaturePlacement ? clone(r.signaturePlacement) : undefined,
			...input.overrides?.get(r.id),
		});
	});
	const fields: EnvelopeField[] = template.formFields.map((f) => {
		const { assignee, ...rest } = clone(f);
		const owner = assignee.type === 'recipient' ? assignee.templateRecipientId : undefined;
		const field: EnvelopeField = {
			...rest,
			recipientId: owner ? (recipientIdOf.get(owner) ?? null) : null,
		};
		if (assignee.type === 'sender_prefill') {
			const given = input.prefill?.get(f.id);
			field.value = hasValue(given) ? given : (f.defaultValue ?? null);
		}
		return field;
	});
	const stored = state.storage.get(template.fileKey);
	const { envelope, upload } = createEnvelopeRecord(state, workspace, {
		fileName: template.fileName,
		title: input.title,
		recipients,
		workflow: clone(input.workflow) as never,
		fields,
		templateId: template.id,
		file: stored ? Buffer.from(stored.data) : undefined,
	});
	template.usageCount += 1;
	template.lastUsedAt = envelope.createdAt;
	return { envelope, upload };
}

export default function templatesRoutes(state: SandboxState): Router {
	const router = Router();
	const read = requireAuth(['templates:read']);
	const write = requireAuth(['templates:write']);
	const remove = requireAuth(['templates:delete']);
	const createDocument = requireAuth(['templates:read', 'documents:write']);
	const sign = requireAuth(['signing:write']);
	const rules = () => rulesFor(choicesOf(state));

	/** Answers NOT_FOUND unless the template is visible (and, with `owned`, owned) by the key. */
	function load(req: Request, res: Response, owned = false): TemplateRecord | undefined {
		const key = keyOf(res);
		const template = findTemplate(state, key.workspace, String(req.params.templateId));
		if (!template || (owned && template.ownerKeyId !== key.id)) {
			apiError(res, 'NOT_FOUND', `Template ${req.params.templateId} not found`);
			return undefined;
		}
		return template;
	}

	function parse<S extends z.ZodTypeAny>(
		res: Response,
		schema: S,
		value: unknown,
	): z.infer<S> | undefined {
		const result = validate(schema, value);
		if (!result.ok) {
			validationError(res, result.error);
			return undefined;
		}
		return result.data;
	}

	router.post(PATHS.templates, write, (req, res) => {
		const body = parse(res, rules().templateCreate, req.body ?? {});
		if (!body) return;
		const key = keyOf(res);
		const id = state.newId('tpl');
		const now = state.nowIso();
		const template: TemplateRecord = {
			id,
			workspace: key.workspace,
			ownerKeyId: key.id,
			name: body.name,
			description: body.description ?? null,
			fileName: body.fileName,
			fileKey: `templates/${id}/${body.fileName}`,
			status: 'active',
			recipients: withRecipientIds(state, body.recipients ?? []),
			formFields: withFieldIds(state, body.formFields ?? []),
			workflow: body.workflow ?? {},
			usageCount: 0,
			lastUsedAt: null,
			createdAt: now,
			updatedAt: now,
		};
		state.templates.set(id, template);
		res.status(201).json({
			id,
			name: template.name,
			fileName: template.fileName,
			fileKey: template.fileKey,
			upload: createUploadGrant(state, template.fileKey),
			expiresIn: UPLOAD_EXPIRES_IN,
			maxFileSize: MAX_FILE_SIZE,
			createdAt: now,
			recipientsCount: template.recipients.length,
		});
	});

	router.get(PATHS.templates, read, (req, res) => {
		const query = parse(
			res,
			rules().paging.extend({
				status: z.enum(TEMPLATE_STATUSES).default('active'),
				search: z.string().optional(),
			}),
			req.query,
		);
		if (!query) return;
		const workspace = keyOf(res).workspace;
		const needle = query.search?.trim().toLowerCase();
		const items = [...(state.templates.values() as Iterable<TemplateRecord>)]
			.filter((t) => sameWorkspace(t.workspace, workspace) && t.status === query.status)
			.filter((t) => !needle || t.name.toLowerCase().includes(needle))
			.sort((a, b) =>
				a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id),
			)
			.map(listItem);
		res.json(pageOf(items, query.page, query.limit));
	});

	router.get(PATHS.template, read, (req, res) => {
		const template = load(req, res);
		if (template) res.json(fullView(state, template));
	});

	router.patch(PATHS.template, write, (req, res) => {
		const template = load(req, res, true);
		if (!template) return;
		const body = parse(res, rules().templateUpdate, req.body ?? {});
		if (!body) return;

		const recipients = body.recipients
			? withRecipientIds(state, body.recipients)
			: template.recipients;
		const fields = body.formFields ?? template.formFields;
		// Assignments always hold after the update: fields sent now, or the stored fields
		// when only recipients are replaced, must name recipients of the result.
		if (body.formFields || body.recipients) {
			const ids = recipients.map((r) => r.id);
			if (answerProblems(res, fieldProblems(fields, ids))) return;
		}

		if (body.name !== undefined) template.name = body.name;
		if (body.description !== undefined) template.description = body.description;
		if (body.recipients) template.recipients = recipients;
		if (body.formFields) template.formFields = withFieldIds(state, body.formFields);
		if (body.workflow) template.workflow = body.workflow;
		if (body.status) template.status = body.status;
		template.updatedAt = state.nowIso();
		res.json({
			id: template.id,
			name: template.name,
			description: template.description,
			recipientsCount: template.recipients.length,
			updatedAt: template.updatedAt,
			status: template.status,
			formFieldsCount: template.formFields.length,
		});
	});

	router.post(PATHS.templateCopies, write, (req, res) => {
		const source = load(req, res);
		if (!source) return;
		const body = parse(res, rules().templateCopy, req.body ?? {});
		if (!body) return;
		const key = keyOf(res);
		const id = state.newId('tpl');
		const now = state.nowIso();
		const copy: TemplateRecord = {
			...clone(source),
			id,
			ownerKeyId: key.id,
			name: body.newName,
			fileKey: `templates/${id}/${source.fileName}`,
			status: 'active',
			usageCount: 0,
			lastUsedAt: null,
			createdAt: now,
			updatedAt: now,
		};
		const stored = state.storage.get(source.fileKey);
		if (stored) state.storage.set(copy.fileKey, { ...stored, data: Buffer.from(stored.data) });
		state.templates.set(id, copy);
		res.json({ id, name: copy.name, createdAt: now });
	});

	router.delete(PATHS.template, remove, (req, res) => {
		const template = load(req, res, true);
		if (!template) return;
		state.templates.delete(template.id);
		state.storage.delete(template.fileKey);
		res.status(204).end();
	});

	router.get(PATHS.templateDocumentPayload, read, (req, res) => {
		const template = load(req, res);
		if (!template) return;
		res.json({
			title: template.name,
			recipientMapping: template.recipients.map((r) => ({
				templateRecipientId: r.id,
				name: r.name,
				// A phone-only recipient gets `phone` in place of `email`.
				...(r.phone && !r.email ? {} : { email: r.email ?? '' }),
				...(r.phone ? { phone: r.phone } : {}),
			})),
			workflow: clone(template.workflow),
			prefillValues: template.formFields
				.filter((f) => f.assignee.type === 'sender_prefill')
				.map((f) => ({ fieldId: f.id, fieldKey: f.fieldKey, value: f.defaultValue ?? null })),
		});
	});

	router.post(PATHS.templateDocuments, createDocument, (req, res) => {
		const template = load(req, res);
		if (!template) return;
		const body = parse(res, rules().documentCreate, req.body ?? {});
		if (!body) return;
		if (template.status === 'archived') {
			return void apiError(
				res,
				'TEMPLATE_ARCHIVED',
				`Template ${template.id} is archived; restore it before creating documents`,
			);
		}
		if (answerProblems(res, documentProblems(template, body))) return;
		if (!templateHasPdf(state, template)) {
			return void apiError(
				res,
				'FILE_NOT_UPLOADED',
				`Upload the PDF of template ${template.id} before creating documents from it`,
			);
		}
		const { envelope } = createEnvelopeFromTemplate(state, keyOf(res).workspace, template, {
			title: body.title,
			contacts: new Map(body.recipientMapping.map((m) => [m.templateRecipientId, m])),
			prefill: new Map((body.prefillValues ?? []).map((p) => [p.fieldId, p.value])),
			workflow: (body.workflow ?? template.workflow) as Record<string, unknown>,
		});
		res.status(201).json({
			envelopeId: envelope.id,
			message: `Document created from template ${template.name}`,
			status: envelope.status,
		});
	});

	router.post(PATHS.documentSend, sign, (req, res) => {
		const envelope = findEnvelope(state, keyOf(res).workspace, String(req.params.envelopeId));
		if (!envelope || !envelope.templateId) {
			return void apiError(
				res,
				'NOT_FOUND',
				`Document ${req.params.envelopeId} not found (a document created from a template)`,
			);
		}
		const outcome = sendEnvelope(state, envelope);
		if (outcome.ok && outcome.status === 200 && choicesOf(state).documentSendShape === 'compact') {
			return void res.json({
				envelopeId: envelope.id,
				status: envelope.status,
				sentAt: envelope.sentAt,
				recipients: inSigningOrder(envelope.recipients).map((r) => ({
					id: r.id,
					name: r.name,
					email: r.email ?? null,
					role: r.role,
					status: r.status,
					actionUrl: actionUrl(state, r),
				})),
			});
		}
		answerSend(res, outcome);
	});

	return router;
}
