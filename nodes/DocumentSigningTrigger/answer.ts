/**
 * A delivery that starts a run is answered by n8n, not by the node (n8nContract.ts:
 * answer-after-execution). Two moments of that answer matter to the memory of event ids
 * (memory.ts):
 * - n8n reads the body (`webhookResponse`) by name when the answer is due, after the execution
 *   exists in 2.x, just before it saves the workflow's static data: the read writes the memory
 *   again, so n8n saves it with this delivery, and later writes carry the id as being answered.
 *   The read confirms nothing in this process; a copy or log of the result does not read it
 *   (not enumerable), so it cannot get the id stored before the execution exists.
 * - n8n writes the answer on the response object: a 2xx confirms the id; anything else (or no
 *   answer at all) leaves it unseen, and the sender's retry runs.
 * n8n 1.x answers before it creates the execution, for every webhook: there the id is
 * remembered at the answer, as n8n's own Webhook node acknowledges it.
 */
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { answerBodyOnRead, onAnswerWritten } from './n8nContract';

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

export interface PendingClaim {
	/** n8n is reading the answer body: write the memory again so that n8n saves it. */
	answering: () => void;
	settle: (answered2xx: boolean) => void;
}

/** After the client has gone, n8n still answers (the execution may exist) within this time, or the id stays unseen. */
const ANSWER_AFTER_CLOSE_MS = 60_000;

/** What the node returns for a delivery that starts a run: the items, and the body n8n answers with. */
export function startedResult(
	workflowData: INodeExecutionData[][],
	body: IDataObject,
	claim?: PendingClaim,
): IWebhookResponseData {
	if (claim === undefined) return { workflowData, webhookResponse: body };
	return answerBodyOnRead(workflowData, body, claim.answering);
}

/** Settles the claim with n8n's own answer on the response object. */
export function settleOnAnswer(res: Response, claim: PendingClaim): void {
	let answered = false;
	const settle = (taken: boolean) => {
		if (answered) return;
		answered = true;
		claim.settle(taken);
	};
	onAnswerWritten(
		res,
		(status) => settle(status >= 200 && status < 300),
		() => {
			if (!answered) void sleep(ANSWER_AFTER_CLOSE_MS).then(() => settle(false));
		},
	);
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
