/**
 * Bad input is refused with the field and the rule before any request (the sandbox's
 * request log stays empty); the one id rule applies to the signing workflow picker.
 */
import { type Harness, startHarness } from '../harness';
import {
	byId,
	CLIENT_ROW,
	configFor,
	errorText,
	LEGAL_ROW,
	type Params,
	PARTICIPANTS,
	runParams,
	runRecipients,
	runWorkflowOp,
} from './helpers';

/** An expression giving empty text: past n8n's own "required" check, to the node's. */
const EMPTY = '={{ "" }}';
const json = (config: unknown) => ({ configInput: 'json', configJson: JSON.stringify(config) });
const create = (over: Params) => ({ operation: 'create', name: 'Sale', ...over });

const cases: Array<[string, Params, string]> = [
	['create: no name', create({ name: '  ', ...json(configFor('tpl_1')) }), 'Name: is required'],
	[
		'create: no documents',
		create(json(configFor('tpl_1', { documents: [] }))),
		'Documents: must hold at least one document',
	],
	[
		'create: a document without a template',
		create({
			configInput: 'fields',
			documents: { document: [{ templateId: byId(EMPTY), label: 'A' }] },
			participants: { participant: PARTICIPANTS },
		}),
		'Document 1 > Template: is required',
	],
	[
		'create: a participant without a key',
		create(json(configFor('tpl_1', { participants: [{ label: 'X', order: 1 }] }))),
		'Participant 1 > Key',
	],
	[
		'create: repeated participant keys',
		create(json(configFor('tpl_1', { participants: [PARTICIPANTS[0], PARTICIPANTS[0]] }))),
		'duplicate participant key "client"',
	],
	[
		'create: no signer',
		create(json(configFor('tpl_1', { participants: [PARTICIPANTS[1]] }))),
		'must include at least one signer',
	],
	[
		'create: order 0',
		create(json(configFor('tpl_1', { participants: [{ ...PARTICIPANTS[0], order: 0 }] }))),
		'Participant 1 > Signing Order: must be a whole number from 1',
	],
	[
		'create: expiry of 0 days',
		create(json(configFor('tpl_1', { execution: { expiresInDays: 0 } }))),
		'Execution Settings > Expires In Days: must be a whole number of days from 1',
	],
	[
		'create: redirect over http',
		create(json(configFor('tpl_1', { execution: { redirectUrl: 'http://example.com' } }))),
		'Execution Settings > Redirect URL',
	],
	[
		'create: config not JSON',
		create({ configInput: 'json', configJson: '{ nope' }),
		'Configuration (JSON): not valid JSON',
	],
	[
		'create: approval stages not an array',
		create({
			configInput: 'fields',
			documents: { document: [{ templateId: byId('tpl_1'), label: 'A' }] },
			participants: { participant: PARTICIPANTS },
			approvalStages: '{}',
		}),
		'Approval Stages (JSON): must be a JSON array, not an object',
	],
	[
		'create: allowed overrides a string',
		create({
			configInput: 'fields',
			documents: { document: [{ templateId: byId('tpl_1'), label: 'A' }] },
			participants: { participant: PARTICIPANTS },
			allowedOverrides: '"all"',
		}),
		'Allowed Overrides (JSON): must be a JSON array, not a string',
	],
	[
		'create: approval stages not JSON',
		create({
			configInput: 'fields',
			documents: { document: [{ templateId: byId('tpl_1'), label: 'A' }] },
			participants: { participant: PARTICIPANTS },
			approvalStages: '[{ stage: 1 }]',
		}),
		'Approval Stages (JSON): not valid JSON',
	],
	[
		'update: nothing chosen',
		{ operation: 'update', workflowId: byId('wf_1'), updateParts: [] },
		'What to Update: choose at least one part',
	],
	[
		'update: empty name',
		{ operation: 'update', workflowId: byId('wf_1'), updateParts: ['name'], name: ' ' },
		'Name: must not be empty',
	],
	[
		'publish: id ".."',
		{ operation: 'publish', workflowId: byId('..') },
		'Signing Workflow: ".." is not an ID',
	],
	[
		'get: an empty id from an expression',
		{ operation: 'get', workflowId: byId(EMPTY) },
		'Signing Workflow: a signing workflow ID is required',
	],
	[
		'get: an id too long',
		{ operation: 'get', workflowId: byId('w'.repeat(200)) },
		'at most 128 are allowed',
	],
	['run: no title', runParams('wf_1', { title: EMPTY }), 'Title: is required'],
	[
		'run: no recipients',
		runParams('wf_1', { runRecipients: {} }),
		'Recipients: must hold at least one recipient',
	],
	[
		'run: a bad email',
		runParams('wf_1', { runRecipients: runRecipients([{ ...CLIENT_ROW, email: 'asha@' }]) }),
		'Recipient 1 > Email',
	],
	[
		'run: neither email nor phone',
		runParams('wf_1', {
			runRecipients: runRecipients([{ participantKey: 'client', name: 'Asha' }]),
		}),
		'Recipient 1',
	],
	[
		'run: a participant twice',
		runParams('wf_1', {
			runRecipients: runRecipients([CLIENT_ROW, { ...LEGAL_ROW, participantKey: 'client' }]),
		}),
		'repeats "client"',
	],
	[
		'run: recipients JSON not a list',
		runParams('wf_1', { recipientsInput: 'json', recipientsJson: '"asha"' }),
		'Recipients (JSON): must be an array of recipients',
	],
	[
		'run: custom key empty',
		runParams('wf_1', { idempotency: 'custom', idempotencyKey: ' ' }),
		'Custom Key: an idempotency key is required',
	],
	[
		'run: custom key too long',
		runParams('wf_1', { idempotency: 'custom', idempotencyKey: 'k'.repeat(300) }),
		'Idempotency Key: must be at most 255 characters',
	],
];

describe('signing workflow bad inputs', () => {
	let h: Harness;

	beforeAll(async () => {
		h = await startHarness();
	});
	afterAll(async () => await h.close());
	beforeEach(async () => await h.reset());

	it.each(cases)('%s', async (_name, params, message) => {
		const run = await runWorkflowOp(h, params);
		expect(errorText(run)).toContain(message);
		expect(run.requests).toHaveLength(0);
	});

	it('Continue On Fail: the bad item becomes an error item with its field errors, paired; nothing is sent', async () => {
		const params = create({
			configInput: 'json',
			configJson: '={{ JSON.stringify($json.config) }}',
		});
		const run = await runWorkflowOp(
			h,
			params,
			[{ json: { config: configFor('tpl_1', { documents: [] }) } }],
			{ continueOnFail: true },
		);
		expect(run.items).toHaveLength(1);
		expect(run.items[0].json.error).toContain('Documents');
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		expect(run.requests).toHaveLength(0);
	});
});
