/**
 * The body each operation builds, as the sandbox received it, checked against the node's
 * schemas made strict at every level: a panel field that reaches the body but not its
 * schema fails here (and at run time the node refuses it by name instead of dropping it,
 * see validateInput).
 */
import { z, type ZodTypeAny } from 'zod/v3';

import { droppedKeys, validateInput } from '../../nodes/shared/api/validation';
import {
	AddRecipientsSchema,
	EnvelopeCreateSchema,
	TemplateCreateSchema,
	WorkflowCreateSchema,
	WorkflowRunSchema,
} from '../../nodes/shared/api/schemas';
import { type Harness, startHarness } from '../harness';
import {
	estampParams,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	SIGNER,
} from '../envelope/helpers';
import { byId, runTemplateOp } from '../template/helpers';
import { runParams, runWorkflowOp, seedTemplate, seedWorkflow } from '../workflow/helpers';

/** `schema` with every object refusing keys it does not list. */
export function deepStrict(schema: ZodTypeAny): ZodTypeAny {
	if (schema instanceof z.ZodObject) {
		const shape = Object.fromEntries(
			Object.entries(schema.shape as Record<string, ZodTypeAny>).map(([key, value]) => [
				key,
				deepStrict(value),
			]),
		);
		return z.object(shape).strict();
	}
	if (schema instanceof z.ZodEffects) return deepStrict(schema.innerType());
	if (schema instanceof z.ZodOptional) return deepStrict(schema.unwrap()).optional();
	if (schema instanceof z.ZodNullable) return deepStrict(schema.unwrap()).nullable();
	if (schema instanceof z.ZodDefault) return deepStrict(schema.removeDefault()).optional();
	if (schema instanceof z.ZodArray) return z.array(deepStrict(schema.element));
	if (schema instanceof z.ZodUnion)
		return z.union((schema.options as ZodTypeAny[]).map(deepStrict) as [ZodTypeAny, ZodTypeAny]);
	return schema;
}

/** Keys of `body` the strict schema refuses (an empty list when it takes them all). */
function unrecognized(schema: ZodTypeAny, body: unknown): string[] {
	const result = deepStrict(schema).safeParse(body);
	if (result.success) return [];
	return result.error.issues
		.filter((issue) => issue.code === 'unrecognized_keys')
		.flatMap((issue) =>
			(issue as z.ZodUnrecognizedKeysIssue).keys.map((key) => [...issue.path, key].join('.')),
		);
}

describe('validateInput never drops a key silently', () => {
	const node = {
		getNode: () => ({
			id: 'n',
			name: 'Document Signing',
			type: 'documentSigning',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: {},
		}),
	};

	it('finds keys a schema leaves out, deeply', () => {
		expect(
			droppedKeys({ a: 1, b: { c: 1, d: [{ e: 1, f: 2 }] } }, { a: 1, b: { c: 1, d: [{ e: 1 }] } }),
		).toEqual(['b.d.0.f']);
		expect(droppedKeys({ a: undefined }, {})).toEqual([]);
	});

	it('refuses a recipient with a key the schema does not list, naming it', () => {
		expect(() =>
			validateInput(
				node,
				EnvelopeCreateSchema,
				{ fileName: 'a.pdf', recipients: [{ ...SIGNER, emial: 'x@example.com' }] },
				0,
				'envelope',
			),
		).toThrow('Invalid envelope: Recipient 1 > emial: is not a field the API takes');
	});
});

describe('the body each operation builds holds only keys its schema lists', () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	const posted = (run: Awaited<ReturnType<typeof runOp>>, suffix: string) =>
		run.requests.find((r) => r.method !== 'GET' && r.path.endsWith(suffix))?.body;

	it('envelope create with every panel field, and add recipients', async () => {
		const recipient = {
			...SIGNER,
			phone: '+919876543210',
			order: 1,
			signatureMethod: 'electronic',
			verificationMethod: 'link_only',
			signaturePlacement: {
				searchText: 'Signature',
				pages: '1',
				position: 'below',
				gap: 10,
				width: 200,
				height: 50,
			},
		};
		const signingSettings = {
			mode: 'parallel',
			verificationMethod: 'email_verification',
			message: 'Please sign',
			reminderEveryHours: 12,
			expiresAt: '2030-01-01T00:00:00Z',
			emailNotifications: 'all',
			whatsappNotifications: 'none',
			redirectUrl: 'https://example.com/done',
		};
		const run = await runOp(
			h,
			{
				operation: 'create',
				pdfSource: 'binary',
				binaryPropertyName: 'data',
				title: 'All fields',
				recipientsInput: 'fields',
				recipients: recipientFields([recipient]),
				signingSettings,
				...estampParams(),
			},
			[pdfItem(await makePdf())],
		);
		expect(run.result.error).toBeUndefined();
		const body = posted(run, '/envelopes');
		expect(body).toMatchObject({ workflow: { mode: 'parallel', estampEnabled: true } });
		expect(unrecognized(EnvelopeCreateSchema, body)).toEqual([]);

		const id = run.items[0].json.id as string;
		const added = await runOp(h, {
			operation: 'addRecipients',
			envelopeId: byId(id),
			recipientsInput: 'fields',
			recipients: recipientFields([{ name: 'C', email: 'c@example.com', role: 'cc' }]),
		});
		expect(added.result.error).toBeUndefined();
		expect(unrecognized(AddRecipientsSchema, posted(added, '/recipients'))).toEqual([]);
	});

	it('template create, signing workflow create and run', async () => {
		const template = await runTemplateOp(
			h,
			{ operation: 'create', name: 'Strict', description: 'All fields' },
			[pdfItem(await makePdf())],
		);
		expect(template.result.error).toBeUndefined();
		expect(unrecognized(TemplateCreateSchema, posted(template, '/templates'))).toEqual([]);

		const seeded = await seedTemplate(h);
		const created = await runWorkflowOp(h, {
			operation: 'create',
			name: 'Strict',
			configInput: 'fields',
			documents: {
				document: [{ templateId: byId(seeded.id as string), label: 'Agreement', required: true }],
			},
			participants: {
				participant: [
					{
						key: 'client',
						label: 'Client',
						order: 1,
						role: 'signer',
						signatureMethod: 'electronic',
						verificationMethod: 'email_verification',
						required: true,
					},
				],
			},
			signingSettings: {
				mode: 'parallel',
				expiresInDays: 10,
				requireFinalSenderConfirmation: false,
				message: 'Please sign',
				whatsappNotifications: 'all',
			},
			approvalStages: '[]',
			allowedOverrides: '[]',
		});
		expect(created.result.error).toBeUndefined();
		expect(unrecognized(WorkflowCreateSchema, posted(created, '/workflows'))).toEqual([]);

		const { id } = await seedWorkflow(h);
		const run = await runWorkflowOp(h, runParams(id));
		expect(run.result.error).toBeUndefined();
		expect(unrecognized(WorkflowRunSchema, posted(run, '/runs'))).toEqual([]);
	});

	it('the strict check itself fails on a key its schema lacks', () => {
		expect(
			unrecognized(EnvelopeCreateSchema, {
				fileName: 'a.pdf',
				workflow: { mode: 'parallel', colour: 'blue' },
			}),
		).toEqual(['workflow.colour']);
	});
});
