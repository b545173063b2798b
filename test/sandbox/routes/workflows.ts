/* eslint-disable @typescript-eslint/no-unused-vars -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * /api/v1/workflows: reusable workflows (specification part 3, 2.11, 4.4). The list and get
 * paths and shapes (V2) and the answers of update, publish and run (V7) are choices of the
 * mode (variant.ts).
 *
 * Versions: POST creates the definition and draft version 1; PATCH edits the latest draft,
 * or opens a new draft when the latest is published; publish checks the templates and makes
 * the draft the published version (the previous published one becomes archived). A run
 * uses the latest published version and creates one envelope per configured document.
 */
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod/v3';
import { GUESSED_DEFAULTS } from '../guesses';
import { rulesFor } from '../spec';
import { PATHS } from '../spec/paths';
import { runProblems, type WorkflowConfig, type WorkflowParticipant } from '../spec/workflows';
import { choicesFor, choicesOf, type ModeChoices } from '../variant';
import {
	listItem as envelopeListItem,
	recipientView,
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
import { sameWorkspace, type EnvelopeRecord, type SandboxState, type WorkspaceRef } from '../state';
import {
	createEnvelopeFromTemplate,
	findTemplate,
	templateHasPdf,
	type TemplateRecord,
} from './templates';

export interface WorkflowDefinitionRecord {
	id: string;
	workspace: WorkspaceRef;
	organizationId: string | null;
	name: string;
	description: string | null;
	/** `draft` until a version is published, then `published`. */
	status: 'draft' | 'published';
	ownerId: string;
	custodianUserId: string;
	latestPublishedVersion: number | null;
	createdAt: string;
	updatedAt: string;
}

export interface WorkflowVersionRecord {
	id: string;
	workflowDefinitionId: string;
	version: number;
	status: 'draft' | 'published' | 'archived';
	config: WorkflowConfig;
	createdById: string;
	publishedById: string | null;
	publishedAt: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface WorkflowRunRecord {
	id: string;
	workflowId: string;
	version: number;
	idempotencyKey: string | null;
	createdAt: string;
	envelopeIds: string[];
	approval: { required: boolean; status: string };
}

const clone = <T>(value: T): T => structuredClone(value);

function definitionView(d: WorkflowDefinitionRecord) {
	const { workspace: _workspace, ...view } = d;
	return clone(view);
}

function versionView(v: WorkflowVersionRecord) {
	return clone(v);
}

function envelopeView(envelope: EnvelopeRecord) {
	return {
		...envelopeListItem(envelope),
		fileName: envelope.fileName,
		templateId: envelope.templateId ?? null,
		recipients: envelope.recipients.map(recipientView),
	};
}

/** Envelope workflow settings (2.4) from a version's execution settings. */
function envelopeWorkflow(state: SandboxState, config: WorkflowConfig): Record<string, unknown> {
	const {
		expiresInDays,
		requireFinalSenderConfirmation: _confirm,
		...settings
	} = config.execution ?? {};
	const days = expiresInDays ?? GUESSED_DEFAULTS.expiresInDays;
	return {
		...clone(settings),
		expiresAt: new Date(state.nowMs() + days * 86_400_000).toISOString(),
	};
}

/**
 * Pairs each template recipient with a participant: first the participant whose key equals
 * the template recipient id, then the rest in signing order.
 */
function pairParticipants(
	template: TemplateRecord,
	participants: WorkflowParticipant[],
): Map<string, WorkflowParticipant> {
	const pairs = new Map<string, WorkflowParticipant>();
	const free = [...participants].sort((a, b) => a.order - b.order);
	const take = (p: WorkflowParticipant) => free.splice(free.indexOf(p), 1);
	for (const r of template.recipients) {
		const same = free.find((p) => p.key === r.id);
		if (same) {
			pairs.set(r.id, same);
			take(same);
		}
	}
	const rest = template.recipients
		.filter((r) => !pairs.has(r.id))
		.map((r, i) => ({ r, order: r.order ?? i + 1 }))
		.sort((a, b) => a.order - b.order);
	for (const { r } of rest) {
		const next = free.shift();
		if (next) pairs.set(r.id, next);
	}
	return pairs;
}

export default function workflowsRoutes(state: SandboxState): Router {
	const router = Router();
	const read = requireAuth(['workflows:read']);
	const write = requireAuth(['workflows:write']);

	const rules = () => rulesFor(choicesOf(state));
	const records = () => choicesOf(state).workflowAnswers === 'records';
	const definitions = () => state.workflowDefinitions as Map<string, WorkflowDefinitionRecord>;
	const versions = () => state.workflowVersions as Map<string, WorkflowVersionRecord>;
	const runs = () => state.workflowRuns as Map<string, WorkflowRunRecord>;

	const versionsOf = (definitionId: string) =>
		[...versions().values()]
			.filter((v) => v.workflowDefinitionId === definitionId)
			.sort((a, b) => a.version - b.version);
	const latestVersion = (definitionId: string) => versionsOf(definitionId).at(-1)!;
	const publishedVersion = (definitionId: string) =>
		versionsOf(definitionId).find((v) => v.status === 'published');

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

	function load(req: Request, res: Response): WorkflowDefinitionRecord | undefined {
		const definition = definitions().get(String(req.params.workflowId));
		if (!definition || !sameWorkspace(definition.workspace, keyOf(res).workspace)) {
			apiError(res, 'NOT_FOUND', `Workflow ${req.params.workflowId} not found`);
			return undefined;
		}
		return definition;
	}

	function newVersion(
		definition: WorkflowDefinitionRecord,
		number: number,
		config: WorkflowConfig,
		by: string,
	) {
		const now = state.nowIso();
		const version: WorkflowVersionRecord = {
			id: state.newId('wfv'),
			workflowDefinitionId: definition.id,
			version: number,
			status: 'draft',
			config: clone(config),
			createdById: by,
			publishedById: null,
			publishedAt: null,
			createdAt: now,
			updatedAt: now,
		};
		versions().set(version.id, version);
		return version;
	}

	/** The first template problem of a configuration, as [path, message, code]. */
	function templateProblem(
		workspace: WorkspaceRef,
		config: WorkflowConfig,
	): [string, string, string] | undefined {
		for (const [i, doc] of config.documents.entries()) {
			const path = `config.documents.${i}.templateId`;
			const template = findTemplate(state, workspace, doc.templateId);
			if (!template)
				return [
					path,
					`template "${doc.templateId}" does not exist or is not accessible to this key`,
					'VALIDATION_ERROR',
				];
			if (template.status !== 'active')
				return [
					path,
					`template "${doc.templateId}" is archived; restore it first`,
					'TEMPLATE_ARCHIVED',
				];
			if (!templateHasPdf(state, template))
				return [path, `template "${doc.templateId}" has no uploaded PDF`, 'VALIDATION_ERROR'];
		}
		return undefined;
	}

	function answerTemplateProblem(res: Response, problem: [string, string, string]): void {
		const [path, message, code] = problem;
		if (code === 'VALIDATION_ERROR') ruleError(res, path, message);
		else apiError(res, code, `${path}: ${message}`);
	}

	function runResponse(run: WorkflowRunRecord) {
		if (records()) {
			return {
				id: run.id,
				workflowId: run.workflowId,
				version: run.version,
				status: run.approval.required ? 'awaiting_approval' : 'started',
				envelopeIds: [...run.envelopeIds],
				envelopes: run.envelopeIds.map((id) => {
					const e = state.envelopes.get(id)!;
					return { id: e.id, title: e.title, status: e.status };
				}),
				approvalStatus: run.approval.status,
				idempotencyKey: run.idempotencyKey,
				createdAt: run.createdAt,
			};
		}
		const envelopes = run.envelopeIds.map((id) => envelopeView(state.envelopes.get(id)!));
		return {
			run: {
				id: run.id,
				workflowId: run.workflowId,
				version: run.version,
				idempotencyKey: run.idempotencyKey,
				createdAt: run.createdAt,
			},
			envelope: envelopes[0],
			envelopes,
			approval: run.approval,
		};
	}

	router.post(PATHS.workflows, write, (req, res) => {
		const body = parse(res, rules().workflowCreate, req.body ?? {});
		if (!body) return;
		const key = keyOf(res);
		const now = state.nowIso();
		const definition: WorkflowDefinitionRecord = {
			id: state.newId('wf'),
			workspace: key.workspace,
			organizationId: key.workspace.type === 'organization' ? key.workspace.id : null,
			name: body.name,
			description: body.description ?? null,
			status: 'draft',
			ownerId: key.id,
			custodianUserId: key.id,
			latestPublishedVersion: null,
			createdAt: now,
			updatedAt: now,
		};
		definitions().set(definition.id, definition);
		const version = newVersion(definition, 1, body.config, key.id);
		res.json({ definition: definitionView(definition), version: versionView(version) });
	});

	// List and get paths are a choice of the mode (V2): only the current mode's paths answer.
	const inMode =
		(pick: (c: ModeChoices) => string, path: string) =>
		(_req: Request, _res: Response, next: (to?: string) => void) =>
			pick(choicesOf(state)) === path ? next() : next('router');
	for (const path of new Set([
		choicesFor(false).workflowListPath,
		choicesFor(true).workflowListPath,
	])) {
		router.get(
			path,
			inMode((c) => c.workflowListPath, path),
			read,
			(req, res) => {
				const query = parse(res, rules().paging, req.query);
				if (!query) return;
				const workspace = keyOf(res).workspace;
				const items = [...definitions().values()]
					.filter((d) => sameWorkspace(d.workspace, workspace))
					.sort((a, b) =>
						a.createdAt < b.createdAt
							? 1
							: a.createdAt > b.createdAt
								? -1
								: b.id.localeCompare(a.id),
					)
					.map(definitionView);
				res.json(pageOf(items, query.page, query.limit));
			},
		);
	}
	for (const path of new Set([
		choicesFor(false).workflowGetPath,
		choicesFor(true).workflowGetPath,
	])) {
		router.get(
			path,
			inMode((c) => c.workflowGetPath, path),
			read,
			(req, res) => {
				const definition = load(req, res);
				if (!definition) return;
				if (choicesOf(state).workflowGetShape === 'definitionWithVersions') {
					return void res.json({
						...definitionView(definition),
						versions: versionsOf(definition.id).map(versionView),
					});
				}
				const published = publishedVersion(definition.id);
				res.json({
					definition: definitionView(definition),
					version: versionView(latestVersion(definition.id)),
					publishedVersion: published ? versionView(published) : null,
				});
			},
		);
	}

	router.patch(PATHS.workflow, write, (req, res) => {
		const definition = load(req, res);
		if (!definition) return;
		const body = parse(res, rules().workflowUpdate, req.body ?? {});
		if (!body) return;
		const now = state.nowIso();
		let version = latestVersion(definition.id);
		if (version.status === 'draft') {
			if (body.config) version.config = clone(body.config);
			version.updatedAt = now;
		} else {
			// Published versions are immutable: the edit opens the next draft.
			version = newVersion(
				definition,
				version.version + 1,
				body.config ?? version.config,
				keyOf(res).id,
			);
		}
		if (body.name !== undefined) definition.name = body.name;
		if (body.description !== undefined) definition.description = body.description;
		definition.updatedAt = now;
		res.json(
			records()
				? versionView(version)
				: { definition: definitionView(definition), version: versionView(version) },
		);
	});

	router.post(PATHS.workflowPublish, write, (req, res) => {
		const definition = load(req, res);
		if (!definition) return;
		const draft = latestVersion(definition.id);
		if (draft.status !== 'draft') {
			return void apiError(
				res,
				'INVALID_STATUS',
				`Workflow ${definition.id} has no draft to publish (version ${draft.version} is ${draft.status}); edit it to open a new draft`,
			);
		}
		const problem = templateProblem(definition.workspace, draft.config);
		if (problem) return void answerTemplateProblem(res, problem);
		const now = state.nowIso();
		const previous = publishedVersion(definition.id);
		if (previous) {
			previous.status = 'archived';
			previous.updatedAt = now;
		}
		Object.assign(draft, {
			status: 'published',
			publishedById: keyOf(res).id,
			publishedAt: now,
			updatedAt: now,
		});
		Object.assign(definition, {
			status: 'published',
			latestPublishedVersion: draft.version,
			updatedAt: now,
		});
		res.json(
			records()
				? definitionView(definition)
				: { definition: definitionView(definition), version: versionView(draft) },
		);
	});

	router.post(PATHS.workflowRuns, write, (req, res) => {
		const definition = load(req, res);
		if (!definition) return;
		const body = parse(res, rules().workflowRun, req.body ?? {});
		if (!body) return;

		if (body.idempotencyKey !== undefined) {
			const earlier = [...runs().values()].find(
				(r) => r.workflowId === definition.id && r.idempotencyKey === body.idempotencyKey,
			);
			if (earlier) return void res.json(runResponse(earlier));
		}
		const version = publishedVersion(definition.id);
		if (!version) {
			return void apiError(
				res,
				'INVALID_STATUS',
				`Workflow ${definition.id} has no published version; publish it before running`,
			);
		}
		const config = version.config;
		const issues = runProblems(config.participants, body.recipients);
		if (issues.length > 0) return void ruleError(res, issues[0].path.join('.'), issues[0].message);
		const problem = templateProblem(definition.workspace, config);
		if (problem) return void answerTemplateProblem(res, problem);

		const byKey = new Map(body.recipients.map((r) => [r.participantKey, r]));
		const active = config.participants.filter((p) => byKey.has(p.key));
		if (!active.some((p) => (p.role ?? GUESSED_DEFAULTS.recipientRole) === 'signer')) {
			return void ruleError(
				res,
				'recipients',
				'must name a recipient for at least one signer participant',
			);
		}
		const holds =
			(config.approvalStages ?? []).length > 0 ||
			config.execution?.requireFinalSenderConfirmation === true;

		// Credits are checked up front so a run never leaves half-sent envelopes behind.
		const aadhaar =
			active.filter((p) => p.signatureMethod === 'aadhaar_otp').length * config.documents.length;
		if (!holds && aadhaar > state.balance(definition.workspace)) {
			return void apiError(
				res,
				'INSUFFICIENT_CREDITS',
				`The run needs ${aadhaar} credit(s) for aadhaar_otp recipients; the balance is ${state.balance(definition.workspace)}`,
			);
		}

		const title = body.title;
		const envelopes = config.documents.map((doc) => {
			const template = findTemplate(state, definition.workspace, doc.templateId)!;
			const pairs = pairParticipants(template, active);
			const contacts = new Map<string, { name: string; email?: string; phone?: string }>();
			const overrides = new Map<string, Partial<RecipientInput>>();
			for (const [templateRecipientId, p] of pairs) {
				contacts.set(templateRecipientId, byKey.get(p.key)!);
				const o: Partial<RecipientInput> = {
					order: p.order,
					role: p.role ?? template.recipients.find((r) => r.id === templateRecipientId)?.role,
				};
				if (p.signatureMethod) o.signatureMethod = p.signatureMethod;
				if (p.verificationMethod) o.verificationMethod = p.verificationMethod;
				overrides.set(templateRecipientId, o);
			}
			// Participants with no template role still take part, without fields.
			const unpaired = active.filter((p) => ![...pairs.values()].includes(p));
			const { envelope } = createEnvelopeFromTemplate(state, definition.workspace, template, {
				title: config.documents.length > 1 ? `${title} - ${doc.label}` : title,
				contacts,
				overrides,
				workflow: envelopeWorkflow(state, config),
			});
			for (const p of unpaired) {
				const r = byKey.get(p.key)!;
				envelope.recipients.push({
					id: state.newId('rcp'),
					name: r.name,
					...(r.email ? { email: r.email } : {}),
					...(r.phone ? { phone: r.phone } : {}),
					role: p.role ?? 'signer',
					order: p.order,
					signatureMethod: p.signatureMethod ?? GUESSED_DEFAULTS.recipientSignatureMethod,
					...(p.verificationMethod ? { verificationMethod: p.verificationMethod } : {}),
					status: 'pending',
					token: state.newToken(),
				});
			}
			return envelope;
		});

		const run: WorkflowRunRecord = {
			id: state.newId('run'),
			workflowId: definition.id,
			version: version.version,
			idempotencyKey: body.idempotencyKey ?? null,
			createdAt: state.nowIso(),
			envelopeIds: envelopes.map((e) => e.id),
			approval: { required: holds, status: holds ? 'pending' : 'not_required' },
		};
		runs().set(run.id, run);

		if (!holds) {
			for (const envelope of envelopes) {
				const sent = sendEnvelope(state, envelope);
				if (!sent.ok) {
					return void apiError(
						res,
						sent.code,
						`Run ${run.id} created envelope ${envelope.id} but could not send it: ${sent.message}`,
					);
				}
			}
		}
		res.json(runResponse(run));
	});

	return router;
}
