import {
	CreditTransactionsQuerySchema,
	CreditUsageQuerySchema,
	WorkflowCreateSchema,
	WorkflowListQuerySchema,
	WorkflowRunSchema,
	workflowRunIssues,
	WorkflowUpdateSchema,
} from '../../nodes/shared/api/schemas';
import { codes, problems } from './helpers';

const config = (over: Record<string, unknown> = {}) => ({
	documents: [{ templateId: 'tpl_1', label: 'NDA', required: true }],
	participants: [
		{
			key: 'client',
			label: 'Client',
			order: 1,
			role: 'signer',
			signatureMethod: 'electronic',
			verificationMethod: 'email_verification',
			required: true,
		},
		{ key: 'manager', label: 'Manager', order: 2, role: 'approver' },
	],
	execution: {
		mode: 'sequential',
		verificationMethod: 'email_verification',
		expiresInDays: 7,
		reminderEveryHours: 24,
		message: 'Please sign',
		redirectUrl: 'https://example.com/done',
		emailNotifications: 'all',
		whatsappNotifications: 'all',
		estampEnabled: false,
		requireFinalSenderConfirmation: false,
	},
	approvalStages: [],
	allowedOverrides: [],
	...over,
});

describe('workflow create', () => {
	it('accepts a full definition', () => {
		expect(
			problems(WorkflowCreateSchema, { name: 'Onboarding', description: 'd', config: config() }),
		).toEqual([]);
	});

	it('requires name, documents and participants', () => {
		expect(problems(WorkflowCreateSchema, {})).toEqual(['name: Required', 'config: Required']);
		expect(problems(WorkflowCreateSchema, { name: 'x', config: {} })).toEqual([
			'config.documents: Required',
			'config.participants: Required',
		]);
		expect(
			problems(WorkflowCreateSchema, { name: 'x', config: config({ documents: [] }) }),
		).toEqual(['config.documents: must hold at least one document (template)']);
		expect(
			problems(WorkflowCreateSchema, {
				name: 'x',
				config: config({ documents: [{ templateId: 't' }] }),
			}),
		).toEqual(['config.documents.0.label: Required']);
	});

	it('checks participants: order from 1, enums, unique keys, a signer', () => {
		const p = (over: Record<string, unknown>) =>
			config({ participants: [{ key: 'a', label: 'A', order: 1, ...over }] });
		expect(problems(WorkflowCreateSchema, { name: 'x', config: p({ order: 0 }) })).toEqual([
			'config.participants.0.order: must be a whole number from 1',
		]);
		expect(problems(WorkflowCreateSchema, { name: 'x', config: p({ order: undefined }) })).toEqual([
			'config.participants.0.order: Required',
		]);
		expect(codes(WorkflowCreateSchema, { name: 'x', config: p({ role: 'boss' }) })).toEqual([
			'invalid_enum_value',
		]);
		expect(
			problems(WorkflowCreateSchema, {
				name: 'x',
				config: config({
					participants: [
						{ key: 'a', label: 'A', order: 1 },
						{ key: 'a', label: 'B', order: 2 },
					],
				}),
			}),
		).toEqual(['config.participants.1.key: duplicate participant key "a"; keys must be unique']);
		expect(problems(WorkflowCreateSchema, { name: 'x', config: p({ role: 'cc' }) })).toEqual([
			'config.participants: must include at least one signer (an omitted role means signer)',
		]);
	});

	it('checks execution settings', () => {
		const e = (over: Record<string, unknown>) =>
			config({ execution: { ...config().execution, ...over } });
		expect(problems(WorkflowCreateSchema, { name: 'x', config: e({ expiresInDays: 0 }) })).toEqual([
			'config.execution.expiresInDays: must be a whole number of days from 1',
		]);
		expect(
			problems(WorkflowCreateSchema, { name: 'x', config: e({ reminderEveryHours: 0 }) }),
		).toEqual(['config.execution.reminderEveryHours: must be a whole number of hours from 1']);
		expect(
			problems(WorkflowCreateSchema, { name: 'x', config: e({ redirectUrl: 'not a url' }) }),
		).toEqual(['config.execution.redirectUrl: must be a valid URL']);
		expect(
			problems(WorkflowCreateSchema, { name: 'x', config: e({ estampEnabled: true }) }),
		).toEqual(['config.execution.estampConfig: is required (complete) when estampEnabled is true']);
		expect(codes(WorkflowCreateSchema, { name: 'x', config: e({ mode: 'any' }) })).toEqual([
			'invalid_enum_value',
		]);
	});
});

describe('workflow update', () => {
	it('needs at least one of name, description, config', () => {
		expect(problems(WorkflowUpdateSchema, {})).toEqual([
			'must include at least one property to change (name, description, config)',
		]);
		expect(problems(WorkflowUpdateSchema, { name: 'New' })).toEqual([]);
		expect(problems(WorkflowUpdateSchema, { config: config() })).toEqual([]);
		expect(problems(WorkflowUpdateSchema, { config: config({ participants: [] }) })).toEqual([
			'config.participants: must hold at least one participant',
		]);
	});
});

describe('workflow run', () => {
	const run = {
		title: 'Onboarding Asha',
		recipients: [{ participantKey: 'client', name: 'Asha', email: 'asha@example.com' }],
		idempotencyKey: 'k-1',
	};

	it('accepts a run body', () => {
		expect(problems(WorkflowRunSchema, run)).toEqual([]);
		expect(problems(WorkflowRunSchema, { ...run, idempotencyKey: undefined })).toEqual([]);
	});

	it('rejects bad bodies', () => {
		expect(problems(WorkflowRunSchema, {})).toEqual(['title: Required', 'recipients: Required']);
		expect(
			problems(WorkflowRunSchema, {
				...run,
				recipients: [{ participantKey: 'client', name: 'A', email: 'x' }],
			}),
		).toEqual(['recipients.0.email: Invalid email']);
		expect(
			problems(WorkflowRunSchema, { ...run, recipients: [run.recipients[0], run.recipients[0]] }),
		).toEqual([
			'recipients.1.participantKey: repeats "client"; each participant gets one recipient',
		]);
		expect(problems(WorkflowRunSchema, { ...run, idempotencyKey: '' })).toEqual([
			'idempotencyKey: must not be empty',
		]);
	});

	it('matches recipients to participants', () => {
		const participants = [
			{ key: 'client' },
			{ key: 'manager' },
			{ key: 'witness', required: false },
		];
		expect(
			workflowRunIssues(participants, [
				{ participantKey: 'client' },
				{ participantKey: 'manager' },
			]),
		).toEqual([]);
		expect(
			workflowRunIssues(participants, [
				{ participantKey: 'client' },
				{ participantKey: 'ghost' },
			]).map((i) => i.message),
		).toEqual([
			'"ghost" is not a participant key of this workflow (keys: client, manager, witness)',
			'needs a recipient for every required participant; missing "manager"',
		]);
	});

	it('list query is paging only', () => {
		expect(WorkflowListQuerySchema.parse({ page: '3' })).toEqual({ page: 3, limit: 20 });
	});
});

describe('credit queries', () => {
	it('transactions: paging and type enum', () => {
		expect(CreditTransactionsQuerySchema.parse({ type: 'consume' })).toEqual({
			page: 1,
			limit: 20,
			type: 'consume',
		});
		for (const type of ['purchase', 'refund', 'adjustment'])
			expect(problems(CreditTransactionsQuerySchema, { type })).toEqual([]);
		// Types beyond consume are not in the specification: any is sent.
		expect(problems(CreditTransactionsQuerySchema, { type: 'bonus' })).toEqual([]);
		expect(problems(CreditTransactionsQuerySchema, { type: '' })).toEqual([
			'type: must not be empty',
		]);
	});

	it('usage: real calendar dates in YYYY-MM-DD, start not after end', () => {
		expect(problems(CreditUsageQuerySchema, {})).toEqual([]);
		expect(
			problems(CreditUsageQuerySchema, { startDate: '2024-02-29', endDate: '2024-03-31' }),
		).toEqual([]);
		for (const bad of [
			'2023-02-29',
			'2024-13-01',
			'2024-04-31',
			'2024-1-05',
			'05/01/2024',
			'2024-01-01T00:00:00Z',
		]) {
			expect(problems(CreditUsageQuerySchema, { startDate: bad })).toEqual([
				'startDate: must be a real calendar date in the form YYYY-MM-DD',
			]);
			expect(codes(CreditUsageQuerySchema, { endDate: bad })).toEqual(['invalid_string']);
		}
		expect(
			problems(CreditUsageQuerySchema, { startDate: '2024-05-02', endDate: '2024-05-01' }),
		).toEqual(['endDate: must not be before startDate']);
	});
});
