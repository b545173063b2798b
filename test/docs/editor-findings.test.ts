/**
 * What the editor shows a new user, from the node's description (issue 41; pictures in
 * test/ui-check/findings-d.ts): the risk of Include Signing Links under the switch, not only
 * in its tooltip; a Prefill Fields heading that stays in Map Automatically; Signing Workflow >
 * Get's hint in agreement with Output.
 */
import type { INodeProperties } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';

const properties = new DocumentSigning().description.properties;
const of = (resource: string, operation: string) =>
	properties.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);

describe('editor texts of issue 41', () => {
	it('Include Signing Links has a hint, wherever offered, saying what a link lets its holder do', () => {
		const links = properties
			.filter((p) => p.name === 'safeguards')
			.flatMap((p) => (p.options ?? []) as INodeProperties[])
			.filter((o) => o.name === 'includeSigningLinks');
		expect(links.length).toBeGreaterThanOrEqual(4);
		for (const option of links) {
			expect(option.default).toBe(false);
			expect(option.hint).toMatch(/can sign in that recipient's name/);
		}
	});

	it('Create Document: a Prefill Fields section header right before the mapper, whose own label differs', () => {
		const names = of('template', 'createDocument').map((p) => p.name);
		const header = of('template', 'createDocument').find((p) => p.name === 'prefillHeading');
		expect(header).toMatchObject({
			type: 'notice',
			displayName: 'Prefill Fields',
			typeOptions: { sectionHeader: true },
		});
		expect(names.indexOf('prefill')).toBe(names.indexOf('prefillHeading') + 1);
		const mapper = of('template', 'createDocument').find((p) => p.name === 'prefill');
		expect(mapper?.typeOptions?.resourceMapper?.valuesLabel).toBe('Values to Prefill');
	});

	it("Signing Workflow > Get's hint leaves how much is returned to the option below it", () => {
		const texts = JSON.stringify(of('workflow', 'get'));
		expect(texts).not.toMatch(/as the service gives it/);
		const picker = of('workflow', 'get').find((p) => p.name === 'workflowId');
		expect(picker?.hint).toMatch(/the option below says how much of the answer is returned/);
	});
});
