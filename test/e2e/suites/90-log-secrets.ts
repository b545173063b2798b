/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: starts n8n and the sandbox, not published (package.json "files" is dist/ only) */
/**
 * Last suite: n8n's whole log of the run (every suite before, the trigger's refusal lines
 * included) holds no API key and no webhook secret.
 */
import { readFile } from 'fs/promises';
import path from 'path';

import { check, type E2eContext, expect, log } from '../lib';

export default async function suite({ stack }: E2eContext): Promise<void> {
	await check("n8n's log of the whole run holds no API key or webhook secret", async () => {
		const text = await readFile(path.join(stack.dir, 'n8n.log'), 'utf8');
		const { apiKey, disabledApiKey, webhookSecret } = stack.sandbox;
		for (const [what, secret] of Object.entries({
			'API key': apiKey,
			'disabled API key': disabledApiKey,
			'webhook secret': webhookSecret,
		})) {
			expect(secret && !text.includes(secret), `n8n.log contains the ${what}`);
		}
		const refusals = text
			.split('\n')
			.filter((line) => line.startsWith('Document Signing Trigger did not start workflow'));
		log(
			`        n8n.log: ${text.split('\n').length} lines, ${refusals.length} trigger refusal lines`,
		);
	});
}
