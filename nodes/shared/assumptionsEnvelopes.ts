import type { Assumption } from './assumptions';

/** The rows of ASSUMPTIONS (assumptions.ts) about envelopes, recipients, events, errors, paging and limits. */
export const ENVELOPE_ASSUMPTIONS: Assumption[] = [
	{
		topic: 'HTTP status of each error code',
		guess:
			'UNAUTHORIZED 401, FORBIDDEN 403, NOT_FOUND 404, NOT_AVAILABLE 404, INVALID_STATUS 409, INSUFFICIENT_CREDITS 402, INTERNAL_SERVER_ERROR 500; rate limiting 429 `RATE_LIMITED` with `Retry-After` in seconds.',
		differs:
			'Errors are read by the body\'s `code`, not the status: other statuses change nothing. Only 429 and 503 are retried as "come back later".',
	},
	{
		topic: 'Send requirement errors',
		guess:
			'No signer or an incomplete `estampConfig`: 400 `VALIDATION_ERROR`; no PDF uploaded: 400 `FILE_NOT_UPLOADED`; not enough credits: 402 `INSUFFICIENT_CREDITS`.',
		differs: 'Shown as the service answers them (code and message); nothing to change.',
	},
	{
		topic: 'Key lacking a scope',
		guess: '403 `FORBIDDEN`, the message naming the missing scope.',
		differs: 'Shown as the service answers it; nothing to change.',
	},
	{
		topic: 'Defaults of recipient and workflow settings',
		guess:
			'role `signer`, order = position in the request (from 1), signatureMethod `electronic`; mode `sequential`, verificationMethod `email_verification`, notifications `all`, reminders every 24 hours, expiry after 30 days.',
		differs:
			'The node sends only what is set (the panel shows these defaults as hints); set each value explicitly to be sure of it.',
	},
	{
		topic: 'List paging',
		guess:
			'Default `page` 1, default `limit` 20, maximum `limit` 100 (a larger value is a VALIDATION_ERROR); Get Many and the Status Trigger ask for 100 first.',
		differs:
			"A refused page size (400 `VALIDATION_ERROR` on `limit`) is lowered and the list read on (Get Many, the pickers' lists, the Status Trigger). A page shorter than asked while `hasNext` is true: read on by `pageInfo.limit`, or the item fails saying so (set Limit lower).",
	},
	{
		topic: 'Envelope status filter values',
		guess: '`draft`, `estamping`, `estamp_failed`, `pending`, `completed`.',
		differs:
			"The list is a suggestion: any status is sent (an expression in Get Many's Status filter, Other Statuses in the Status Trigger).",
	},
	{
		topic: 'Envelope status after e-stamping',
		guess: 'Completed e-stamp: `pending` (recipients notified). Terminal failure: `estamp_failed`.',
		differs:
			"A failed e-stamp under another status name: choose it in the Status Trigger's Other Statuses or Get Many's filter (expression).",
	},
	{
		topic: 'When an envelope is completed',
		guess:
			'When every signer has signed and every approver has approved; CC recipients take no action and do not count.',
		differs: "The node does not decide this; the service's `completed` status is followed.",
	},
	{
		topic: 'Recipient statuses',
		guess: '`pending`, `signed` (signer), `approved` (approver).',
		differs: 'Shown as the service answers them; nothing to change.',
	},
	{
		topic: 'Recipients in the signing progress',
		guess:
			"The status read's `recipients[]` carry `id` and `role` besides the fields shown (`name`, `email`, `status`, `signedAt`, `order`); a recipient who has not acted is `pending`, and the envelope's `updatedAt` moves with each recipient action.",
		differs:
			"The Status Trigger's Recipient Acted mode tells recipients apart by `order`, `email` and `name` when there is no `id`, outputs `role: null` and lets such recipients through the Roles filter only when every role is chosen. An action that changes neither `updatedAt`, `completedActions` nor the envelope status is seen with the next change that does.",
	},
	{
		topic: 'Add recipients: append or replace',
		guess:
			'Body flag `replace: true` replaces (absent = append). Only draft envelopes accept recipients.',
		differs:
			'A service that asks for the replacement another way: set Add Recipients\' "Replace Request Fields (JSON)" (e.g. `{"mode": "replace"}`). If a replacement was appended (the answer lists more recipients than sent), the item fails and says so.',
	},
	{
		topic: 'Values of `whatsappNotifications`',
		guess: '`all` and `none`.',
		differs:
			'Any value is sent: give it as an expression in the WhatsApp Notifications field or in JSON.',
	},
	{
		topic: 'Webhook signature',
		guess:
			'Hex HMAC-SHA256 of the raw request body with the webhook secret, in `X-Service-Signature`; algorithm and encoding selectable in the trigger.',
		differs:
			"Set the trigger's Options: Signature Encoding (hex or base64), Signature Algorithm and Signature Header; or Signature Scheme: Timestamped (`t=<unix seconds>,v1=<signature>` over `<t>.<body>`) or Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers, `whsec_` base64 secret; `webhook-id` then counts as the event id). A delivery that does not verify is answered 401, and the log names the scheme its headers look like.",
	},
	{
		topic: 'Webhook redelivery and secret rotation',
		guess:
			'A retried delivery carries the same event `id` and comes within 24 hours of the event `createdAt`: the trigger remembers the ids of the last 24 hours (up to 10 000) and acknowledges older events without starting (Max Event Age, 0 turns it off). The signature header may hold several comma-separated signatures, each optionally prefixed `sha256=`; one match is enough.',
		differs:
			"Change the trigger's Max Event Age (0: no age limit) or turn Ignore Repeated Deliveries off.",
	},
	{
		topic: 'Payloads of `document.estamp.started` and `document.sent`',
		guess:
			'started: `envelopeId`, `title`, `status` (`pending`), `transactionId`, `reference`, `occurredAt`; sent: `envelopeId`, `title`, `status` (`pending`), `recipients[]`, `occurredAt`.',
		differs: 'Events are output whole, whatever their `data` holds.',
	},
	{
		topic: 'Key scopes of envelope and credit endpoints',
		guess:
			'Envelope list, status, fields and file: `documents:read`; create and add recipients: `documents:write`; send and e-stamp check: `signing:write`; credits: `credits:read`.',
		differs:
			"Only the credential test's message names a scope; a 403 is shown as the service answers it.",
	},
	{
		topic: 'Success status of creates',
		guess:
			'`POST /envelopes` and `POST /templates` answer 201; other successes 200 (202, 201 and 204 where the specification shows them).',
		differs: 'Any 2xx is a success; nothing to change.',
	},
	{
		topic: 'Signing progress percentage',
		guess:
			'`completedCount` counts signed and approved recipients; `percentage` is `completedCount` over signers and approvers (cc excluded), 0..100 with two decimals.',
		differs: 'Output as the service answers it; the node computes nothing.',
	},
	{
		topic: 'Replacing envelope recipients',
		guess:
			'The node refuses a replacing recipient list without a signer before any request, since such an envelope could never be sent; an append is left to the service.',
		differs:
			'Nothing to change: a list without a signer could never be sent under the specification.',
	},
	{
		topic: 'Envelope list order',
		guess:
			'Newest change first: `updatedAt` descending, then `id` descending. The status trigger reads pages until it passes its last poll; once a page shows another order, it reads every page from then on.',
		differs:
			'Another order (e.g. `createdAt` ascending) is seen on the first page and every page is read from then on: slower, nothing missed.',
	},
	{
		topic: 'Envelope `updatedAt`',
		guess:
			'Set by every change of the envelope (a signature, a status change). A `completed` or `estamp_failed` envelope no longer changes: its `updatedAt` is when it got there.',
		differs:
			"A status whose envelopes change without `updatedAt` moving: the trigger's overlap (60 s) and per-status memory of ids cover late changes; nothing to set.",
	},
	{
		topic: 'Event kinds beyond the four shown',
		guess:
			'Kinds for recipient signing activity exist but are not named; the trigger starts on the four shown unless Any Other Event is chosen.',
		differs:
			'Choose the trigger\'s "Any Other Event" (or give kinds in an expression): such events are output whole.',
	},
	{
		topic: 'Which PDF the file endpoint serves',
		guess:
			'Not shown: the PDF at its current stage, the signed PDF once the envelope is `completed`, before that the PDF as uploaded (with the e-stamp certificate as page 1 once stamped). Download File reads the status too and outputs `envelopeStatus` and `signed`.',
		differs: 'Read `envelopeStatus` rather than `signed`, or turn Include Signing Status off.',
	},
	{
		topic: 'Unit of signature placement sizes',
		guess:
			'Not shown for text placements (2.5): `gap`, `width` and `height` are in PDF points (1/72 inch), the unit the specification gives for form field coordinates and sizes.',
		differs: 'Scale the values you give; the node sends them as typed.',
	},
	{
		topic: 'Rate limits',
		guess:
			"None documented; the node retries 429 and 503, honouring `Retry-After`, and takes a 429's `Retry-After` (at least 1 s) as the length of the service's window. It takes the windows to start on the clock's whole windows (a count per second) and sends each window's count at its start.",
		differs:
			"The node learns the count per window from the 429s by itself. The first 429 that windows of the clock do not explain (a service that counts over a sliding window, or whose windows start part-way through a window's sends) turns it to pacing by a sliding window until the credential is idle for 5 s, at the cost of about one window. Set Batching (Max Requests per Second) to stay under a known rate from the start.",
	},
];
