/* eslint-disable no-console -- test code: prints the measured output sizes; not published (package.json "files" is dist/ only) */
/**
 * Output (version 1.2): Simplified by default, Raw, Selected Fields, on the operations whose
 * answers are long, creates and sends included; from real runs against the sandbox. Prints
 * the JSON bytes of Raw and Simplified (the figures of docs/ai-agents.md).
 */
import type { IDataObject } from 'n8n-workflow';

import { outputProperties } from '../../nodes/DocumentSigning/actions/shared/output';
import {
	APPROVER,
	makePdf,
	pdfItem,
	recipientFields,
	runOp,
	seedEnvelope,
	SIGNER,
} from '../envelope/helpers';
import { type Harness, type SeedItem, startHarness } from '../harness';
import { createDocumentParams, seedLease, tenant } from '../template-documents/helpers';
import { byId } from '../template/helpers';

const bytes = (json: unknown) => Buffer.byteLength(JSON.stringify(json));

describe('Output (Simplified / Raw / Selected Fields)', () => {
	let h: Harness;
	const sizes: string[] = [];
	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => {
		console.log(`Output sizes, version 1.2 (JSON bytes, Raw -> Simplified):\n${sizes.join('\n')}`);
		await h.close();
	});

	/** The operation under Raw, Simplified (the default) and Selected Fields; `input(n)` is the item of run n. */
	async function modes(
		label: string,
		parameters: IDataObject,
		input: (n: number) => Promise<SeedItem>,
		fields: string,
	) {
		const out: IDataObject[] = [];
		for (const [n, mode] of [
			{ output: 'raw' },
			{},
			{ output: 'fields', outputFields: fields },
		].entries()) {
			const run = await runOp(h, { ...parameters, ...mode }, [await input(n)]);
			expect(run.result.error).toBeUndefined();
			out.push(run.items[0].json);
		}
		const [raw, simple, selected] = out;
		sizes.push(
			`${label}: ${bytes(raw)} -> ${bytes(simple)} (${Math.round((100 * bytes(simple)) / bytes(raw))} %)`,
		);
		expect(bytes(simple)).toBeLessThan(bytes(raw));
		return { raw, simple, selected };
	}

	it('is offered from 1.2 on every long operation, creates and sends included, Simplified by default, for node and tool alike', () => {
		const output = outputProperties.filter((p) => p.name === 'output');
		const ops = output.map(
			(p) =>
				`${String(p.displayOptions?.show?.resource)}.${String(p.displayOptions?.show?.operation)}`,
		);
		for (const op of [
			'envelope.create',
			'envelope.send',
			'envelope.getMany',
			'envelope.getStatus',
			'envelope.getFields',
			'template.createDocument',
			'template.sendDocument',
			'template.get',
			'template.getMany',
			'template.getDocumentPayload',
			'workflow.get',
			'workflow.getMany',
			'credit.getTransactions',
		]) {
			expect(ops).toContain(op);
		}
		for (const p of output) {
			expect(p.default).toBe('simple');
			expect(p.displayOptions?.show?.['@tool']).toBeUndefined();
			expect(p.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.2 } }]);
		}
	});

	it('Envelope Create: Simplified leaves out the upload internals; Selected Fields keeps only the named fields', async () => {
		const pdf = await makePdf();
		const { raw, simple, selected } = await modes(
			'envelope Create (PDF uploaded, 1 recipient)',
			{ operation: 'create', title: 'Lease', recipients: recipientFields([SIGNER]) },
			async () => pdfItem(pdf),
			'envelopeId, status, nope',
		);
		expect(Object.keys(raw)).toEqual(
			expect.arrayContaining(['fileKey', 'expiresIn', 'maxFileSize']),
		);
		expect(Object.keys(simple).sort()).toEqual([
			'createdAt',
			'envelopeId',
			'fileName',
			'id',
			'recipientsAdded',
			'status',
			'title',
			'uploaded',
		]);
		expect(Object.keys(selected)).toEqual(['envelopeId', 'status']);
		expect(selected.status).toBe('draft');
	});

	it('Envelope Send: Simplified keeps status and recipients, not the settings echo', async () => {
		const pdf = await makePdf();
		const draft = async () => ({
			json: {
				id: (
					await seedEnvelope(
						h,
						{
							recipients: [SIGNER, APPROVER],
							workflow: { mode: 'sequential', reminderEveryHours: 12 },
						},
						{ upload: pdf },
					)
				).id,
			},
		});
		const { raw, simple, selected } = await modes(
			'envelope Send (2 recipients)',
			{ operation: 'send', envelopeId: byId('={{ $json.id }}') },
			draft,
			'status',
		);
		expect(raw.workflow).toBeDefined();
		expect(Object.keys(simple).sort()).toEqual([
			'envelopeId',
			'estamp',
			'message',
			'recipients',
			'status',
		]);
		expect((simple.recipients as IDataObject[]).map((r) => [r.name, r.role, r.status])).toEqual([
			['Asha Rao', 'signer', 'pending'],
			['Vikram Shah', 'approver', 'pending'],
		]);
		expect(selected).toEqual({ status: 'pending' });
	});

	it('Template Create Document with Send Immediately: the send answer shaped as well', async () => {
		const lease = await seedLease(h);
		const { raw, simple } = await modes(
			'template Create Document, sent (2 roles)',
			{ resource: 'template', ...createDocumentParams(lease), sendImmediately: true },
			async (n) => ({ json: tenant(n) }),
			'envelopeId',
		);
		expect((raw.send as IDataObject).workflow).toBeDefined();
		expect(simple).toMatchObject({ status: 'pending', steps: ['createDocument', 'sendDocument'] });
		expect(Object.keys(simple.send as IDataObject).sort()).toEqual([
			'envelopeId',
			'estamp',
			'message',
			'recipients',
			'status',
		]);
	});

	it('Selected Fields with no field named is refused before any request, naming the field', async () => {
		const run = await runOp(h, {
			operation: 'getMany',
			returnAll: true,
			output: 'fields',
			outputFields: ' , ',
		});
		expect(String((run.result.error as Error | undefined)?.message)).toContain(
			'Fields: name at least one field to return',
		);
	});
});
