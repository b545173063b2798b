/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The API key and the webhook secret never appear in any output item, error message,
 * error description, execution hint or log line. Representative workflows over every
 * operation, in success and failure (bad input, API errors, a wrong key, injected
 * faults, Continue On Fail or not), and trigger deliveries (signed, badly signed, bad
 * bodies); everything they produce is collected and searched.
 */
import { createHmac } from 'crypto';
import path from 'path';
import type { IDataObject, NodeParameterValueType } from 'n8n-workflow';

import {
	actionNode,
	chain,
	type Harness,
	type RunResult,
	seedNode,
	startHarness,
} from '../harness';
import { startWebhookRunner } from '../harness/webhook';
import { makePdf, pdfItem, recipientFields, SIGNER, seedEnvelope } from '../envelope/helpers';
import { sampleEvents } from '../trigger/events';

// The logger n8n hands to nodes (this.logger), from n8n-core's own copy of the container.
/* eslint-disable @typescript-eslint/no-require-imports */
const fromCore = { paths: [path.dirname(require.resolve('n8n-core'))] };
const { Container } = require(require.resolve('@n8n/di', fromCore)) as typeof import('@n8n/di');
const { Logger } = require(require.resolve('@n8n/backend-common', fromCore)) as {
	Logger: new (...args: unknown[]) => Record<string, (...args: unknown[]) => void>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const WRONG_KEY = 'sk_live_wrong_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const WEBHOOK_SECRET = 'whsec_leakcheck_3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d';

const collected: string[] = [];
const collect = (...values: unknown[]) => {
	for (const value of values)
		collected.push(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
};

let h: Harness;
let pdf: Buffer;
const spies: jest.SpyInstance[] = [];
beforeAll(async () => {
	h = await startHarness({ retry: { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 1500 } });
	pdf = await makePdf(1);
	const logger = Container.get(Logger);
	for (const level of ['error', 'warn', 'info', 'debug']) {
		spies.push(
			jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => collect(...args)),
		);
	}
	for (const stream of [process.stdout, process.stderr]) {
		const write = stream.write.bind(stream);
		spies.push(
			jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
				collect(String(chunk));
				return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
			}) as never),
		);
	}
});
afterAll(async () => {
	spies.forEach((spy) => spy.mockRestore());
	await h.close();
});

function collectRun(result: RunResult): void {
	for (const [, runs] of Object.entries(result.runData)) {
		for (const run of runs) {
			collect(run.data?.main ?? [], run.hints ?? []);
			if (run.error)
				collect(run.error.message, (run.error as { description?: string }).description ?? '');
		}
	}
	if (result.error)
		collect(
			result.error.message,
			(result.error as { description?: string }).description ?? '',
			result.error.stack ?? '',
		);
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

async function run(
	params: IDataObject,
	input = [{ json: {} }] as Parameters<Harness['run']>[0]['input'],
	options: { continueOnFail?: boolean; apiKey?: string } = {},
) {
	const result = await h.run({
		nodes: [
			seedNode(),
			actionNode({ resource: 'envelope', ...params } as Record<string, NodeParameterValueType>, {
				continueOnFail: options.continueOnFail,
			}),
		],
		connections: chain('Seed', 'Document Signing'),
		input,
		credentials: options.apiKey ? { apiKey: options.apiKey } : undefined,
	});
	collectRun(result);
	return result;
}

test('no output item, error, hint or log line contains the API key or the webhook secret', async () => {
	const draft = (await seedEnvelope(h)).id as string;
	const ready = (await seedEnvelope(h, {}, { upload: pdf })).id as string;
	const create = { operation: 'create', title: 'Lease', recipients: recipientFields([SIGNER]) };

	// every operation, succeeding
	await run(create, [pdfItem(pdf)]);
	await run({ operation: 'getMany', returnAll: true });
	await run({ operation: 'getStatus', envelopeId: byId(draft) });
	await run({ operation: 'getFields', envelopeId: byId(draft) });
	await run({
		operation: 'addRecipients',
		envelopeId: byId(draft),
		recipients: recipientFields([
			{ name: 'Vikram Shah', email: 'vikram@example.com', role: 'approver' },
		]),
	});
	await run({ operation: 'send', envelopeId: byId(ready) });
	await run({ operation: 'downloadFile', envelopeId: byId(ready) });
	await run({ operation: 'checkEstamp', envelopeId: byId(ready) }, undefined, {
		continueOnFail: true,
	});
	// bad input, API errors (both ways), a wrong key on every kind of call
	await run({ ...create, recipients: recipientFields([{ ...SIGNER, email: 'asha@' }]) }, [
		pdfItem(pdf),
	]);
	await run({ operation: 'getStatus', envelopeId: byId('env_missing') });
	await run({ operation: 'getStatus', envelopeId: byId('env_missing') }, undefined, {
		continueOnFail: true,
	});
	for (const params of [
		create,
		{ operation: 'getMany', returnAll: true },
		{ operation: 'send', envelopeId: byId(ready) },
	]) {
		await run(params, [pdfItem(pdf)], { apiKey: WRONG_KEY });
		await run(params, [pdfItem(pdf)], { apiKey: WRONG_KEY, continueOnFail: true });
	}
	// injected faults, one kind at a time, on reads and creates, with a 50-item batch under a rate limit
	for (const fault of [
		{ failures: [{ status: 500 }] },
		{ failures: [{ status: 503 }] },
		{ connectionReset: {} },
		{ malformedJson: {} },
		{ timeout: { count: 2 } },
	]) {
		await h.fault({ ...fault, retryAfterSeconds: 0 });
		await run(create, [pdfItem(pdf)], { continueOnFail: true });
		await run({ operation: 'getMany', limit: 5 });
		await h.fault({});
	}
	await h.fault({ rateLimitPerSecond: 20, retryAfterSeconds: 0.05 });
	const limited = await run(
		{ operation: 'getStatus', envelopeId: byId(draft) },
		Array.from({ length: 50 }, () => ({ json: {} })),
	);
	expect(limited.error?.message).toBeUndefined();
	await h.fault({});

	// the trigger: signed, badly signed, not JSON, not an event
	const runner = await startWebhookRunner({ credentials: { webhookSecret: WEBHOOK_SECRET } });
	try {
		const [event] = sampleEvents(1);
		const deliveries: Array<[string | Buffer, string]> = [
			[event.raw, createHmac('sha256', WEBHOOK_SECRET).update(event.raw).digest('hex')],
			[event.raw, createHmac('sha256', 'another').update(event.raw).digest('hex')],
			['{"id": ', createHmac('sha256', WEBHOOK_SECRET).update('{"id": ').digest('hex')],
			['[1]', createHmac('sha256', WEBHOOK_SECRET).update('[1]').digest('hex')],
		];
		for (const [body, signature] of deliveries) {
			const response = await fetch(runner.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'X-Service-Signature': signature },
				body,
			});
			collect(await response.text(), [...response.headers.entries()]);
		}
		await runner.settle();
		for (const execution of runner.executions)
			collect(execution.items, execution.run.data.resultData.error?.message ?? '');
		collect(runner.deliveries);
	} finally {
		await runner.close();
	}

	// the search
	expect(collected.length).toBeGreaterThan(40);
	const all = collected.join('\n');
	expect(all).toMatch(/RATE_LIMITED|rate-limit/); // the batch under the limit was seen
	expect(all).toMatch(/UNAUTHORIZED|401/); // a wrong key was seen
	expect(all).toContain('Document Signing: 50 of 50 items done'); // n8n's logger is collected
	for (const secret of [h.sandbox.apiKey, WRONG_KEY, WEBHOOK_SECRET]) {
		const leaks = collected.filter((text) => text.includes(secret));
		expect(leaks).toEqual([]);
	}
});
