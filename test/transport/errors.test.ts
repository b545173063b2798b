/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
import { inspect } from 'util';

import type { INode } from 'n8n-workflow';

import { apiResponseError, fieldErrorLines } from '../../nodes/shared/http/errors';
import { errorOf, useProbeHarness } from './setup';

describe('API errors as NodeApiError', () => {
	const { h, probe } = useProbeHarness();

	it('a validation error shows code and message, each field error, the request id and the HTTP code', async () => {
		const result = await probe('request', {
			method: 'POST',
			endpoint: '/envelopes',
			body: {
				fileName: 'contract.pdf',
				recipients: [{ name: 'Ada', email: 'not-an-email', role: 'signer' }],
			},
		});

		const error = errorOf(result);
		expect(result.error?.name).toBe('NodeApiError');
		expect(error.message).toMatch(/^VALIDATION_ERROR: \S/);
		expect(error.httpCode).toBe('400');
		expect(error.description).toMatch(/^Recipient 1 > Email: .+$/m);
		expect(error.description).toMatch(/^Request ID: req_\w+$/m);
		expect(error.context).toMatchObject({
			apiCode: 'VALIDATION_ERROR',
			requestId: expect.stringMatching(/^req_/),
			fieldErrors: [expect.stringMatching(/^Recipient 1 > Email: /)],
			itemIndex: 0,
		});
		// nothing was created
		expect(h().sandbox.state.envelopes.size).toBe(0);
	});

	it('an unknown envelope gives NOT_FOUND with HTTP 404', async () => {
		const result = await probe('request', {
			method: 'GET',
			endpoint: '/envelopes/env_nope/status',
		});
		const error = errorOf(result);
		expect(error.message).toMatch(/^NOT_FOUND: /);
		expect(error.httpCode).toBe('404');
		expect(error.context.apiCode).toBe('NOT_FOUND');
	});

	it('a disabled key gives FORBIDDEN', async () => {
		const result = await probe('request', { method: 'GET', endpoint: '/envelopes' }, undefined, {
			apiKey: h().sandbox.disabledApiKey,
		});
		expect(errorOf(result).message).toMatch(/^FORBIDDEN: /);
	});

	describe('the API key never appears', () => {
		const appearsIn = (key: string, value: unknown) =>
			JSON.stringify(value).includes(key) ||
			inspect(value, { depth: 12, showHidden: true }).includes(key);

		it('in the live error objects (API error, network error, before and after sending)', async () => {
			const key = h().sandbox.apiKey;
			const live = async (args: object, credentials?: object) => {
				const result = await probe(
					'request',
					{ ...args, captureError: true },
					undefined,
					credentials as never,
				);
				const json = result.items('Probe')[0].json;
				expect(json.name).toBe('NodeApiError');
				return json;
			};

			const samples = [
				await live({ method: 'GET', endpoint: '/envelopes' }, { apiKey: `${key}x` }),
				await live({ method: 'POST', endpoint: '/envelopes', body: { title: 1 } }),
				await live({ method: 'GET', endpoint: '/envelopes/env_nope/status' }),
			];
			await h().fault({ connectionReset: { count: 1 } });
			samples.push(
				await live({ method: 'POST', endpoint: '/envelopes', body: { fileName: 'a.pdf' } }),
			);
			await h().fault({ malformedJson: { count: 1 } });
			samples.push(
				await live({ method: 'POST', endpoint: '/envelopes', body: { fileName: 'a.pdf' } }),
			);

			expect(samples.map((sample) => String(sample.message).split(':')[0])).toEqual([
				'UNAUTHORIZED',
				'VALIDATION_ERROR',
				'NOT_FOUND',
				expect.any(String),
				'The service answered with malformed JSON',
			]);
			for (const sample of samples) {
				expect(sample.inspected).not.toContain(key);
				expect(sample.json).not.toContain(key);
				expect(sample.inspected).not.toMatch(/authorization/i);
			}
		});

		it('in the run data n8n keeps', async () => {
			const key = h().sandbox.apiKey;

			const unauthorized = await probe(
				'request',
				{ method: 'GET', endpoint: '/envelopes' },
				undefined,
				{
					apiKey: `${key}x`,
				},
			);
			expect(errorOf(unauthorized).message).toMatch(/^UNAUTHORIZED: /);
			expect(appearsIn(key, unauthorized.error)).toBe(false);
			expect(appearsIn(key, unauthorized.run)).toBe(false);

			const validation = await probe('request', {
				method: 'POST',
				endpoint: '/envelopes',
				body: { title: 1 },
			});
			expect(errorOf(validation).message).toMatch(/^VALIDATION_ERROR/);
			expect(appearsIn(key, validation.error)).toBe(false);

			await h().fault({ connectionReset: { count: 1 } });
			const reset = await probe('request', {
				method: 'POST',
				endpoint: '/envelopes',
				body: { fileName: 'a.pdf' },
			});
			expect(errorOf(reset).context.apiCode).toBe('ECONNRESET');
			expect(appearsIn(key, reset.error)).toBe(false);
			expect(appearsIn(key, reset.run)).toBe(false);
		});

		it('even when a server echoes it back in the error body', () => {
			const node = { name: 'Document Signing', type: 'documentSigning' } as INode;
			const echoed = ['service', 'abcdef0123456789'].join('_');
			const error = apiResponseError(
				node,
				400,
				JSON.stringify({
					code: 'VALIDATION_ERROR',
					message: `Bad header Bearer ${echoed}`,
					requestId: 'req_1',
					details: { validation: { fieldErrors: { token: [`got ${echoed}`] } } },
				}),
				echoed,
			);
			expect(error.message).toBe('VALIDATION_ERROR: Bad header Bearer [redacted]');
			expect(appearsIn(echoed, error)).toBe(false);
		});
	});

	it('field error lines: issues first, field errors not covered by an issue, form errors', () => {
		expect(
			fieldErrorLines({
				details: {
					validation: {
						issues: [
							{
								path: ['recipients', 0, 'email'],
								message: 'Invalid email',
								code: 'invalid_string',
							},
						],
						fieldErrors: { recipients: ['Invalid email'], fileName: ['Required'] },
						formErrors: ['Body must be an object'],
					},
				},
			}),
		).toEqual([
			'Recipient 1 > Email: Invalid email',
			'File Name: is required',
			'Body must be an object',
		]);
	});
});
