/* eslint-disable no-console -- test code: prints the measured output sizes; not published (package.json "files" is dist/ only) */
/**
 * Simplify (versions 1 and 1.1) and Output (1.2): each long answer, full and simplified,
 * from real runs against the sandbox. Prints the JSON size of both (the figures of the
 * docs) and checks that the simplified answer is smaller and keeps what a person or an
 * agent acts on, and that 1.2's Output gives the same two answers as 1.1's Simplify.
 */
import type { IDataObject } from 'n8n-workflow';

import { resourceModules } from '../../nodes/DocumentSigning/actions/resources';
import { outputProperties } from '../../nodes/DocumentSigning/actions/shared/output';
import {
	SIMPLIFIERS,
	SIMPLIFIERS_FROM_1_2,
	WHOLE_ANSWERS,
} from '../../nodes/DocumentSigning/actions/shared/simplify';
import { toolDescriptionProperties } from '../../nodes/DocumentSigning/actions/shared/toolDescriptions';
import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { makePdf, runOp, SIGNER, APPROVER, seedEnvelope } from '../envelope/helpers';
import { type Harness, startHarness } from '../harness';
import { byId, seedTemplate } from '../template/helpers';
import { seedWorkflow } from '../workflow/helpers';

const bytes = (items: Array<{ json: IDataObject }>) =>
	Buffer.byteLength(JSON.stringify(items.map((i) => i.json)));

describe('Simplify and the tool descriptions', () => {
	let h: Harness;
	const sizes: string[] = [];

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => {
		console.log(`Output sizes (JSON bytes, full -> simplified):\n${sizes.join('\n')}`);
		await h.close();
	});

	/** Runs the operation with Simplify off and on (1.1), and with Output Raw and Simplified (1.2); returns both outputs. */
	async function both(label: string, parameters: Record<string, unknown>) {
		const full = await runOp(h, { ...parameters, simplify: false }, undefined, {
			typeVersion: 1.1,
		});
		const simple = await runOp(h, { ...parameters, simplify: true }, undefined, {
			typeVersion: 1.1,
		});
		expect(full.result.error).toBeUndefined();
		expect(simple.result.error).toBeUndefined();
		expect(simple.items).toHaveLength(full.items.length);
		const raw = await runOp(h, { ...parameters, output: 'raw' });
		const simplified = await runOp(h, parameters);
		const stable = (items: typeof full.items) =>
			JSON.stringify(items.map((i) => i.json)).replace(
				/"(updatedAt|createdAt|lastUsedAt)":"[^"]*"/g,
				'',
			);
		expect(stable(raw.items)).toEqual(stable(full.items));
		expect(stable(simplified.items)).toEqual(stable(simple.items));
		const [a, b] = [bytes(full.items), bytes(simple.items)];
		sizes.push(`${label}: ${a} -> ${b} (${Math.round((100 * b) / a)} %)`);
		expect(b).toBeLessThan(a);
		return { full: full.items.map((i) => i.json), simple: simple.items.map((i) => i.json) };
	}

	it('every long operation offers Simplify up to 1.1, off by default on the node and on for its tool variant', () => {
		const node = new DocumentSigning().description.properties;
		const toggles = node.filter((p) => p.name === 'simplify');
		expect(toggles).toEqual(outputProperties.filter((p) => p.name === 'simplify'));
		expect(
			toggles.every(
				(p) => JSON.stringify(p.displayOptions?.show?.['@version']) === '[{"_cnd":{"lte":1.1}}]',
			),
		).toBe(true);
		expect(
			toggles
				.filter((p) => p.displayOptions?.show?.['@tool']?.[0] === false)
				.every((p) => p.default === false),
		).toBe(true);
		expect(
			toggles
				.filter((p) => p.displayOptions?.show?.['@tool']?.[0] === true)
				.every((p) => p.default === true),
		).toBe(true);
		const ops = toggles.map(
			(p) =>
				`${String(p.displayOptions?.show?.resource)}.${String(p.displayOptions?.show?.operation)}`,
		);
		for (const op of [
			'envelope.getMany',
			'envelope.getStatus',
			'template.get',
			'template.getMany',
			'template.getDocumentPayload',
			'workflow.get',
			'workflow.getMany',
		]) {
			expect(ops).toContain(op);
		}
	});

	it('every operation is either simplified or listed as output whole, with why', () => {
		const undecided = Object.entries(resourceModules).flatMap(([resource, module]) =>
			Object.entries(module ?? {})
				.filter(([, value]) => typeof (value as { execute?: unknown })?.execute === 'function')
				.map(([op]) => op)
				.filter(
					(op) =>
						!SIMPLIFIERS[resource]?.[op] &&
						!SIMPLIFIERS_FROM_1_2[resource]?.[op] &&
						!WHOLE_ANSWERS[resource]?.[op],
				)
				.map((op) => `${resource}.${op}`),
		);
		expect(undecided).toEqual([]);
	});

	it('every operation has its own tool description, shown on the tool variant only', () => {
		const node = new DocumentSigning().description.properties;
		const operations = node
			.filter((p) => p.name === 'operation')
			.flatMap((p) =>
				(p.options ?? []).map(
					(o) =>
						`${String(p.displayOptions?.show?.resource)}.${String((o as { value: string }).value)}`,
				),
			);
		// Once per operation and node version (version 1 keeps its Download File text).
		const described = [
			...new Set(
				toolDescriptionProperties.map(
					(p) =>
						`${String(p.displayOptions?.show?.resource)}.${String(p.displayOptions?.show?.operation)}`,
				),
			),
		];
		expect(described.sort()).toEqual(operations.sort());
		for (const p of toolDescriptionProperties) {
			expect(p.displayOptions?.show?.['@tool']).toEqual([true]);
			expect(String(p.default).length).toBeGreaterThan(40);
			expect(String(p.default)).toMatch(/Needs|Returns|Optional/);
		}
	});

	it('shortens each long answer and keeps the fields one acts on', async () => {
		const pdf = await makePdf(2, 'Contract');
		for (let n = 0; n < 3; n++)
			await seedEnvelope(
				h,
				{ title: `Lease ${n}`, recipients: [SIGNER, APPROVER] },
				{ upload: pdf },
			);
		const template = await seedTemplate(h, {
			formFields: [
				{
					id: 'f-company',
					fieldKey: 'company',
					type: 'text',
					pageNumber: 1,
					x: 100,
					y: 700,
					width: 200,
					height: 20,
					required: true,
					label: 'Company',
					assignee: { type: 'sender_prefill' },
				},
				{
					id: 'f-sign',
					fieldKey: 'client_signature',
					type: 'signature',
					pageNumber: 1,
					x: 100,
					y: 100,
					width: 200,
					height: 50,
					assignee: { type: 'recipient', templateRecipientId: 'client' },
				},
				{
					id: 'f-legal',
					fieldKey: 'legal_approval',
					type: 'text',
					pageNumber: 2,
					x: 100,
					y: 100,
					width: 200,
					height: 20,
					assignee: { type: 'recipient', templateRecipientId: 'legal' },
				},
			],
		});
		const signing = await seedWorkflow(h);
		// Aadhaar signing costs credits: the send leaves a credit transaction.
		const sent = await seedEnvelope(
			h,
			{
				title: 'Sent lease',
				recipients: [{ ...SIGNER, signatureMethod: 'aadhaar_otp' }, APPROVER],
			},
			{ upload: pdf },
		);
		await h.api('POST', `/envelopes/${String(sent.id)}/send`);

		const envelopes = await both('envelope Get Many (5 envelopes)', {
			operation: 'getMany',
			returnAll: true,
		});
		expect(envelopes.simple[0]).toEqual(
			expect.objectContaining({
				id: expect.any(String),
				title: expect.any(String),
				status: expect.any(String),
			}),
		);

		const status = await both('envelope Get Status (2 recipients)', {
			operation: 'getStatus',
			envelopeId: byId(String(sent.id)),
		});
		expect(status.simple[0]).toEqual(
			expect.objectContaining({ envelopeId: sent.id, status: 'pending' }),
		);
		expect((status.simple[0].recipients as IDataObject[]).map((r) => r.email)).toEqual([
			SIGNER.email,
			APPROVER.email,
		]);

		const document = await h.api<IDataObject>(
			'POST',
			`/templates/${String(template.id)}/documents`,
			{
				title: 'Lease from template',
				recipientMapping: [
					{ templateRecipientId: 'client', name: SIGNER.name, email: SIGNER.email },
					{ templateRecipientId: 'legal', name: APPROVER.name, email: APPROVER.email },
				],
				prefillValues: [{ fieldId: 'f-company', fieldKey: 'company', value: 'Acme' }],
			},
		);
		const documentId = String(document.id ?? document.envelopeId);
		const fields = await both('envelope Get Fields (3 fields)', {
			operation: 'getFields',
			envelopeId: byId(documentId),
		});
		expect((fields.simple[0].fields as IDataObject[]).map((f) => f.fieldKey).sort()).toEqual([
			'client_signature',
			'company',
			'legal_approval',
		]);

		const one = await both('template Get (2 roles, 3 fields)', {
			resource: 'template',
			operation: 'get',
			templateId: byId(String(template.id)),
		});
		expect(one.simple[0].roles).toEqual([
			{ id: 'client', name: 'Client', role: 'signer' },
			{ id: 'legal', name: 'Legal', role: 'approver' },
		]);
		expect(one.simple[0].prefillFields).toEqual([
			{ fieldKey: 'company', label: 'Company', type: 'text', required: true },
		]);

		await both('template Get Many (3 templates)', {
			resource: 'template',
			operation: 'getMany',
			returnAll: true,
		});
		const payload = await both('template Get Document Payload', {
			resource: 'template',
			operation: 'getDocumentPayload',
			templateId: byId(String(template.id)),
		});
		expect(
			(payload.simple[0].recipientMapping as IDataObject[]).map((r) => r.templateRecipientId),
		).toEqual(['client', 'legal']);

		const flow = await both('signing workflow Get', {
			resource: 'workflow',
			operation: 'get',
			workflowId: byId(signing.id),
		});
		expect(flow.simple[0]).toEqual(expect.objectContaining({ id: signing.id }));
		expect((flow.simple[0].participants as IDataObject[]).length).toBeGreaterThan(0);
		await both('signing workflow Get Many (1 workflow)', {
			resource: 'workflow',
			operation: 'getMany',
			returnAll: true,
		});
		const transactions = await both('credit Get Transactions', {
			resource: 'credit',
			operation: 'getTransactions',
			returnAll: true,
		});
		expect(transactions.simple[0]).toEqual(
			expect.objectContaining({ type: 'consume', amount: expect.any(Number) }),
		);
	});
});
