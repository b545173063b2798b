/**
 * The safety settings set by an expression, over every value an expression can give, in
 * real runs against the sandbox: Draft Only, Send Immediately, Include Signing Links (the
 * node and its tool variant), Allow Internal Addresses and the trigger's Accept Unsigned
 * Deliveries. Each value gives its documented meaning (true/false or their text in any
 * case; absent, the safe value) or a refusal naming the field with no request at all.
 */
import axios from 'axios';
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { makePdf, seedEnvelope } from '../envelope/helpers';
import { actionNode, chain, type Harness, seedNode, startHarness } from '../harness';
import { useWebhookRunners } from '../harness/webhook';
import { createDocumentParams, seedLease } from '../template-documents/helpers';
import { byId } from '../template/helpers';
import { runParams, seedWorkflow } from '../workflow/helpers';
import { sampleEvents } from '../trigger/events';

/** Each value an expression can give, as the expression that gives it, and what it means. */
export const EXPRESSION_VALUES: Array<[string, string, boolean | 'absent' | 'refused']> = [
	['"true"', '={{ "true" }}', true],
	['"false"', '={{ "false" }}', false],
	['"TRUE "', '={{ "TRUE " }}', true],
	['"0"', '={{ "0" }}', 'refused'],
	['"1"', '={{ "1" }}', 'refused'],
	['""', '={{ "" }}', 'refused'],
	['"yes"', '={{ "yes" }}', 'refused'],
	['0', '={{ 0 }}', 'refused'],
	['1', '={{ 1 }}', 'refused'],
	['null', '={{ null }}', 'absent'],
	['undefined', '={{ undefined }}', 'absent'],
	['{}', '={{ {} }}', 'refused'],
	['[]', '={{ [] }}', 'refused'],
	['NaN', '={{ NaN }}', 'refused'],
	['"1e3"', '={{ "1e3" }}', 'refused'],
	['a 1 MB text', '={{ "x".repeat(1048576) }}', 'refused'],
	['true', '={{ true }}', true],
	['false', '={{ false }}', false],
];

const NODE = 'Document Signing';
const TENANT = [{ json: { name: 'Tenant', email: 'tenant@example.com' } }];

let h: Harness;
beforeAll(async () => {
	h = await startHarness({ nodeTypes: { documentSigningTool: new DocumentSigning() } });
});
afterAll(async () => await h.close());

async function run(parameters: IDataObject, opts: { tool?: boolean; input?: IDataObject[] } = {}) {
	const before = (await h.requests()).length;
	const node = actionNode(parameters as Record<string, NodeParameterValueType>);
	if (opts.tool) node.type = 'documentSigningTool';
	const result = await h.run({
		nodes: [seedNode(), node],
		connections: chain('Seed', NODE),
		input: (opts.input as Array<{ json: IDataObject }>) ?? [{ json: {} }],
	});
	const error = result.error as (Error & { description?: string }) | undefined;
	return {
		error: error?.message ?? '',
		json: JSON.stringify(result.items(NODE)[0]?.json ?? {}),
		requests: (await h.requests()).slice(before).filter((r) => r.path.includes('/api/v1/')),
	};
}

/** The meaning a safety setting takes from a value: absent means its safe value. */
const meaning = (value: boolean | 'absent' | 'refused', safe: boolean) =>
	value === 'absent' ? safe : value;

describe('Draft Only set by an expression', () => {
	it.each(EXPRESSION_VALUES)('%s: Envelope Send', async (_name, expression, value) => {
		const envelope = await seedEnvelope(h, {}, { upload: await makePdf() });
		const sent = await run({
			resource: 'envelope',
			operation: 'send',
			envelopeId: byId(envelope.id as string),
			draftOnly: expression,
		});
		const sends = sent.requests.filter((r) => r.path.endsWith('/send'));
		if (value === 'refused') {
			expect(sent.error).toMatch(/^Draft Only: must (be true or false|not be empty)/);
			expect(sent.requests).toEqual([]);
		} else if (meaning(value, true)) {
			expect(sent.error).toContain('Draft Only is on');
			expect(sent.requests).toEqual([]);
		} else {
			expect(sent.error).toBe('');
			expect(sends).toHaveLength(1);
		}
	});

	it.each(EXPRESSION_VALUES)('%s: Run and Send Document', async (_name, expression, value) => {
		const workflow = await seedWorkflow(h);
		const started = await run({
			resource: 'workflow',
			...runParams(workflow.id),
			draftOnly: expression,
		});
		const envelope = await seedEnvelope(h, {}, { upload: await makePdf() });
		const sent = await run({
			resource: 'template',
			operation: 'sendDocument',
			envelopeId: byId(envelope.id as string),
			draftOnly: expression,
		});
		for (const outcome of [started, sent]) {
			if (value === 'refused') expect(outcome.error).toMatch(/^Draft Only: /);
			else if (meaning(value, true)) expect(outcome.error).toContain('Draft Only is on');
			if (value === 'refused' || meaning(value, true)) expect(outcome.requests).toEqual([]);
			// Sent: the service answers (Send Document of a plain envelope: not found).
			else expect(outcome.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		}
	});
});

describe('Send Immediately set by an expression (Create Document)', () => {
	it.each(EXPRESSION_VALUES)('%s', async (_name, expression, value) => {
		const lease = await seedLease(h);
		const created = await run(
			{ resource: 'template', ...createDocumentParams(lease), sendImmediately: expression },
			{ input: TENANT },
		);
		const creates = created.requests.filter((r) => r.method === 'POST');
		const sends = created.requests.filter((r) => r.path.endsWith('/send'));
		if (value === 'refused') {
			expect(created.error).toMatch(/^Send Immediately: must (be true or false|not be empty)/);
			expect(created.requests).toEqual([]);
		} else if (meaning(value, false)) {
			expect(created.error).toBe('');
			expect(sends).toHaveLength(1);
		} else {
			expect(created.error).toBe('');
			expect(creates).toHaveLength(1);
			expect(sends).toEqual([]);
		}
	});
});

describe('Include Signing Links set by an expression', () => {
	it.each(EXPRESSION_VALUES)(
		'%s: the tool variant and the node',
		async (_name, expression, value) => {
			for (const tool of [true, false]) {
				const envelope = await seedEnvelope(h, {}, { upload: await makePdf() });
				const sent = await run(
					{
						resource: 'envelope',
						operation: 'send',
						envelopeId: byId(envelope.id as string),
						safeguards: { includeSigningLinks: expression },
					},
					{ tool },
				);
				if (value === 'refused') {
					expect(sent.error).toMatch(/^Safeguards > Include Signing Links: /);
					expect(sent.requests).toEqual([]);
					continue;
				}
				expect(sent.error).toBe('');
				if (meaning(value, false)) expect(sent.json).toContain('"actionUrl"');
				else expect(sent.json).not.toContain('actionUrl');
			}
		},
	);
});

describe('Allow Internal Addresses set by an expression (PDF URL)', () => {
	// A refused connection is retried; short waits keep each allowed case under 100 ms.
	beforeAll(() => h.retryPolicy({ baseDelayMs: 5, maxDelayMs: 20 }));
	afterAll(() => h.retryPolicy());
	it.each(EXPRESSION_VALUES)('%s', async (_name, expression, value) => {
		// A loopback address with nothing listening: refused by the guard, or tried and refused
		// by the machine (ECONNREFUSED) when internal addresses are allowed.
		const created = await run({
			resource: 'envelope',
			operation: 'create',
			title: 'Lease',
			pdfSource: 'url',
			pdfUrl: 'http://127.0.0.1:9/lease.pdf',
			fileName: 'lease.pdf',
			options: { allowInternalAddresses: expression },
		});
		const guarded = /refused unless Allow Internal Addresses is on/;
		if (value === 'refused') {
			expect(created.error).toMatch(/^Options > Allow Internal Addresses: /);
		} else if (!meaning(value, false)) {
			expect(created.error).toMatch(guarded);
		} else {
			expect(created.error).not.toBe('');
			expect(created.error).not.toMatch(guarded);
			expect(created.error).not.toMatch(/Allow Internal Addresses: must/);
		}
		expect(created.requests).toEqual([]);
	});
});

describe('Accept Unsigned Deliveries set by an expression (no webhook secret)', () => {
	const startRunner = useWebhookRunners();
	it.each(EXPRESSION_VALUES)('%s', async (_name, expression, value) => {
		const r = await startRunner({
			parameters: { acceptUnsigned: expression },
			credentials: { webhookSecret: '' },
		});
		const [event] = sampleEvents(1);
		const answer = await axios.post(r.url, JSON.stringify(event.object), {
			headers: { 'content-type': 'application/json' },
			validateStatus: () => true,
		});
		if (value === 'refused') {
			expect(answer.status).toBe(500);
			expect(String((answer.data as IDataObject).message)).toMatch(
				/^Accept Unsigned Deliveries: must /,
			);
		} else if (meaning(value, false)) {
			expect(answer.status).toBe(200);
			await r.waitForExecutions(1);
			return;
		} else {
			expect(answer.status).toBe(401);
		}
		await r.settle();
		expect(r.executions).toHaveLength(0);
	});
});
