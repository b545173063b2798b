/**
 * The sandbox's dashboard at its root address: a page a person reads, like the service's
 * own dashboard. It registers webhook URLs (Settings, Webhooks in the real service), lists
 * what was delivered and how n8n answered, and links each envelope's signing pages.
 * Everything here uses the same state as the API and the `/__sandbox` control routes.
 */
import express, { Router } from 'express';

import type { SandboxState } from '../state';

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page frame shared by the dashboard and the signing pages. */
export function page(title: string, body: string): string {
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid #ddd; padding: .35rem .5rem; text-align: left; vertical-align: top; }
code { background: #f4f4f4; padding: 0 .25rem; } .muted { color: #666; } .ok { color: #1a7f37; } .bad { color: #b42318; }
input[type=url] { width: 32rem; } button { padding: .3rem .8rem; }
</style></head><body>${body}</body></html>`;
}

const EVENTS = [
	'document.estamp.started',
	'document.estamp.completed',
	'document.estamp.failed',
	'document.sent',
];

export default function dashboardRoutes(state: SandboxState, origin: () => string): Router {
	const router = Router();

	router.get('/', (_req, res) => {
		const base = `${origin()}/api/v1`;
		const hooks = state.webhooks
			.map(
				(
					w,
				) => `<tr><td><code>${escapeHtml(w.url)}</code></td><td>${w.events.length ? w.events.map(escapeHtml).join('<br>') : 'all events'}</td>
<td><form method="post" action="/dashboard/webhooks/${encodeURIComponent(w.id)}/delete"><button>Remove</button></form></td></tr>`,
			)
			.join('');
		const deliveries = state.deliveries
			.slice(-20)
			.reverse()
			.map((d) => {
				const last = d.attempts.at(-1);
				// n8n answers 404 on a trigger's Test URL unless the editor is listening for a test
				// event: expected while nobody tests, so not shown as a failure.
				const idleTestUrl =
					!d.delivered && last?.status === 404 && d.url.includes('/webhook-test/');
				const status = idleTestUrl
					? 'Test URL, the editor was not listening (404)'
					: (last?.status ?? last?.error ?? 'pending');
				const css =
					d.delivered || idleTestUrl
						? idleTestUrl
							? 'muted'
							: 'ok'
						: d.finished
							? 'bad'
							: 'muted';
				return `<tr><td>${escapeHtml(d.event)}</td><td><code>${escapeHtml(d.url)}</code></td><td class="${css}">${escapeHtml(String(status))}</td><td>${d.attempts.length}</td></tr>`;
			})
			.join('');
		const envelopes = [...state.envelopes.values()]
			.slice(-20)
			.reverse()
			.map((e) => {
				const links = e.recipients
					.map(
						(r) =>
							`<a href="/sign/${encodeURIComponent(r.token)}">${escapeHtml(r.name)}</a> <span class="muted">(${r.role}, ${r.status})</span>`,
					)
					.join('<br>');
				return `<tr><td>${escapeHtml(e.title)}<br><span class="muted">${escapeHtml(e.id)}</span></td><td>${escapeHtml(e.status)}</td><td>${links}</td></tr>`;
			})
			.join('');
		res.type('html').send(
			page(
				'Document Signing sandbox',
				`<h1>Document Signing sandbox</h1>
<p>A local stand-in for the Document Signing Service. API base URL (the credential's Base URL): <code>${escapeHtml(base)}</code></p>
<h2>Webhooks</h2>
<p>The service delivers events only to the URLs registered here, signed with the webhook secret of the credential. To test a trigger from the n8n editor, register its <b>Test URL</b>; for an active workflow, its <b>Production URL</b>.</p>
<table><tr><th>URL</th><th>Events</th><th></th></tr>${hooks || '<tr><td colspan="3" class="muted">No webhook registered yet.</td></tr>'}</table>
<form method="post" action="/dashboard/webhooks"><p><input type="url" name="url" required placeholder="http://127.0.0.1:5678/webhook-test/.../webhook">
<select name="event"><option value="">all events</option>${EVENTS.map((e) => `<option>${e}</option>`).join('')}</select> <button>Register</button></p></form>
<h2>Latest deliveries</h2>
<table><tr><th>Event</th><th>To</th><th>Answer</th><th>Attempts</th></tr>${deliveries || '<tr><td colspan="4" class="muted">Nothing delivered yet.</td></tr>'}</table>
<h2>Latest envelopes</h2>
<p class="muted">Each recipient's name opens the page where they sign or approve (the link the service e-mails them).</p>
<table><tr><th>Envelope</th><th>Status</th><th>Recipients</th></tr>${envelopes || '<tr><td colspan="3" class="muted">No envelope yet.</td></tr>'}</table>`,
			),
		);
	});

	router.post('/dashboard/webhooks', express.urlencoded({ extended: false }), (req, res) => {
		const url = String(req.body?.url ?? '').trim();
		if (!/^https?:\/\/\S+$/.test(url)) {
			return void res
				.status(400)
				.type('html')
				.send(
					page(
						'Not registered',
						'<p>The URL must start with http:// or https://. <a href="/">Back</a></p>',
					),
				);
		}
		const event = String(req.body?.event ?? '');
		state.webhooks.push({
			id: state.newId('wh'),
			url,
			events: EVENTS.includes(event) ? [event] : [],
			createdAt: state.nowIso(),
		});
		res.redirect(303, '/');
	});

	router.post('/dashboard/webhooks/:id/delete', (req, res) => {
		state.webhooks = state.webhooks.filter((w) => w.id !== req.params.id);
		res.redirect(303, '/');
	});

	return router;
}
