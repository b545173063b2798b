import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeHint,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isBalanceAnswer, NOT_THE_API_HINT } from '../../../shared/api/answerShape';
import { guessedPath, guessedRequest, pathSetting } from '../../../shared/http/paths';
import { operationPanel } from '../shared/operation';

/** Get Balance takes no parameters. */
const properties: INodeProperties[] = [];

export const description = operationPanel('credit', 'getBalance', properties);

/**
 * The operation has no parameter to carry a hint, so what `context` means is a node hint
 * in the output pane, next to the answer it explains (shown only for this operation).
 */
export const hints: NodeHint[] = [
	{
		message:
			"The <code>context</code> field says which balance of the API key's workspace this is: <code>personal</code> (a personal key), <code>organization_wallet</code> (the organization's wallet, for an owner's or admin's key) or <code>organization_member_allocation</code> (the credits allocated to a member).",
		type: 'info',
		location: 'outputPane',
		whenToDisplay: 'always',
		displayCondition:
			'={{ $parameter["resource"] === "credit" && $parameter["operation"] === "getBalance" }}',
	},
];

export async function execute(this: IExecuteFunctions, i: number): Promise<INodeExecutionData[]> {
	// The path is the credential's (not in the specification); the answer is output whole.
	const response = (await guessedRequest.call(this, 'creditBalance', {
		itemIndex: i,
	})) as IDataObject;
	// Another server's JSON at the Base URL is not a balance (the spec's `context` field).
	if (!isBalanceAnswer(response)) {
		throw new NodeOperationError(
			this.getNode(),
			`The answer of ${await guessedPath.call(this, 'creditBalance')} is not a balance as the Document Signing API gives it (it has no context field): ${NOT_THE_API_HINT}`,
			{
				itemIndex: i,
				description: `If the service serves the balance elsewhere, set ${pathSetting('creditBalance')}.`,
			},
		);
	}
	return [{ json: response }];
}
