import {
	AddRecipientsSchema,
	EnvelopeCreateSchema,
	EnvelopeListQuerySchema,
	formatZodIssues,
	HttpsUrlSchema,
	MAX_RECIPIENTS,
	RecipientListSchema,
	RecipientSchema,
	recipientTotalIssue,
	SignaturePlacementSchema,
	SigningSettingsSchema,
} from '../../nodes/shared/api/schemas';
import { codes, problems } from './helpers';

const signer = (n = 1, over: Record<string, unknown> = {}) => ({
	name: `Signer ${n}`,
	email: `s${n}@example.com`,
	...over,
});

describe('recipient', () => {
	it('accepts email, phone or both as contact', () => {
		expect(problems(RecipientSchema, { name: 'A', email: 'a@example.com' })).toEqual([]);
		expect(problems(RecipientSchema, { name: 'A', phone: '+919876543210' })).toEqual([]);
		expect(
			problems(RecipientSchema, { name: 'A', email: 'a@example.com', phone: '+14155550100' }),
		).toEqual([]);
	});

	it('requires a name and a contact', () => {
		expect(problems(RecipientSchema, { email: 'a@example.com' })).toEqual(['name: Required']);
		expect(problems(RecipientSchema, { name: '   ', email: 'a@example.com' })).toEqual([
			'name: is required',
		]);
		expect(problems(RecipientSchema, { name: 'A' })).toEqual([
			'email: each recipient needs a contact: an email, a phone (E.164) or both',
		]);
	});

	it('checks e-mail and E.164 formats with invalid_string', () => {
		expect(problems(RecipientSchema, { name: 'A', email: 'not-an-email' })).toEqual([
			'email: Invalid email',
		]);
		expect(codes(RecipientSchema, { name: 'A', email: 'not-an-email' })).toEqual([
			'invalid_string',
		]);
		for (const bad of ['9876543210', '+0123456', '+91 98765 43210', '+1234567890123456']) {
			expect(problems(RecipientSchema, { name: 'A', phone: bad })).toEqual([
				'phone: must be a phone number in E.164 format, such as +919876543210',
			]);
		}
	});

	it('checks role, signature and verification enums', () => {
		for (const role of ['signer', 'approver', 'cc'])
			expect(problems(RecipientSchema, signer(1, { role }))).toEqual([]);
		for (const m of ['electronic', 'aadhaar_otp', 'dsc_usb', 'all'])
			expect(problems(RecipientSchema, signer(1, { signatureMethod: m }))).toEqual([]);
		expect(codes(RecipientSchema, signer(1, { role: 'viewer' }))).toEqual(['invalid_enum_value']);
		expect(codes(RecipientSchema, signer(1, { signatureMethod: 'wet_ink' }))).toEqual([
			'invalid_enum_value',
		]);
		expect(codes(RecipientSchema, signer(1, { verificationMethod: 'sms' }))).toEqual([
			'invalid_enum_value',
		]);
		expect(problems(RecipientSchema, signer(1, { verificationMethod: 'link_only' }))).toEqual([]);
	});

	it('requires order to be a whole number from 1', () => {
		expect(problems(RecipientSchema, signer(1, { order: 1 }))).toEqual([]);
		expect(problems(RecipientSchema, signer(1, { order: 0 }))).toEqual([
			'order: must be a whole number from 1',
		]);
		expect(codes(RecipientSchema, signer(1, { order: 1.5 }))).toEqual(['invalid_type']);
		expect(codes(RecipientSchema, signer(1, { order: '2' }))).toEqual(['invalid_type']);
	});

	it('checks signature placement', () => {
		const placement = {
			type: 'text',
			searchText: 'Signature:',
			pages: [1, 2],
			position: 'below',
			gap: 5,
			width: 200,
			height: 50,
		};
		expect(problems(SignaturePlacementSchema, placement)).toEqual([]);
		expect(problems(RecipientSchema, signer(1, { signaturePlacement: placement }))).toEqual([]);
		expect(problems(SignaturePlacementSchema, { ...placement, searchText: '' })).toEqual([
			'searchText: must not be empty',
		]);
		expect(problems(SignaturePlacementSchema, { ...placement, pages: [0] })).toEqual([
			'pages.0: pages start at 1',
		]);
		expect(codes(SignaturePlacementSchema, { ...placement, position: 'left' })).toEqual([
			'invalid_enum_value',
		]);
		expect(problems(SignaturePlacementSchema, { ...placement, width: 0 })).toEqual([
			'width: must be greater than 0',
		]);
	});
});

describe('recipient list', () => {
	it('accepts up to 15 recipients with a signer, and an empty list', () => {
		const list = Array.from({ length: 15 }, (_, i) =>
			signer(i + 1, { role: i === 0 ? 'signer' : 'cc' }),
		);
		expect(problems(RecipientListSchema, list)).toEqual([]);
		expect(problems(RecipientListSchema, [])).toEqual([]);
	});

	it('rejects more than 15 across all roles', () => {
		const list = Array.from({ length: 16 }, (_, i) =>
			signer(i + 1, { role: ['signer', 'approver', 'cc'][i % 3] }),
		);
		expect(problems(RecipientListSchema, list)).toEqual([
			'must hold at most 15 recipients across all roles (signers, approvers, cc); got 16',
		]);
	});

	it('needs at least one signer; an omitted role counts as signer', () => {
		expect(
			problems(RecipientListSchema, [signer(1, { role: 'approver' }), signer(2, { role: 'cc' })]),
		).toEqual([
			'must include at least one signer (approver-only and cc-only lists cannot be sent)',
		]);
		expect(problems(RecipientListSchema, [signer(1)])).toEqual([]);
	});

	it('counts existing recipients when appending, only the new list when replacing', () => {
		expect(MAX_RECIPIENTS).toBe(15);
		expect(recipientTotalIssue(10, 5, false)).toBeUndefined();
		expect(recipientTotalIssue(10, 6, false)).toMatch(/16 recipients; at most 15/);
		expect(recipientTotalIssue(14, 15, true)).toBeUndefined();
		expect(recipientTotalIssue(0, 16, true)).toMatch(/at most 15/);
	});
});

describe('workflow settings', () => {
	const good = {
		mode: 'parallel',
		verificationMethod: 'link_only',
		message: 'Please sign',
		reminderEveryHours: 12,
		expiresAt: '2030-01-31T18:00:00Z',
		emailNotifications: 'completion_only',
		whatsappNotifications: 'none',
		redirectUrl: 'https://example.com/done',
		estampEnabled: false,
	};

	it('accepts valid settings and an empty object', () => {
		expect(problems(SigningSettingsSchema, good)).toEqual([]);
		expect(problems(SigningSettingsSchema, {})).toEqual([]);
		expect(
			problems(SigningSettingsSchema, { ...good, expiresAt: '2030-01-31T18:00:00.000+05:30' }),
		).toEqual([]);
	});

	it('rejects bad enums with invalid_enum_value', () => {
		for (const [key, value] of [
			['mode', 'random'],
			['verificationMethod', 'sms'],
			['emailNotifications', 'some'],
		]) {
			expect(codes(SigningSettingsSchema, { [key]: value })).toEqual(['invalid_enum_value']);
		}
	});

	it('sends any whatsappNotifications value (only "all" is in the specification), not an empty one', () => {
		for (const value of ['all', 'none', 'critical'])
			expect(problems(SigningSettingsSchema, { whatsappNotifications: value })).toEqual([]);
		expect(problems(SigningSettingsSchema, { whatsappNotifications: '' })).toEqual([
			'whatsappNotifications: must not be empty',
		]);
	});

	it('requires reminderEveryHours to be a whole number from 1', () => {
		expect(problems(SigningSettingsSchema, { reminderEveryHours: 0 })).toEqual([
			'reminderEveryHours: must be a whole number of hours from 1',
		]);
		expect(codes(SigningSettingsSchema, { reminderEveryHours: 2.5 })).toEqual(['invalid_type']);
	});

	it('requires expiresAt to be an ISO timestamp', () => {
		for (const bad of ['tomorrow', '2030-01-31', '2030-01-31 18:00']) {
			expect(problems(SigningSettingsSchema, { expiresAt: bad })).toEqual([
				'expiresAt: must be an ISO 8601 timestamp, such as 2030-01-31T18:00:00Z',
			]);
		}
	});

	it('requires redirectUrl to be an HTTPS URL', () => {
		expect(problems(SigningSettingsSchema, { redirectUrl: 'http://example.com/done' })).toEqual([
			'redirectUrl: must be an HTTPS URL',
		]);
		expect(problems(SigningSettingsSchema, { redirectUrl: 'example.com' })).toEqual([
			'redirectUrl: must be a valid URL',
		]);
		expect(codes(HttpsUrlSchema, 'nope')).toEqual(['invalid_string']);
		expect(codes(HttpsUrlSchema, 'ftp://example.com')).toEqual(['custom']);
	});

	it('requires estampEnabled to be a boolean', () => {
		expect(codes(SigningSettingsSchema, { estampEnabled: 'true' })).toEqual(['invalid_type']);
	});
});

describe('envelope create', () => {
	it('needs only fileName', () => {
		expect(problems(EnvelopeCreateSchema, { fileName: 'contract.pdf' })).toEqual([]);
		expect(problems(EnvelopeCreateSchema, {})).toEqual(['fileName: Required']);
		expect(problems(EnvelopeCreateSchema, { fileName: '' })).toEqual([
			'fileName: is required (the PDF file name)',
		]);
	});

	it('validates nested recipients and workflow with dotted paths', () => {
		expect(
			problems(EnvelopeCreateSchema, {
				fileName: 'c.pdf',
				title: 'NDA',
				recipients: [signer(1), { name: 'B', email: 'bad' }],
				workflow: { redirectUrl: 'http://x.test' },
			}),
		).toEqual(['recipients.1.email: Invalid email', 'workflow.redirectUrl: must be an HTTPS URL']);
	});

	it('applies the list rules to recipients', () => {
		expect(
			problems(EnvelopeCreateSchema, {
				fileName: 'c.pdf',
				recipients: [signer(1, { role: 'cc' })],
			}),
		).toEqual([
			'recipients: must include at least one signer (approver-only and cc-only lists cannot be sent)',
		]);
	});
});

describe('add recipients', () => {
	it('takes recipients and an optional replace flag', () => {
		expect(problems(AddRecipientsSchema, { recipients: [signer(1, { role: 'cc' })] })).toEqual([]);
		expect(problems(AddRecipientsSchema, { recipients: [signer(1)], replace: true })).toEqual([]);
		expect(problems(AddRecipientsSchema, { recipients: [] })).toEqual([
			'recipients: must hold at least one recipient',
		]);
		expect(codes(AddRecipientsSchema, { recipients: [signer(1)], replace: 'yes' })).toEqual([
			'invalid_type',
		]);
		expect(
			problems(AddRecipientsSchema, {
				recipients: Array.from({ length: 16 }, (_, i) => signer(i)),
			}),
		).toEqual(['recipients: must hold at most 15 recipients across all roles']);
	});
});

describe('envelope list query', () => {
	it('coerces paging and applies defaults', () => {
		expect(EnvelopeListQuerySchema.parse({})).toEqual({ page: 1, limit: 20 });
		expect(
			EnvelopeListQuerySchema.parse({ page: '2', limit: '100', status: 'draft', search: 'nda' }),
		).toEqual({
			page: 2,
			limit: 100,
			status: 'draft',
			search: 'nda',
		});
	});

	it('rejects bad paging and status', () => {
		expect(problems(EnvelopeListQuerySchema, { page: '0' })).toEqual([
			'page: must be a whole number from 1',
		]);
		expect(problems(EnvelopeListQuerySchema, { limit: '101' })).toEqual([
			'limit: must be a whole number from 1 to 100',
		]);
		expect(problems(EnvelopeListQuerySchema, { page: 'abc' })).toEqual([
			'page: must be a whole number from 1',
		]);
		// Statuses beyond the four shown are not named by the specification: any is sent.
		expect(problems(EnvelopeListQuerySchema, { status: 'declined' })).toEqual([]);
		expect(problems(EnvelopeListQuerySchema, { status: '' })).toEqual([
			'status: must not be empty',
		]);
	});
});

describe('formatZodIssues', () => {
	it('joins paths with dots and keeps top-level messages bare', () => {
		const result = EnvelopeCreateSchema.safeParse({
			fileName: 'a.pdf',
			recipients: [{ name: 'A', email: 'x' }],
		});
		expect(result.success).toBe(false);
		if (!result.success)
			expect(formatZodIssues(result.error)).toEqual(['recipients.0.email: Invalid email']);
		expect(
			formatZodIssues({ issues: [{ code: 'custom', path: [], message: 'whole body' }] }),
		).toEqual(['whole body']);
	});
});
