/** Reusable workflows (specification 2.11, 4.4). */
import { z } from 'zod/v3';

import { checkEstampPresence, EstampConfigSchema } from './estamp';
import { PagingQuerySchema } from './paging';
import type { FieldIssue } from './primitives';
import {
	addIssues,
	checkContact,
	email,
	HttpsUrlSchema,
	phone,
	required,
	uniqueIssues,
} from './primitives';
import {
	hasSigner,
	MAX_RECIPIENTS,
	RecipientRoleSchema,
	SignatureMethodSchema,
	tooManyRecipients,
	VerificationMethodSchema,
} from './recipients';
import {
	EmailNotificationsSchema,
	SigningModeSchema,
	WhatsappNotificationsSchema,
} from './signingSettings';

export const WorkflowDocumentSchema = z.object({
	templateId: required('is required'),
	label: required('is required'),
	required: z.boolean().optional(),
});

export const WorkflowParticipantSchema = z.object({
	key: required('is required'),
	label: required('is required'),
	order: z.number().int().min(1, 'must be a whole number from 1'),
	role: RecipientRoleSchema.optional(),
	signatureMethod: SignatureMethodSchema.optional(),
	verificationMethod: VerificationMethodSchema.optional(),
	required: z.boolean().optional(),
});

export const WorkflowExecutionSchema = z
	.object({
		mode: SigningModeSchema.optional(),
		verificationMethod: VerificationMethodSchema.optional(),
		expiresInDays: z.number().int().min(1, 'must be a whole number of days from 1').optional(),
		reminderEveryHours: z
			.number()
			.int()
			.min(1, 'must be a whole number of hours from 1')
			.optional(),
		message: z.string().optional(),
		// An envelope's redirect must be HTTPS (2.4), so the workflow's is too.
		redirectUrl: HttpsUrlSchema.optional(),
		emailNotifications: EmailNotificationsSchema.optional(),
		whatsappNotifications: WhatsappNotificationsSchema.optional(),
		estampEnabled: z.boolean().optional(),
		estampConfig: EstampConfigSchema.optional(),
		requireFinalSenderConfirmation: z.boolean().optional(),
	})
	.superRefine(checkEstampPresence);

export const WorkflowConfigSchema = z
	.object({
		documents: z.array(WorkflowDocumentSchema).min(1, 'must hold at least one document (template)'),
		participants: z
			.array(WorkflowParticipantSchema)
			.min(1, 'must hold at least one participant')
			.max(MAX_RECIPIENTS, tooManyRecipients('participants')),
		execution: WorkflowExecutionSchema.optional(),
		// Item shapes not shown: passed through as given.
		approvalStages: z.array(z.unknown()).optional(),
		allowedOverrides: z.array(z.unknown()).optional(),
	})
	.superRefine((config, ctx) => {
		addIssues(
			ctx,
			uniqueIssues(
				config.participants,
				'key',
				(key) => `duplicate participant key "${key}"; keys must be unique`,
			),
			['participants'],
		);
		if (config.participants.length > 0 && !hasSigner(config.participants)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['participants'],
				message: 'must include at least one signer (an omitted role means signer)',
			});
		}
	});

export const WorkflowCreateSchema = z.object({
	name: required('is required'),
	description: z.string().optional(),
	config: WorkflowConfigSchema,
});

/** PATCH /workflows/{id} (assumptions.ts): any of name, description, config (config replaces). */
export const WorkflowUpdateSchema = z
	.object({
		name: required('must not be empty').optional(),
		description: z.string().optional(),
		config: WorkflowConfigSchema.optional(),
	})
	.superRefine((body, ctx) => {
		if (body.name === undefined && body.description === undefined && body.config === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: 'must include at least one property to change (name, description, config)',
			});
		}
	});

export const WorkflowRunRecipientSchema = z
	.object({
		participantKey: required('is required (the key of a workflow participant)'),
		name: required('is required'),
		email: email().optional(),
		phone: phone().optional(),
	})
	.superRefine(checkContact);

export const WorkflowRunSchema = z
	.object({
		title: required('is required'),
		recipients: z
			.array(WorkflowRunRecipientSchema)
			.min(1, 'must hold at least one recipient')
			.max(MAX_RECIPIENTS, tooManyRecipients()),
		idempotencyKey: z
			.string()
			.trim()
			.min(1, 'must not be empty')
			.max(255, 'must be at most 255 characters')
			.optional(),
	})
	.superRefine((body, ctx) =>
		addIssues(
			ctx,
			uniqueIssues(
				body.recipients,
				'participantKey',
				(key) => `repeats "${key}"; each participant gets one recipient`,
			),
			['recipients'],
		),
	);

/**
 * The run rules that need the published configuration: each recipient names a
 * participant, and every required participant (required unless `required: false`)
 * gets a recipient.
 */
export function workflowRunIssues(
	participants: ReadonlyArray<{ key: string; label?: string; required?: boolean }>,
	recipients: ReadonlyArray<{ participantKey: string }>,
): FieldIssue[] {
	const issues: FieldIssue[] = [];
	const known = participants.map((p) => p.key);
	recipients.forEach((r, i) => {
		if (!known.includes(r.participantKey)) {
			issues.push({
				path: ['recipients', i, 'participantKey'],
				message: `"${r.participantKey}" is not a participant key of this workflow (keys: ${known.join(', ')})`,
			});
		}
	});
	const given = new Set(recipients.map((r) => r.participantKey));
	const missing = participants.filter((p) => p.required !== false && !given.has(p.key));
	if (missing.length > 0) {
		issues.push({
			path: ['recipients'],
			message: `needs a recipient for every required participant; missing ${missing.map((p) => `"${p.key}"`).join(', ')}`,
		});
	}
	return issues;
}

export const WorkflowListQuerySchema = PagingQuerySchema;

export type WorkflowParticipant = z.infer<typeof WorkflowParticipantSchema>;
export type WorkflowConfig = z.infer<typeof WorkflowConfigSchema>;
export type WorkflowRun = z.infer<typeof WorkflowRunSchema>;
