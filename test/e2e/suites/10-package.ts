/* eslint-disable @typescript-eslint/no-explicit-any -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/** The package as n8n sees it: listed and loaded, and n8n's credential test. */
import { check, CREDENTIAL_ID, type E2eContext, expect, expectEqual, PACKAGE } from '../lib';

export default async function suite({ stack }: E2eContext): Promise<void> {
	await check(
		'n8n lists the package under installed community packages, with its three nodes loaded',
		async () => {
			const response = await stack.rest.get('/community-packages');
			expectEqual(response.status, 200, 'GET /rest/community-packages status');
			const installed = (response.data.data as Array<Record<string, any>>).find(
				(p) => p.packageName === PACKAGE,
			);
			expect(
				installed,
				`${PACKAGE} is not among ${JSON.stringify(response.data.data.map((p: any) => p.packageName))}`,
			);
			expectEqual(installed.failedLoading, false, 'failedLoading');
			const types = (installed.installedNodes as Array<{ type: string }>).map((n) => n.type).sort();
			expectEqual(
				types,
				[
					`${PACKAGE}.documentSigning`,
					`${PACKAGE}.documentSigningStatusTrigger`,
					`${PACKAGE}.documentSigningTrigger`,
				],
				'installed node types',
			);
			const nodeTypes = await stack.rest.post('/node-types', {
				nodeInfos: types.map((name) => ({ name, version: 1 })),
			});
			expectEqual(nodeTypes.status, 200, 'POST /rest/node-types status');
			// n8n answers with the names inside the package.
			expectEqual(
				(nodeTypes.data.data as Array<{ name: string }>).map((n) => n.name).sort(),
				['documentSigning', 'documentSigningStatusTrigger', 'documentSigningTrigger'],
				'node types n8n serves to the editor',
			);
		},
	);

	await check(
		"n8n's credential test: OK for the sandbox key; 401, 403 and 404 answered with the credential's own sentences",
		async () => {
			const test = async (data: Record<string, string>) => {
				const response = await stack.rest.post('/credentials/test', {
					credentials: {
						id: CREDENTIAL_ID,
						name: 'Document Signing sandbox',
						type: 'documentSigningApi',
						data: { webhookSecret: stack.sandbox.webhookSecret, ...data },
					},
				});
				expectEqual(
					response.status,
					200,
					`POST /rest/credentials/test status (${JSON.stringify(response.data).slice(0, 300)})`,
				);
				return response.data.data as { status: string; message: string };
			};
			const { baseUrl, apiKey, disabledApiKey } = stack.sandbox;
			expectEqual((await test({ baseUrl, apiKey })).status, 'OK', 'test of the sandbox credential');
			expectEqual(
				await test({ baseUrl, apiKey: `${apiKey}x` }),
				{
					status: 'Error',
					message: 'The API key was not accepted: check it in the dashboard (Settings, API Keys)',
				},
				'wrong key',
			);
			expectEqual(
				await test({ baseUrl, apiKey: disabledApiKey }),
				{
					status: 'Error',
					message: 'The API key is disabled, or it lacks the documents:read permission',
				},
				'disabled key',
			);
			expectEqual(
				await test({ baseUrl: stack.sandbox.origin, apiKey }),
				{ status: 'Error', message: 'Nothing found at this Base URL: it should end in /api/v1' },
				'base URL without /api/v1',
			);
		},
	);
}
