/**
 * Where n8n's node creator lists the two triggers. Its rule (editor-ui, the actions
 * generator that merges nodes and actions): a trigger whose type name, with its first
 * "Trigger" removed, is an action node's name is merged into that node, and its actions
 * (one per option of a property called Event, Events or Trigger On) are listed under the
 * node's "Triggers". Any other trigger is an entry of its own. ui-check's findings
 * (node-picker-*) show it in the real editor.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { DocumentSigning } from '../../nodes/DocumentSigning/DocumentSigning.node';
import { DocumentSigningStatusTrigger } from '../../nodes/DocumentSigningStatusTrigger/DocumentSigningStatusTrigger.node';
import { DocumentSigningTrigger } from '../../nodes/DocumentSigningTrigger/DocumentSigningTrigger.node';

const action = new DocumentSigning().description;
const webhook = new DocumentSigningTrigger().description;
const status = new DocumentSigningStatusTrigger().description;

/** The action node a trigger is listed under, by n8n's rule (undefined: an entry of its own). */
const mergedInto = (trigger: INodeTypeDescription) =>
	trigger.name.replace('Trigger', '') === action.name ? action.name : undefined;

describe("the node creator's Triggers of Document Signing", () => {
	it('lists the webhook trigger under Document Signing, one "On …" entry per event', () => {
		expect(mergedInto(webhook)).toBe('documentSigning');
		const events = webhook.properties.find((p) =>
			['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
		);
		expect(events?.options?.length).toBeGreaterThan(1);
	});

	it('lists the Status Trigger on its own, found by "Document Signing" (n8n merges one trigger per node)', () => {
		// A second trigger cannot be merged: its name would have to lose its first "Trigger"
		// to read "documentSigning", which only "documentSigningTrigger" does among names
		// that end with Trigger (n8n's community lint asks trigger names to).
		expect(mergedInto(status)).toBeUndefined();
		expect(status.name.endsWith('Trigger')).toBe(true);
		expect(status.displayName.startsWith(action.displayName)).toBe(true);
	});
});
