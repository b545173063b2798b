/**
 * The credential's service paths, as n8n reads a credential: the form shows each field whose
 * display rules hold, and n8n's credentials helper keeps only those fields' values before a
 * node gets the credential (NodeHelpers.getNodeParameters(properties, data, true, false), in
 * n8n 2.41.1's and 1.123.81's credentials-helper.js). So the paths are plain fields after the
 * ones every user fills, with no warning notice; they are not hidden behind a switch, which
 * would drop the path of a credential saved before the switch existed.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { DocumentSigningApi } from '../../credentials/DocumentSigningApi.credentials';
import { GUESSED_PATHS } from '../../nodes/shared/api/pathSettings';

const properties = new DocumentSigningApi().properties;
const PATHS: string[] = Object.values(GUESSED_PATHS).map((p) => p.field);

/** What a node gets from n8n for the stored `data` of a credential with `props`. */
const read = (props: INodeProperties[], data: INodeParameters) =>
	NodeHelpers.getNodeParameters(props, data, true, false, null, null) as Record<string, unknown>;

describe('the service paths of the credential', () => {
	it('the form: what every user fills first, then the three paths, the first said to be optional; no notice', () => {
		expect(properties.map((p) => p.name)).toEqual([
			'baseUrl',
			'allowInsecureHttp',
			'apiKey',
			'webhookSecret',
			...PATHS,
		]);
		expect(properties.filter((p) => p.type === 'notice')).toEqual([]);
		expect(properties.find((p) => p.name === PATHS[0])?.hint).toMatch(
			/^Optional, like the two paths below: keep the default unless/,
		);
	});

	it('a credential saved with a changed path keeps it; one without gets the defaults', () => {
		const base = { baseUrl: 'https://sign.example.com/api/v1', apiKey: 'key' };
		expect(read(properties, { ...base, creditBalancePath: '/wallet/balance' })).toMatchObject({
			creditBalancePath: '/wallet/balance',
			workflowListPath: '/workflows',
			workflowGetPath: '/workflows/{workflowId}',
		});
	});

	it('n8n drops a credential field its display rules hide (why the paths are not behind a switch)', () => {
		const behindSwitch: INodeProperties[] = [
			{ displayName: 'Custom Paths', name: 'custom', type: 'boolean', default: false },
			...properties
				.filter((p) => PATHS.includes(p.name))
				.map((p) => ({ ...p, displayOptions: { show: { custom: [true] } } })),
		];
		// Saved before such a switch existed: a changed path, no switch stored.
		expect(read(behindSwitch, { creditBalancePath: '/wallet/balance' })).toEqual({
			custom: false,
		});
	});
});
