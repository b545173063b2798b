/**
 * Request checks of reusable workflows (specification 2.11, 4.4), written by the
 * sandbox. Update body, a run's required title and the one-signer rule are the default
 * guesses of docs/assumptions.md.
 */
import { z } from 'zod/v3';
import type { ModeChoices } from '../variant';
import {
	EMAIL_NOTIFICATIONS,
	MAX_RECIPIENTS,
	RECIPIENT_ROLES,
	SIGNATURE_METHODS,
	SIGNING_MODES,
	VERIFICATION_METHODS,
} from './limits';
import {
	e164,
	emailAddress,
	hasSigner,
	httpsUrl,
	needsContact,
	nonEmpty,
	requestRules,
	tooMany,
} from './requests';
import type { Problem } from './templates';

const wholeFromOne = () => z.number().int().min(1, 'must be a whole number from 1');

function repeated(values: readonly string[], at: string, field: string, what: string): Problem[] {
	return values.flatMap((v, i) =>
		values.indexOf(v) < i
			? [{ path: [at, i, field], message: `repeats "${v}"; each ${what} is given once` }]
			: [],
	);
}

export function workflowRules(choices: ModeChoices) {
	const { estampConfig, estampPresent, whatsapp } = requestRules(choices);

	const participant = z.object({
		key: nonEmpty(),
		label: nonEmpty(),
		order: wholeFromOne(),
		role: z.enum(RECIPIENT_ROLES).optional(),
		signatureMethod: z.enum(SIGNATURE_METHODS).optional(),
		verificationMethod: z.enum(VERIFICATION_METHODS).optional(),
		required: z.boolean().optional(),
	});

	const config = z
		.object({
			documents: z
				.array(
					z.object({ templateId: nonEmpty(), label: nonEmpty(), required: z.boolean().optional() }),
				)
				.min(1, 'must hold at least one document'),
			participants: z
				.array(participant)
				.min(1, 'must hold at least one participant')
				.max(MAX_RECIPIENTS, tooMany),
			execution: z
				.object({
					mode: z.enum(SIGNING_MODES).optional(),
					verificationMethod: z.enum(VERIFICATION_METHODS).optional(),
					expiresInDays: z
						.number()
						.int()
						.min(1, 'must be a whole number of days from 1')
						.optional(),
					reminderEveryHours: z
						.number()
						.int()
						.min(1, 'must be a whole number of hours from 1')
						.optional(),
					message: z.string().optional(),
					redirectUrl: httpsUrl().optional(),
					emailNotifications: z.enum(EMAIL_NOTIFICATIONS).optional(),
					whatsappNotifications: whatsapp.optional(),
					estampEnabled: z.boolean().optional(),
					estampConfig: estampConfig.optional(),
					requireFinalSenderConfirmation: z.boolean().optional(),
				})
				.superRefine(estampPresent)
				.optional(),
			approvalStages: z.array(z.unknown()).optional(),
			allowedOverrides: z.array(z.unknown()).optional(),
		})
		.superRefine((c, ctx) => {
			for (const p of repeated(
				c.participants.map((x) => x.key),
				'participants',
				'key',
				'participant key',
			)) {
				ctx.addIssue({ code: 'custom', ...p });
			}
			if (c.participants.length > 0 && !hasSigner(c.participants)) {
				ctx.addIssue({
					code: 'custom',
					path: ['participants'],
					message: 'must include at least one signer',
				});
			}
		});

	const runRecipient = z
		.object({
			participantKey: nonEmpty(),
			name: nonEmpty(),
			email: emailAddress().optional(),
			phone: e164().optional(),
		})
		.superRefine(needsContact);

	return {
		workflowCreate: z.object({ name: nonEmpty(), description: z.string().optional(), config }),
		workflowUpdate: z
			.object({
				name: nonEmpty().optional(),
				description: z.string().optional(),
				config: config.optional(),
			})
			.refine(
				(b) => b.name !== undefined || b.description !== undefined || b.config !== undefined,
				'must include at least one property to change (name, description, config)',
			),
		workflowRun: z
			.object({
				title: nonEmpty(),
				recipients: z
					.array(runRecipient)
					.min(1, 'must hold at least one recipient')
					.max(MAX_RECIPIENTS, tooMany),
				idempotencyKey: nonEmpty().optional(),
			})
			.superRefine((b, ctx) => {
				for (const p of repeated(
					b.recipients.map((r) => r.participantKey),
					'recipients',
					'participantKey',
					'participant',
				)) {
					ctx.addIssue({ code: 'custom', ...p });
				}
			}),
	};
}

export type WorkflowConfig = z.infer<ReturnType<typeof workflowRules>['workflowCreate']>['config'];
export type WorkflowParticipant = WorkflowConfig['participants'][number];

/** Each recipient names a participant; every required participant (unless `required: false`) gets one. */
export function runProblems(
	participants: ReadonlyArray<{ key: string; required?: boolean }>,
	recipients: ReadonlyArray<{ participantKey: string }>,
): Problem[] {
	const keys = participants.map((p) => p.key);
	const found: Problem[] = recipients.flatMap((r, i) =>
		keys.includes(r.participantKey)
			? []
			: [
					{
						path: ['recipients', i, 'participantKey'],
						message: `"${r.participantKey}" is not a participant key of this workflow (keys: ${keys.join(', ')})`,
					},
				],
	);
	const given = new Set(recipients.map((r) => r.participantKey));
	const missing = participants.filter((p) => p.required !== false && !given.has(p.key));
	if (missing.length > 0) {
		found.push({
			path: ['recipients'],
			message: `needs a recipient for every required participant; missing ${missing.map((p) => `"${p.key}"`).join(', ')}`,
		});
	}
	return found;
}
