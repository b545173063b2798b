/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/node-connection-type-literal -- test code: a test-only node type, not published (package.json "files" is dist/ only); "main" as a literal keeps the file free of runtime imports (the e2e run loads it alone) */
/**
 * A test-only node that declares `sensitiveOutputFields` (n8n-workflow 2.41's node
 * description: dot paths "always redacted ... never revealable") for the two kinds of link the
 * package's outputs carry, and outputs them: a recipient's signing link (`recipients[].actionUrl`,
 * as Envelope Send answers) and a presigned download address (`url`, as Download File answers).
 * Suite 17 runs it in a real n8n of each line and reads what n8n stored, showed and passed on.
 * Only type imports: the e2e run compiles this file alone into plain JS for n8n to load.
 */
import type { INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

export const SENSITIVE_PROBE_TYPE = 'sensitiveProbe';

/** The paths in the syntax n8n 2.41.1's redaction strategy reads (`[*]` for each array element). */
export const SENSITIVE_PATHS = ['recipients[*].actionUrl', 'url'];

export const SIGNING_LINK = 'https://sign.example.test/s/probe-signing-link';
export const DOWNLOAD_ADDRESS =
	'https://storage.example.test/signed.pdf?X-Signature=probe-presigned';

export class SensitiveProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sensitive Probe',
		name: SENSITIVE_PROBE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Outputs a signing link and a presigned address declared sensitive',
		defaults: { name: 'Sensitive Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
		sensitiveOutputFields: SENSITIVE_PATHS,
	};

	async execute(): Promise<INodeExecutionData[][]> {
		return [
			[
				{
					json: {
						envelopeId: 'env_probe',
						recipients: [{ email: 'signer@example.test', actionUrl: SIGNING_LINK }],
						url: DOWNLOAD_ADDRESS,
					},
				},
			],
		];
	}
}
