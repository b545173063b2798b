/**
 * A delivery that starts a run is answered by n8n, not by the node: n8n 2.x answers only once
 * it has inserted (or queued) the execution, and answers 500 when it cannot. Two moments of
 * that answer matter to the memory of event ids (memory.ts):
 * - n8n reads the node's `webhookResponse` (the body it answers with) after the execution
 *   exists and just before it saves the workflow's static data. Starting the run wraps the
 *   static data in new Workflow objects, which clears n8n's "changed" flag; reading the body
 *   counts the id as taken and marks the memory changed again, so n8n saves the id with that
 *   delivery (and with every later one: each write carries the ids taken before it).
 * - n8n writes the answer on the response object: a 2xx confirms it; anything else (or no
 *   answer at all) leaves the id unseen, and the sender's retry runs.
 * n8n 1.x reads the body and answers before it creates the execution, for every webhook: there
 * the id is remembered at the answer, as n8n's own Webhook node acknowledges it.
 */
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

export interface PendingClaim {
	taken: () => void;
	settle: (answered2xx: boolean) => void;
}

/** After the client has gone, n8n still answers (the execution may exist) within this time, or the id stays unseen. */
const ANSWER_AFTER_CLOSE_MS = 60_000;

/**
 * What the node returns for a delivery that starts a run: the items, and the body n8n answers
 * with, whose reading counts the id as taken (see above).
 */
export function startedResult(
	workflowData: INodeExecutionData[][],
	body: IDataObject,
	claim?: PendingClaim,
): IWebhookResponseData {
	if (claim === undefined) return { workflowData, webhookResponse: body };
	const result: IWebhookResponseData = { workflowData };
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: true,
		get: () => {
			claim.taken();
			return body;
		},
	});
	return result;
}

/** Settles the claim with n8n's own answer on the response object. */
export function settleOnAnswer(res: Response, claim: PendingClaim): void {
	let answered = false;
	const settle = (taken: boolean) => {
		if (answered) return;
		answered = true;
		claim.settle(taken);
	};
	const end = res.end;
	res.end = function (this: Response, ...args: unknown[]) {
		settle(res.statusCode >= 200 && res.statusCode < 300);
		return (end as (...a: unknown[]) => Response).apply(this, args);
	} as Response['end'];
	res.once('close', () => {
		if (!answered) void sleep(ANSWER_AFTER_CLOSE_MS).then(() => settle(false));
	});
}

/** A refused test delivery, as the editor shows it. */
export function testRefusal(
	node: INode,
	status: number,
	code: string,
	reason: string,
): NodeOperationError {
	return new NodeOperationError(node, `Test delivery refused: ${reason}`, {
		description: `A live delivery would be answered ${status} (${code}) and start nothing. Fix the cause (the credential's webhook secret, or the trigger's signature options), then listen again and cause the event again.`,
	});
}
