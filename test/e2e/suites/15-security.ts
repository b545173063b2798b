/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets, @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * Where the API key goes, in a real n8n, through its credential test (REST
 * `POST /rest/credentials/test`, as the editor calls it) and through a workflow run:
 *
 * - a redirector on 127.0.0.1 answers a cross-origin redirect (to a key catcher on
 *   127.0.0.2 that records every request) and a same-origin redirect (to a path of its own
 *   that passes the request on to the sandbox);
 * - link-local and metadata addresses (169.254.169.254, fd00:ec2::254,
 *   metadata.google.internal) and a metadata path on loopback are refused before any
 *   connection; plain http:// to another host is refused unless Allow Insecure HTTP is on;
 * - the webhook trigger's refusals appear in n8n's log (warn level) with no secret.
 */
import { createHmac, randomBytes, randomUUID } from 'crypto';
import { readFile } from 'fs/promises';
import http from 'http';
import type { AddressInfo } from 'net';
import path from 'path';
import axios from 'axios';

import { sleep, waitFor } from '../../../scripts/lib/stack';
import {
	DOMAINS_FIELD,
	check,
	CREDENTIAL_ID,
	type E2eContext,
	executions,
	expect,
	expectEqual,
	triggerWebhookId,
} from '../lib';

interface Seen {
	method: string;
	url: string;
	authorization?: string;
}

interface Server {
	origin: string;
	seen: Seen[];
	close: () => Promise<void>;
}

async function listen(
	host: string,
	handle: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen[]) => void,
): Promise<Server> {
	const seen: Seen[] = [];
	const server = http.createServer((req, res) => {
		seen.push({
			method: req.method ?? '',
			url: req.url ?? '',
			authorization: req.headers.authorization,
		});
		handle(req, res, seen);
	});
	await new Promise<void>((resolve, reject) =>
		server.once('error', reject).listen(0, host, resolve),
	);
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://${host}:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
};

/** Fake cloud keys, as a metadata service hands them out. */
const FAKE_CLOUD_KEYS = {
	Code: 'Success',
	AccessKeyId: 'ASIAFAKEFAKEFAKE',
	SecretAccessKey: 'fake/cloud/secret',
	Token: 'fake-token',
};

export default async function suite({ stack, workflows }: E2eContext): Promise<void> {
	const { apiKey, webhookSecret } = stack.sandbox;
	const sandboxOrigin = new URL(stack.sandbox.baseUrl).origin;

	// Records every request and answers like the API would, so a followed redirect would "work".
	const catcher = await listen('127.0.0.2', (_req, res) =>
		json(res, 200, {
			items: [],
			pageInfo: { page: 1, limit: 1, total: 0, totalPages: 0, hasNext: false, hasPrevious: false },
			context: 'personal',
		}),
	);
	const redirector = await listen('127.0.0.1', (req, res) => {
		const url = req.url ?? '/';
		if (url.startsWith('/cross/')) {
			res.writeHead(302, { location: `${catcher.origin}${url.slice('/cross'.length)}` }).end();
		} else if (url.startsWith('/same/')) {
			res.writeHead(307, { location: `/proxy/${url.slice('/same/'.length)}` }).end();
		} else if (url.startsWith('/proxy/')) {
			// The same origin passes the request on to the sandbox (the real API).
			const upstream = http.request(
				`${sandboxOrigin}/${url.slice('/proxy/'.length)}`,
				{ method: req.method, headers: { ...req.headers, host: new URL(sandboxOrigin).host } },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			req.pipe(upstream);
		} else {
			// Anything else (a metadata-like path, any other path): fake cloud keys.
			json(res, 200, FAKE_CLOUD_KEYS);
		}
	});
	const base = {
		cross: `${redirector.origin}/cross/api/v1`,
		same: `${redirector.origin}/same/api/v1`,
		metadataPath: `${redirector.origin}/latest/meta-data/iam/security-credentials/api/v1`,
		notTheApi: `${redirector.origin}/fake/api/v1`,
	};

	const credentialTest = async (data: Record<string, unknown>) => {
		const response = await stack.rest.post('/credentials/test', {
			credentials: {
				id: CREDENTIAL_ID,
				name: 'Document Signing sandbox',
				type: 'documentSigningApi',
				data: { apiKey, webhookSecret, ...data },
			},
		});
		expectEqual(
			response.status,
			200,
			`POST /rest/credentials/test status (${JSON.stringify(response.data).slice(0, 300)})`,
		);
		const result = response.data.data as { status: string; message: string };
		expect(
			!JSON.stringify(result).includes(apiKey),
			`the credential test's answer shows the API key: ${JSON.stringify(result)}`,
		);
		return result;
	};

	try {
		await check(
			'credential test: a cross-origin redirect is not followed; the message names the other origin; the other origin never sees a request',
			async () => {
				const result = await credentialTest({ baseUrl: base.cross });
				expectEqual(result.status, 'Error', `status (${result.message})`);
				expect(
					result.message.includes(catcher.origin) && result.message.includes('Check the Base URL'),
					`message: ${result.message}`,
				);
				expectEqual(catcher.seen.length, 0, 'requests that reached the other origin');
				expect(
					redirector.seen.some(
						(r) =>
							r.url.startsWith('/cross/api/v1/envelopes') && r.authorization === `Bearer ${apiKey}`,
					),
					'the Base URL itself got the test request with the key',
				);
			},
		);

		await check('credential test: a same-origin redirect is followed to the API: OK', async () => {
			const before = redirector.seen.length;
			const result = await credentialTest({ baseUrl: base.same });
			expectEqual(result.status, 'OK', `status (${result.message})`);
			expectEqual(
				redirector.seen.slice(before).map((r) => r.url.split('?')[0]),
				['/same/api/v1/envelopes', '/proxy/api/v1/envelopes'],
				'requests at the Base URL origin',
			);
			expectEqual(catcher.seen.length, 0, 'requests at the other origin');
		});

		await check(
			'credential test: link-local and metadata addresses are refused before any connection, saying what to set',
			async () => {
				for (const baseUrl of [
					'http://169.254.169.254/latest/api/v1',
					'https://169.254.169.254/api/v1',
					'http://[fd00:ec2::254]/api/v1',
					'http://metadata.google.internal/api/v1',
					'http://100.100.100.200/api/v1',
					'http://[::ffff:169.254.169.254]/api/v1',
				]) {
					const started = Date.now();
					const result = await credentialTest({ baseUrl });
					expectEqual(result.status, 'Error', `${baseUrl}: status (${result.message})`);
					expect(
						result.message.includes('a link-local or cloud metadata address') &&
							result.message.includes('Set the Base URL'),
						`${baseUrl}: ${result.message}`,
					);
					expect(
						Date.now() - started < 5000,
						`${baseUrl}: took ${Date.now() - started} ms (a connection was tried?)`,
					);
				}
				const before = redirector.seen.length;
				const result = await credentialTest({ baseUrl: base.metadataPath });
				expect(
					result.status === 'Error' && result.message.includes('/latest/meta-data'),
					`metadata path on loopback: ${JSON.stringify(result)}`,
				);
				expectEqual(redirector.seen.length - before, 0, 'requests to the metadata path');
			},
		);

		await check(
			'credential test: an address that answers, but not as the API (fake cloud keys on loopback), fails',
			async () => {
				const result = await credentialTest({ baseUrl: base.notTheApi });
				expectEqual(
					result,
					{
						status: 'Error',
						message:
							"The Base URL answered, but not as the Document Signing API does (a list of envelopes was expected): check that it is the service's address ending in /api/v1",
					},
					'result',
				);
			},
		);

		await check(
			'credential test: http:// to another host is refused unless Allow Insecure HTTP is on',
			async () => {
				const refused = await credentialTest({ baseUrl: 'http://signing.example.invalid/api/v1' });
				expectEqual(
					refused,
					{
						status: 'Error',
						message:
							'The Base URL uses http:// to signing.example.invalid, which would send the API key unencrypted: use https://, or turn on Allow Insecure HTTP in the credential if the network to this host is trusted',
					},
					'without the option',
				);
				const allowed = await credentialTest({
					baseUrl: 'http://signing.example.invalid/api/v1',
					allowInsecureHttp: true,
				});
				expect(
					allowed.status === 'Error' &&
						allowed.message.startsWith('n8n could not reach the Base URL'),
					`with the option the address is tried: ${JSON.stringify(allowed)}`,
				);
				expectEqual(
					(await credentialTest({ baseUrl: stack.sandbox.baseUrl })).status,
					'OK',
					'http:// to loopback (the sandbox)',
				);
			},
		);

		await check(
			'workflow run: Get Balance through each credential; the key reaches only the Base URL origin; refusals say what to fix',
			async () => {
				const cases: Array<[string, Record<string, unknown>]> = [
					['Cross Origin', { baseUrl: base.cross }],
					['Same Origin', { baseUrl: base.same }],
					['Metadata Address', { baseUrl: 'http://169.254.169.254/latest/api/v1' }],
					['Metadata Path', { baseUrl: base.metadataPath }],
					['Plain HTTP', { baseUrl: 'http://signing.example.invalid/api/v1' }],
				];
				const nodes: any[] = [
					{
						id: randomUUID(),
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						position: [0, 0],
						webhookId: randomUUID(),
						parameters: {
							httpMethod: 'POST',
							path: `e2e-security-${randomBytes(4).toString('hex')}`,
							responseMode: 'lastNode',
							responseData: 'allEntries',
							options: {},
						},
					},
				];
				const connections: Record<string, any> = {};
				for (const [index, [name, data]] of cases.entries()) {
					const created = await stack.api.post('/credentials', {
						name: `Security: ${name}`,
						type: 'documentSigningApi',
						data: {
							apiKey,
							webhookSecret: '',
							allowInsecureHttp: false,
							...DOMAINS_FIELD,
							...data,
						},
					});
					expect(
						created.status === 200 && created.data.id,
						`creating credential "${name}": ${created.status} ${JSON.stringify(created.data).slice(0, 300)}`,
					);
					nodes.push({
						id: randomUUID(),
						name,
						type: 'n8n-nodes-document-signing.documentSigning',
						typeVersion: 1,
						position: [220 * (index + 1), 0],
						onError: 'continueRegularOutput',
						parameters: { resource: 'credit', operation: 'getBalance' },
						credentials: { documentSigningApi: { id: created.data.id, name: `Security: ${name}` } },
					});
					connections[nodes[index].name] = { main: [[{ node: name, type: 'main', index: 0 }]] };
				}
				const workflow = await stack.api.post('/workflows', {
					name: 'E2E: where the API key goes',
					nodes,
					connections,
					settings: {},
				});
				expect(
					workflow.status === 200,
					`creating the workflow: ${workflow.status} ${JSON.stringify(workflow.data).slice(0, 300)}`,
				);
				const activated = await stack.api.post(`/workflows/${workflow.data.id}/activate`, {});
				expectEqual(
					activated.status,
					200,
					`activating (${JSON.stringify(activated.data).slice(0, 300)})`,
				);
				const hook = `${stack.n8nUrl}/webhook/${nodes[0].parameters.path}`;
				const before = redirector.seen.length;
				const answer = await waitFor(
					'the security workflow to be served',
					async () => {
						const response = await axios.post(
							hook,
							{},
							{ validateStatus: () => true, timeout: 60_000 },
						);
						return response.status === 404 ? undefined : response;
					},
					15_000,
					500,
				);
				expectEqual(
					answer.status,
					200,
					`webhook answer (${JSON.stringify(answer.data).slice(0, 300)})`,
				);

				const [execution] = await executions(stack, workflow.data.id);
				expect(execution, 'no execution recorded');
				const out = (node: string) =>
					execution.data?.resultData.runData[node]?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
				const error = (node: string) => `${out(node).error ?? ''}`;
				expect(
					error('Cross Origin').includes(
						`another address than the Base URL's (${redirector.origin})`,
					) && error('Cross Origin').includes(catcher.origin),
					`Cross Origin: ${JSON.stringify(out('Cross Origin'))}`,
				);
				expect(
					out('Same Origin').context !== undefined && !out('Same Origin').error,
					`Same Origin (the balance through the same-origin redirect): ${JSON.stringify(out('Same Origin'))}`,
				);
				expect(
					error('Metadata Address').includes(
						'169.254.169.254, a link-local or cloud metadata address',
					),
					`Metadata Address: ${JSON.stringify(out('Metadata Address'))}`,
				);
				expect(
					error('Metadata Path').includes('/latest/meta-data'),
					`Metadata Path: ${JSON.stringify(out('Metadata Path'))}`,
				);
				expect(
					error('Plain HTTP').includes('turn on Allow Insecure HTTP'),
					`Plain HTTP: ${JSON.stringify(out('Plain HTTP'))}`,
				);
				expect(
					!JSON.stringify(execution.data).includes('ASIAFAKE'),
					'fake cloud keys in the execution',
				);
				expect(!JSON.stringify(execution.data).includes(apiKey), 'the API key in the execution');

				expectEqual(catcher.seen.length, 0, 'requests that reached the other origin (127.0.0.2)');
				const run = redirector.seen.slice(before).map((r) => r.url.split('?')[0]);
				expectEqual(
					run,
					[
						'/cross/api/v1/credits/balance',
						'/same/api/v1/credits/balance',
						'/proxy/api/v1/credits/balance',
					],
					'requests at the Base URL origin (nothing to the metadata path)',
				);
			},
		);

		await check(
			"trigger in n8n: forged and future-dated deliveries start nothing and say why in n8n's log (warn), without secrets",
			async () => {
				const repeats = workflows.DsE2eTriggerRep1;
				expect(repeats, 'the repeats workflow fixture is missing');
				const url = stack.webhookUrl(triggerWebhookId(repeats), 'webhook');
				const id = `evt_e2e_security_${randomBytes(4).toString('hex')}`;
				const body = (createdAt: string) =>
					JSON.stringify({
						id,
						event: 'document.sent',
						createdAt,
						data: { envelopeId: 'env_security', title: 'Security check', status: 'pending' },
					});
				const sign = (text: string, secret = webhookSecret) =>
					createHmac('sha256', secret).update(text).digest('hex');
				const forgedBody = body(new Date().toISOString());
				const forged = await axios.post(url, forgedBody, {
					headers: {
						'content-type': 'application/json',
						'X-Service-Signature': sign(forgedBody, 'not-the-secret'),
					},
					validateStatus: () => true,
				});
				expectEqual(
					[forged.status, forged.data?.code],
					[401, 'INVALID_SIGNATURE'],
					'forged delivery',
				);
				const futureBody = body('9999-12-31T23:59:59.000Z');
				const future = await axios.post(url, futureBody, {
					headers: { 'content-type': 'application/json', 'X-Service-Signature': sign(futureBody) },
					validateStatus: () => true,
				});
				expectEqual(
					[future.status, future.data?.started, future.data?.reason],
					[200, false, 'event dated further ahead than Max Clock Skew'],
					'event dated in the year 9999',
				);

				await sleep(1500);
				const started = (await executions(stack, repeats.id)).filter((e) =>
					JSON.stringify(e.data ?? {}).includes(id),
				);
				expectEqual(started.length, 0, 'executions for the forged and future-dated event');
				const log = await readFile(path.join(stack.dir, 'n8n.log'), 'utf8');
				const lines = log
					.split('\n')
					.filter((l) =>
						l.includes(`Document Signing Trigger did not start workflow ${repeats.id}`),
					);
				expect(
					lines.some((l) =>
						l.includes('401 INVALID_SIGNATURE: the signature does not match the body'),
					),
					`no log line for the forged delivery among:\n${lines.join('\n')}`,
				);
				expect(
					lines.some((l) =>
						l.includes(`event dated further ahead than Max Clock Skew (event id "${id}")`),
					),
					`no log line for the future-dated event among:\n${lines.join('\n')}`,
				);
			},
		);

		await check("n8n's log holds no API key, webhook secret or signature", async () => {
			const log = await readFile(path.join(stack.dir, 'n8n.log'), 'utf8');
			for (const [what, secret] of Object.entries({
				'API key': apiKey,
				'disabled API key': stack.sandbox.disabledApiKey,
				'webhook secret': webhookSecret,
			})) {
				expect(!log.includes(secret), `n8n.log contains the ${what}`);
			}
		});
	} finally {
		await redirector.close();
		await catcher.close();
	}
}
