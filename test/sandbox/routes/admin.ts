/**
 * Test control of the sandbox under /__sandbox (no API key). See server.ts for the list.
 */
import { Router, type Response } from 'express';
import { z } from 'zod/v3';
import { runHourlyChecks } from '../envelopes';
import { emitEvent } from '../webhooks';
import { validate, validationError } from '../http';
import { ALL_SCOPES, type SandboxState } from '../state';

const workspaceSchema = z.enum(['personal', 'organization']);

const faultRule = z.object({
	rate: z.number().min(0).max(1).optional(),
	path: z.string().optional(),
	count: z.number().int().min(0).optional(),
});

const faultsSchema = z.object({
	seed: z.number().int().optional(),
	latencyMs: z.number().int().min(0).optional(),
	latencyMaxMs: z.number().int().min(0).nullable().optional(),
	retryAfterSeconds: z.number().min(0).optional(),
	rateLimitPerSecond: z.number().int().min(1).nullable().optional(),
	rateLimits: z
		.array(
			z.object({
				limit: z.number().int().min(1),
				per: z.union([z.enum(['second', 'minute', 'hour']), z.number().positive()]),
				window: z.enum(['clock', 'first-request', 'sliding']).optional(),
			}),
		)
		.optional(),
	rateLimitHeaders: z.enum(['ietf', 'x']).nullable().optional(),
	rateLimitReset: z.enum(['seconds', 'epoch']).nullable().optional(),
	retryAfterAs: z.enum(['seconds', 'whole-seconds', 'date']).optional(),
	capacity: z
		.object({ slots: z.number().int().min(1), maxInFlight: z.number().int().min(1) })
		.refine((c) => c.maxInFlight >= c.slots, { message: 'maxInFlight must be at least slots' })
		.nullable()
		.optional(),
	failures: z.array(faultRule.extend({ status: z.number().int().min(400).max(599) })).optional(),
	connectionReset: faultRule.nullable().optional(),
	malformedJson: faultRule.nullable().optional(),
	timeout: faultRule.nullable().optional(),
});

const webhookSchema = z.object({
	url: z.string().url(),
	events: z.array(z.string()).optional(),
	retry: z
		.object({
			attempts: z.number().int().min(1).max(10).optional(),
			backoffMs: z.number().int().min(0).optional(),
			timeoutMs: z.number().int().min(1).optional(),
		})
		.optional(),
});

export default function adminRoutes(state: SandboxState): Router {
	const router = Router();
	const bad = (res: Response, error: z.ZodError) => validationError(res, error);

	router.post('/reset', (_req, res) => {
		state.reset();
		res.json({ reset: true });
	});

	router.post('/clock', (req, res) => {
		const body = validate(z.object({ advanceSeconds: z.number().min(0) }), req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		state.advanceClock(body.data.advanceSeconds);
		res.json({ now: state.nowIso(), offsetSeconds: state.clockOffsetMs / 1000 });
	});

	router.get('/clock', (_req, res) => {
		res.json({ now: state.nowIso(), offsetSeconds: state.clockOffsetMs / 1000 });
	});

	router.post('/keys', (req, res) => {
		const body = validate(
			z.object({
				workspace: workspaceSchema,
				scopes: z.array(z.string()).optional(),
				disabled: z.boolean().optional(),
			}),
			req.body ?? {},
		);
		if (!body.ok) return void bad(res, body.error);
		const key = state.createKey(state.workspaceOf(body.data.workspace), body.data);
		res.status(201).json({
			apiKey: key.secret,
			id: key.id,
			workspace: key.workspace,
			scopes: key.scopes,
			disabled: key.disabled,
		});
	});

	router.get('/scopes', (_req, res) => {
		res.json({ scopes: ALL_SCOPES });
	});

	router.post('/credits', (req, res) => {
		const body = validate(
			z.object({ workspace: workspaceSchema, balance: z.number().min(0) }),
			req.body ?? {},
		);
		if (!body.ok) return void bad(res, body.error);
		state.setBalance(state.workspaceOf(body.data.workspace), body.data.balance);
		res.json({ workspace: body.data.workspace, balance: body.data.balance });
	});

	router.post('/estamp', (req, res) => {
		const body = validate(
			z.object({
				acceptAfterMs: z.number().int().min(0).optional(),
				completeAfterMs: z.number().int().min(0).nullable().optional(),
				checkAfterMs: z.number().int().min(0).optional(),
			}),
			req.body ?? {},
		);
		if (!body.ok) return void bad(res, body.error);
		Object.assign(state.estampTiming, body.data);
		res.json(state.estampTiming);
	});

	router.post('/faults', (req, res) => {
		const body = validate(faultsSchema, req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		state.setFaults(body.data as Parameters<SandboxState['setFaults']>[0]);
		res.json(state.faults);
	});

	router.get('/faults', (_req, res) => {
		res.json(state.faults);
	});

	router.post('/webhooks', (req, res) => {
		const body = validate(webhookSchema, req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		const sub = {
			id: state.newId('wh'),
			url: body.data.url,
			events: body.data.events ?? [],
			createdAt: state.nowIso(),
		};
		state.webhooks.push(sub);
		if (body.data.retry) Object.assign(state.webhookRetry, body.data.retry);
		res.status(201).json({ ...sub, retry: state.webhookRetry });
	});

	router.get('/webhooks', (_req, res) => {
		res.json({ items: state.webhooks });
	});

	router.get('/webhooks/deliveries', (_req, res) => {
		res.json({ items: state.deliveries });
	});

	router.get('/events', (_req, res) => {
		res.json({ items: state.events });
	});

	router.get('/requests', (_req, res) => {
		res.json({ items: state.requestLog });
	});

	/** Gives a template a fixed id (examples refer to their template by id across sandbox runs). */
	router.post('/templates/:templateId/fixed-id', (req, res) => {
		const body = validate(z.object({ id: z.string().regex(/^[\w-]{1,64}$/) }), req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		const template = state.templates.get(req.params.templateId) as { id: string } | undefined;
		if (!template)
			return void res
				.status(404)
				.json({ code: 'NOT_FOUND', message: `Template ${req.params.templateId} not found` });
		if (state.templates.has(body.data.id))
			return void res
				.status(409)
				.json({ code: 'CONFLICT', message: `Template ${body.data.id} exists` });
		state.templates.delete(template.id);
		template.id = body.data.id;
		state.templates.set(template.id, template);
		res.json({ id: template.id });
	});

	router.post('/variant', (req, res) => {
		const body = validate(z.object({ on: z.boolean() }), req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		state.variant = body.data.on;
		res.json({ variant: state.variant });
	});

	router.get('/variant', (_req, res) => {
		res.json({ variant: state.variant });
	});

	/** Sets any status on an envelope (statuses the service may have beyond those shown). */
	router.post('/envelopes/:envelopeId/status', (req, res) => {
		const body = validate(z.object({ status: z.string().trim().min(1) }), req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		const envelope = state.envelopes.get(req.params.envelopeId);
		if (!envelope)
			return void res
				.status(404)
				.json({ code: 'NOT_FOUND', message: `Envelope ${req.params.envelopeId} not found` });
		envelope.status = body.data.status;
		envelope.updatedAt = state.nowIso();
		res.json({ envelopeId: envelope.id, status: envelope.status, updatedAt: envelope.updatedAt });
	});

	/**
	 * Sets any status on one recipient (statuses the specification does not show, such as a
	 * decline), and optionally the envelope's; the envelope's `updatedAt` moves.
	 */
	router.post('/envelopes/:envelopeId/recipients/:recipientId/status', (req, res) => {
		const schema = z.object({
			status: z.string().trim().min(1),
			envelopeStatus: z.string().trim().min(1).optional(),
		});
		const body = validate(schema, req.body ?? {});
		if (!body.ok) return void bad(res, body.error);
		const envelope = state.envelopes.get(req.params.envelopeId);
		const recipient = envelope?.recipients.find((r) => r.id === req.params.recipientId);
		if (!envelope || !recipient)
			return void res.status(404).json({
				code: 'NOT_FOUND',
				message: `Envelope ${req.params.envelopeId} has no recipient ${req.params.recipientId}`,
			});
		recipient.status = body.data.status;
		if (body.data.envelopeStatus) envelope.status = body.data.envelopeStatus;
		envelope.updatedAt = state.nowIso();
		res.json({
			envelopeId: envelope.id,
			recipientId: recipient.id,
			status: recipient.status,
			envelopeStatus: envelope.status,
			updatedAt: envelope.updatedAt,
		});
	});

	/** Emits an event of any kind for an envelope; `data` is merged over {envelopeId, title, status}. */
	router.post('/envelopes/:envelopeId/events', (req, res) => {
		const body = validate(
			z.object({ event: z.string().trim().min(1), data: z.record(z.unknown()).optional() }),
			req.body ?? {},
		);
		if (!body.ok) return void bad(res, body.error);
		const envelope = state.envelopes.get(req.params.envelopeId);
		if (!envelope)
			return void res
				.status(404)
				.json({ code: 'NOT_FOUND', message: `Envelope ${req.params.envelopeId} not found` });
		const event = emitEvent(state, body.data.event, {
			envelopeId: envelope.id,
			title: envelope.title,
			status: envelope.status,
			occurredAt: state.nowIso(),
			...body.data.data,
		});
		res.status(201).json(event);
	});

	router.get('/transactions', (_req, res) => {
		res.json({ items: state.creditTransactions });
	});

	return router;
}

/** Registers the hourly e-stamp check on clock advances. */
export function installHourlyCheck(state: SandboxState): void {
	state.clockListeners.push(() => runHourlyChecks(state));
}
