/**
 * Recipient action addresses `<origin>/sign/<token>` (no API key: the token is the secret).
 * GET shows a small HTML page; POST signs (signer) or approves (approver) and answers JSON,
 * or a page when a browser's form sent it (it accepts HTML first).
 * Refusals (cc, out of turn in sequential mode, already done, envelope not pending) are
 * 409 INVALID_STATUS with the part 7 error body.
 */
import { Router } from 'express';
import { actAsRecipient, currentTurn, findRecipientByToken } from '../envelopes';
import { apiError } from '../http';
import type { SandboxState } from '../state';
import { escapeHtml, page } from './dashboard';

/** A browser's form post asks for HTML first; API clients ask for JSON. */
const wantsPage = (accepts: string | false) => accepts === 'html';

export default function signingRoutes(state: SandboxState): Router {
	const router = Router();

	router.get('/:token', (req, res) => {
		const found = findRecipientByToken(state, String(req.params.token));
		if (!found) return void apiError(res, 'NOT_FOUND', 'Unknown signing link');
		const { envelope, recipient } = found;
		const yourTurn = currentTurn(envelope).includes(recipient);
		const action =
			recipient.role === 'approver' ? 'Approve' : recipient.role === 'signer' ? 'Sign' : null;
		const html = page(
			envelope.title,
			`<h1>${escapeHtml(envelope.title)}</h1>
<p>Recipient: ${escapeHtml(recipient.name)} (${recipient.role}, order ${recipient.order}) &mdash; status ${recipient.status}</p>
<p>Envelope status: ${envelope.status}</p>
${
	action && envelope.status === 'pending' && yourTurn && recipient.status === 'pending'
		? `<form method="post"><button type="submit">${action}</button></form>`
		: `<p>No action available${recipient.role === 'cc' ? ': you receive a copy' : ''}.</p>`
}
<p><a href="/">Sandbox dashboard</a></p>`,
		);
		res.type('html').send(html);
	});

	router.post('/:token', async (req, res) => {
		const found = findRecipientByToken(state, String(req.params.token));
		if (!found) return void apiError(res, 'NOT_FOUND', 'Unknown signing link');
		const outcome = await actAsRecipient(state, found.envelope, found.recipient);
		if (wantsPage(req.accepts(['json', 'html']))) {
			const { envelope, recipient } = found;
			const text = outcome.ok
				? `<p class="ok">Done: ${escapeHtml(recipient.name)} has ${recipient.role === 'approver' ? 'approved' : 'signed'}.</p><p>Envelope status: ${envelope.status}${envelope.status === 'completed' ? ' (every recipient has acted; the signed PDF can be downloaded)' : ''}.</p>`
				: `<p class="bad">Not done: ${escapeHtml(outcome.message)}</p>`;
			return void res
				.status(outcome.ok ? 200 : 409)
				.type('html')
				.send(
					page(
						envelope.title,
						`<h1>${escapeHtml(envelope.title)}</h1>${text}<p><a href="/">Sandbox dashboard</a></p>`,
					),
				);
		}
		if (!outcome.ok) return void apiError(res, outcome.code, outcome.message);
		res.json(outcome.body);
	});

	return router;
}
