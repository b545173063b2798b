/**
 * What the editor shows of the trigger: the subtitle, evaluated by n8n's own expression
 * engine as the canvas does, and the names the node creator lists for its events.
 */
import type { INode } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { DocumentSigningTrigger } from '../../nodes/DocumentSigningTrigger/DocumentSigningTrigger.node';
import { WEBHOOK_EVENT_VALUES } from '../../nodes/DocumentSigningTrigger/delivery';
import { addNodeType, nodeTypes } from '../harness/node-types';

const trigger = new DocumentSigningTrigger();
const description = trigger.description;
addNodeType('documentSigningTrigger', trigger);

function subtitle(parameters: INode['parameters']): unknown {
	const node: INode = {
		id: 't1',
		name: 'Document Signing Trigger',
		type: 'documentSigningTrigger',
		typeVersion: 1,
		position: [0, 0],
		// as in the editor: the stored parameters with the defaults filled in
		parameters:
			NodeHelpers.getNodeParameters(
				description.properties,
				parameters,
				true,
				false,
				null,
				description,
			) ?? {},
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

describe('trigger description in the editor', () => {
	it('subtitle counts the selected events instead of listing them', () => {
		// Four kinds of the specification and Any Other Event.
		expect(subtitle({})).toBe('4 of 5 events');
		expect(subtitle({ events: ['document.estamp.failed'] })).toBe('1 of 5 events');
		expect(subtitle({ events: [] })).toBe('0 of 5 events');
	});

	it('each event has the action the node creator lists, with "e-stamp" spelled as the service does', () => {
		const events = description.properties.find((p) => p.name === 'events');
		const actions = (events?.options as Array<{ value: string; action?: string }>).map((o) => [
			o.value,
			o.action,
		]);
		expect(actions).toEqual([
			['document.estamp.started', 'On e-stamp started'],
			['document.estamp.completed', 'On e-stamp completed'],
			['document.estamp.failed', 'On e-stamp failed'],
			['document.sent', 'On document sent'],
			['otherEvents', 'On any other event'],
		]);
		expect(actions.map(([value]) => value).slice(0, 4)).toEqual(WEBHOOK_EVENT_VALUES);
	});

	it('the trigger panel says to register the Test URL for tests and the Production URL for production', () => {
		const panel = description.triggerPanel;
		expect(typeof panel).toBe('object');
		const { executionsHelp, activationHint } = panel as Exclude<typeof panel, boolean | undefined>;
		expect(executionsHelp).toEqual({
			inactive: expect.stringContaining('Test URL'),
			active: expect.stringContaining('Production URL'),
		});
		expect((executionsHelp as { inactive: string }).inactive).toContain('Production URL');
		expect(activationHint).toEqual({
			inactive: expect.stringContaining('Production URL'),
			active: expect.any(String),
		});
	});
});
