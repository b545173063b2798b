/* eslint-disable @typescript-eslint/no-unused-vars -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * /api/v1/credits: transactions, usage and balance (specification 4.3, 2.12; the balance
 * path and fields and the transaction types are choices of the mode, V1 and V10). Each key sees the credits of its
 * workspace: the personal balance, or the organization wallet for organization keys.
 */
import { Router } from 'express';
import { GUESSED_DEFAULTS, GUESSED_SCOPES } from '../guesses';
import { rulesFor } from '../spec';
import { PATHS } from '../spec/paths';
import { choicesFor } from '../variant';
import { keyOf, pageOf, requireAuth, validate, validationError } from '../http';
import { sameWorkspace, type CreditTransaction, type SandboxState } from '../state';

/** Usage period when a date is omitted: the 30 days ending today (UTC, sandbox clock). */
const DEFAULT_USAGE_DAYS = GUESSED_DEFAULTS.usageDays;

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function transactionView(tx: CreditTransaction) {
	const { workspace: _workspace, ...view } = tx;
	return view;
}

export default function creditsRoutes(state: SandboxState): Router {
	const router = Router();
	const read = requireAuth([GUESSED_SCOPES.creditsRead]);

	const ownTransactions = (res: Parameters<typeof keyOf>[0]) =>
		state.creditTransactions.filter((tx) => sameWorkspace(tx.workspace, keyOf(res).workspace));

	router.get(PATHS.creditTransactions, read, (req, res) => {
		const query = validate(rulesFor(choicesFor(state.variant)).creditTransactions, req.query);
		if (!query.ok) return void validationError(res, query.error);
		const { page, limit, type } = query.data;
		const items = ownTransactions(res)
			.filter((tx) => !type || tx.type === type)
			.sort((a, b) =>
				a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id),
			)
			.map(transactionView);
		res.json(pageOf(items, page, limit));
	});

	router.get(PATHS.creditUsage, read, (req, res) => {
		const query = validate(rulesFor(choicesFor(state.variant)).creditUsage, req.query);
		if (!query.ok) return void validationError(res, query.error);
		const endDate = query.data.endDate ?? dateOf(state.nowMs());
		const startDate =
			query.data.startDate ??
			dateOf(Date.parse(`${endDate}T00:00:00Z`) - (DEFAULT_USAGE_DAYS - 1) * 86_400_000);
		const used = ownTransactions(res).filter((tx) => {
			const day = tx.createdAt.slice(0, 10);
			return tx.type === 'consume' && day >= startDate && day <= endDate;
		});
		const sum = (list: CreditTransaction[]) => list.reduce((total, tx) => total + tx.amount, 0);
		const aadhaar = used.filter((tx) => tx.signatureMethod === 'aadhaar_otp');
		res.json({
			totalUsed: sum(used),
			period: { startDate, endDate },
			breakdown: {
				document_signing: sum(used) - sum(aadhaar),
				aadhaar_esign: sum(aadhaar),
			},
		});
	});

	// The balance path is a choice of the mode (V1): only the current mode's path answers.
	for (const path of new Set([choicesFor(false).balancePath, choicesFor(true).balancePath])) {
		router.get(
			path,
			(_req, res, next) =>
				choicesFor(state.variant).balancePath === path ? next() : next('router'),
			read,
			(_req, res) => {
				const workspace = keyOf(res).workspace;
				const context = workspace.type === 'organization' ? 'organization_wallet' : 'personal';
				res.json(choicesFor(state.variant).balanceView(context, state.balance(workspace)));
			},
		);
	}

	return router;
}
