/**
 * The rows of the table of guesses (ASSUMPTIONS in assumptions.ts): what the specification
 * leaves open, the guess, and what the user changes when the service differs. Text for users,
 * kept apart from the values the code uses; docs/assumptions.md lists the same rows.
 */

export interface Assumption {
	/** What the specification leaves open. */
	topic: string;
	/** The guess this package follows. */
	guess: string;
	/** What happens when the service differs, and what the user changes. */
	differs: string;
}

/** The rows of ASSUMPTIONS  about envelopes, recipients, events, errors, paging and limits. */
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
			"None documented; the node retries 429 and 503, honouring `Retry-After`, and paces by the budget an answer announces (`RateLimit-*`, `X-RateLimit-*`) or else by what its 429s teach: the count accepted in the window, and a window that reopens `Retry-After` after the 429. It takes one-second windows to start on the clock's seconds and sends each second's count at its start.",
		differs:
			"The node learns the count and the window by itself. The first 429 that the clock's seconds do not explain (a service that counts over a sliding window, or from the first request) turns it to pacing by a sliding window until the credential is idle for 5 s, at the cost of a few 429s once. Set Batching (Max Requests per Second) to stay under a known rate from the start when the service announces no budget.",
	},
];

/** The rows of ASSUMPTIONS  about templates, documents from templates, signing workflows, credits and e-stamps. */
export const RESOURCE_ASSUMPTIONS: Assumption[] = [
	{
		topic: 'Credit balance path and fields',
		guess:
			'`GET /credits/balance` returns `context`, `balance` (number) and `currency` (`credits`).',
		differs:
			'Another path: Get Balance fails with the 404 and names the credential field "Credit Balance Path" (the credential\'s last fields, below Webhook Secret); set it there. Other fields: output as the service answers them.',
	},
	{
		topic: 'Reusable workflow list and get',
		guess:
			'`GET /workflows` (`page`, `limit`, `items[]` of definitions, `pageInfo`); `GET /workflows/{id}` returns `definition`, `version` (the latest version) and `publishedVersion` (the latest published version, `null` before the first publish; the participant list of Run is read there).',
		differs:
			'Other paths: Get and Get Many fail with the 404 and name "Signing Workflow List Path" / "Signing Workflow Get Path" (with `{workflowId}`) in the credential; set them there. A get answering the definition record with `latestPublishedVersion` and `versions[]` is read too. Run never reads the workflow (it needs only `workflows:write`); without the read, participant keys are typed.',
	},
	{
		topic: 'Reusable workflow update and publish bodies',
		guess:
			'PATCH takes `name`, `description`, `config` (any of them) and returns `definition` and `version`; publish takes no body and returns `definition` and the published `version`.',
		differs:
			'Answers are output whole; Update adds `versionWritten` read from `version.version` or from a version record (`workflowDefinitionId`, `version`), and leaves it out otherwise.',
	},
	{
		topic: 'Reusable workflow run response',
		guess:
			'`run` (`id`, `workflowId`, `version`, `idempotencyKey`, `createdAt`), `envelope` (envelope fields of 2.2 with `recipients[]`), `approval` (`required`, `status`).',
		differs: 'Output whole, whatever its shape; nothing is derived from it.',
	},
	{
		topic: 'Send a template-created document',
		guess: '`POST /documents/{envelopeId}/send` takes no body and answers as envelope send does.',
		differs:
			'The answer is output whole (e.g. `sentAt`), with `envelopeId`, `status`, `estamp`, `recipients` and `workflow` made uniform.',
	},
	{
		topic: 'Archived template on document creation',
		guess: '409 with code `TEMPLATE_ARCHIVED`.',
		differs: 'Shown as the service answers it; nothing to change.',
	},
	{
		topic: 'Credit costs',
		guess: 'One credit per `aadhaar_otp` recipient, taken at send; other methods are free.',
		differs: 'Nothing in the node depends on it; the service charges.',
	},
	{
		topic: 'Credit transaction `type` and `source` values',
		guess:
			'type: `consume`, `purchase`, `refund`, `adjustment`; source: `api`, `dashboard`, `system`.',
		differs:
			"Any type is sent: give it as an expression in Get Transactions' Type filter. Other `source` values are output as answered.",
	},
	{
		topic: 'E-stamp duty maximum of states other than KA',
		guess:
			'Not shown: the ceiling 10000000 is used for every state except KA (whose maximum, 10000000, is shown).',
		differs:
			"A lower maximum is refused by the service with its message; the node checks only the specification's ceiling.",
	},
	{
		topic: 'E-stamp article catalogs of states other than KA',
		guess:
			'Not shown: any non-empty instrument name is accepted, except one that starts with a Stamp Act article number (such as "Article 5(b) - ...") or is only one; a trailing reference is accepted, as in the KA catalog ("... Art 23(b)").',
		differs:
			'Any other value is sent; the service refuses one not in its catalog with its message.',
	},
	{
		topic: 'Template form field ids and assignee',
		guess:
			'A field `id` may be omitted on template create and update (generated); `fieldKey`, `type`, `pageNumber`, `x`, `y`, `width`, `height` and `assignee` are required.',
		differs: 'A service that needs ids: give them in the Form Fields JSON.',
	},
	{
		topic: 'Template recipients replaced without fields',
		guess:
			'After a template update every recipient-assigned field must name a recipient of the resulting list; replacing recipients so a stored field points nowhere is a 400 unless `formFields` in the same request reassigns it.',
		differs:
			"The service's answer is shown; reassign fields in the same update (Form Fields) when it refuses.",
	},
	{
		topic: 'Template ownership',
		guess:
			'A template is owned by the member (key) that created it; update, archive, restore and delete by anyone else answer NOT_FOUND. Any key of the workspace may read, use and copy it; a copy belongs to the copier.',
		differs: 'Shown as the service answers it (NOT_FOUND); nothing to change.',
	},
	{
		topic: 'Template use without a PDF',
		guess:
			'Creating a document from a template whose PDF was never uploaded answers 400 `FILE_NOT_UPLOADED`.',
		differs: 'Shown as the service answers it; upload the PDF (Create with a binary input).',
	},
	{
		topic: 'Template copy body',
		guess:
			'`newName` is required; the copy is active, keeps recipients, fields, workflow and PDF, and starts with `usageCount` 0.',
		differs:
			"A service that wants another field: use n8n's HTTP Request node with this credential (docs/operations.md).",
	},
	{
		topic: 'Send of a template-created document',
		guess:
			'`POST /documents/{envelopeId}/send` answers NOT_FOUND for an envelope that was not created from a template.',
		differs: 'Use Envelope > Send for envelopes not created from a template.',
	},
	{
		topic: 'Form field types at document creation',
		guess:
			'Only `text` and `signature` are shown. `checkbox` holds a boolean, `number` a number, `date` a day (YYYY-MM-DD); a field with `options` holds one of them; any other type holds text. Create Document types its prefill fields this way.',
		differs: 'Give the value as text (an expression); the service checks it.',
	},
	{
		topic: 'Signing settings given at document creation',
		guess:
			"A `workflow` in the document-creation body replaces the template's settings as a whole. The node sends the template's settings with the chosen overrides laid over them, so the result is the same if the service merges them instead.",
		differs:
			'Nothing to change: the full settings are sent, so replace and merge give the same result.',
	},
	{
		topic: 'Reusable workflow definition status',
		guess: '`draft` until a version is published, then `published`.',
		differs: 'Output as the service answers it; nothing depends on it.',
	},
	{
		topic: 'Reusable workflow publish and run errors',
		guess:
			'Publish with no draft, or run with no published version: 409 `INVALID_STATUS`. A configured template that is missing, not accessible or without a PDF: 400 `VALIDATION_ERROR` on `config.documents.N.templateId`; archived: 409 `TEMPLATE_ARCHIVED`. An unknown `participantKey` or a missing required participant: 400.',
		differs: 'Shown as the service answers them (code, message and field errors).',
	},
	{
		topic: 'Reusable workflow run',
		guess:
			'One envelope per `config.documents[]` entry (title `<title> - <label>` when there are several); `envelope` is the first, `envelopes` lists all. Template recipients are paired with participants by key = template recipient id, then by signing order; participants set role, order and methods. Execution settings become the envelope workflow (`expiresAt` = now + `expiresInDays`). Without approval stages and without `requireFinalSenderConfirmation` the envelopes are sent at once (`approval.status` `not_required`); otherwise they stay drafts (`approval.status` `pending`). `idempotencyKey` is scoped to the workflow: a repeated key returns the first run unchanged.',
		differs: "Output whole; the node derives nothing from the run's shape.",
	},
	{
		topic: 'Credit usage period',
		guess:
			'Omitted `endDate`: today (UTC); omitted `startDate`: 29 days before `endDate`. `totalUsed` sums `consume` transactions in the period; `breakdown.aadhaar_esign` those for `aadhaar_otp`, `breakdown.document_signing` the rest.',
		differs: 'Set Start Date and End Date explicitly.',
	},
	{
		topic: 'Credit balance context values',
		guess:
			'`personal` for personal keys, `organization_wallet` for organization keys (`organization_member_allocation` is reserved for member allocations).',
		differs: 'Output as answered; the output-pane hint names the guessed values only.',
	},
	{
		topic: 'Reusable workflow config rules',
		guess:
			'`execution.redirectUrl` must be HTTPS (as for envelopes); a config needs at least one signer participant and unique participant keys; a run needs a `title`.',
		differs: "The service's own refusal is shown; the node checks only these rules before sending.",
	},
	{
		topic: 'Resending a template update',
		guess:
			'A `PATCH /templates/{id}` (update, archive, restore) sent twice leaves the template as one send does, so the node sends it again after a lost connection or a server error, as it does reads; a template create, copy or delete is never sent again.',
		differs: 'Turn Retry On Fail off on the node if your service does not take a repeated PATCH.',
	},
	{
		topic: 'Web addresses of envelopes, templates and signing workflows',
		guess:
			"Not shown: the pickers' By URL mode reads the id from the path segment after `/envelopes/` or `/documents/`, `/templates/`, `/workflows/` of any http(s) address (the dashboard's or the API's).",
		differs:
			'An address of another shape is refused by the picker: use its By ID mode (or an expression that takes the id out of the address).',
	},
];
