import type { Assumption } from './assumptions';

/** The rows of ASSUMPTIONS (assumptions.ts) about templates, documents from templates, signing workflows, credits and e-stamps. */
export const RESOURCE_ASSUMPTIONS: Assumption[] = [
	{
		topic: 'Credit balance path and fields',
		guess:
			'`GET /credits/balance` returns `context`, `balance` (number) and `currency` (`credits`).',
		differs:
			'Another path: Get Balance fails with the 404 and names the credential field "Credit Balance Path" (credential, Service Paths); set it there. Other fields: output as the service answers them.',
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
