import type { IDataObject } from 'n8n-workflow';

/**
 * The simplified answer of each operation whose answer is long: the fields a person or
 * an AI agent acts on instead of the whole answer (output.ts offers it as Simplify up to
 * version 1.1 and as Output from 1.2). Everything here reads what the API returned and
 * keeps only what is present.
 */

type Json = IDataObject;
const obj = (value: unknown): Json =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);

/** `source` with only `keys` (absent keys stay absent). */
function pick(source: unknown, keys: string[]): Json {
	const from = obj(source);
	const out: Json = {};
	for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
	return out;
}

/** A workflow answer may hold the definition and its versions, or be the definition itself. */
function workflowParts(json: Json): { definition: Json; config: Json } {
	const definition = json.definition ? obj(json.definition) : json;
	const versions = list(json.versions);
	const version = obj(
		json.publishedVersion ??
			json.latestVersion ??
			json.version ??
			versions.find((v) => v.status === 'published') ??
			versions.at(-1),
	);
	return { definition, config: obj(version.config ?? json.config) };
}

export const SIMPLIFIERS: Record<string, Record<string, (json: Json) => Json>> = {
	envelope: {
		getMany: (json) =>
			pick(json, [
				'envelopeId',
				'id',
				'title',
				'status',
				'totalRecipients',
				'completedActions',
				'updatedAt',
			]),
		getStatus: (json) => {
			const out = pick(json, [
				'envelopeId',
				'status',
				'percentage',
				'completedCount',
				'totalRecipients',
			]);
			out.recipients = list(json.recipients).map((r) =>
				pick(r, ['name', 'email', 'status', 'signedAt']),
			);
			if (json.estamp) out.estamp = pick(json.estamp, ['status', 'certificateId', 'lastError']);
			return out;
		},
		getFields: (json) => ({
			...pick(json, ['envelopeId', 'total']),
			fields: list(json.items).map((f) =>
				pick(f, ['id', 'fieldKey', 'type', 'label', 'required', 'pageNumber', 'recipientId']),
			),
		}),
	},
	template: {
		getMany: (json) =>
			pick(json, ['id', 'name', 'status', 'recipientsCount', 'usageCount', 'updatedAt']),
		get: (json) => {
			const fields = list(json.formFields);
			return {
				...pick(json, ['id', 'name', 'description', 'status', 'usageCount', 'updatedAt']),
				roles: list(json.recipients).map((r) => pick(r, ['id', 'name', 'role', 'order'])),
				prefillFields: fields
					.filter((f) => obj(f.assignee).type === 'sender_prefill')
					.map((f) => pick(f, ['fieldKey', 'label', 'type', 'required', 'defaultValue'])),
				fieldCount: fields.length,
			};
		},
		getDocumentPayload: (json) => ({
			...pick(json, ['templateId', 'title']),
			recipientMapping: list(json.recipientMapping).map((r) =>
				pick(r, ['templateRecipientId', 'name', 'email', 'phone']),
			),
			prefillValues: list(json.prefillValues).map((p) => pick(p, ['fieldKey', 'value'])),
		}),
	},
	workflow: {
		getMany: (json) =>
			pick(workflowParts(json).definition, [
				'id',
				'name',
				'status',
				'latestPublishedVersion',
				'updatedAt',
			]),
		get: (json) => {
			const { definition, config } = workflowParts(json);
			return {
				...pick(definition, [
					'id',
					'name',
					'description',
					'status',
					'latestPublishedVersion',
					'updatedAt',
				]),
				documents: list(config.documents).map((d) => pick(d, ['templateId', 'label', 'required'])),
				participants: list(config.participants).map((p) =>
					pick(p, ['key', 'label', 'role', 'order']),
				),
			};
		},
	},
	credit: {
		getTransactions: (json) =>
			pick(json, ['id', 'type', 'amount', 'balanceAfter', 'reason', 'envelopeId', 'createdAt']),
	},
};

/** A send's answer (200 sent, 202 e-stamping queued; normalizeSendResponse): status and recipients, no settings echo. */
function sent(json: Json): Json {
	const out = pick(json, ['envelopeId', 'status', 'message', 'estamp']);
	if (Array.isArray(json.recipients)) {
		// actionUrl stays when present: Safeguards > Include Signing Links decides about it.
		out.recipients = list(json.recipients).map((r) =>
			pick(r, ['id', 'name', 'email', 'phone', 'role', 'order', 'status', 'actionUrl']),
		);
	}
	return out;
}

/**
 * Answers shaped from version 1.2 on (Output): creates and sends, whose answers carry the
 * upload form's internals or every recipient and setting. Versions 1 and 1.1 keep them whole.
 */
export const SIMPLIFIERS_FROM_1_2: Record<string, Record<string, (json: Json) => Json>> = {
	envelope: {
		// No fileKey, upload form, expiresIn or maxFileSize: internals of the presigned upload.
		create: (json) =>
			pick(json, [
				'envelopeId',
				'id',
				'title',
				'fileName',
				'status',
				'createdAt',
				'recipientsAdded',
				'uploaded',
			]),
		send: sent,
	},
	template: {
		sendDocument: sent,
		createDocument: (json) => {
			const out = pick(json, [
				'envelopeId',
				'templateId',
				'title',
				'status',
				'message',
				'steps',
				'sendSkipped',
			]);
			if (json.send) out.send = sent(obj(json.send));
			return out;
		},
	},
};

/**
 * The operations output whole, each with why. Every operation is either simplified above or
 * listed here (test/tools/simplify.test.ts fails on one in neither): a new operation's
 * author decides, instead of forgetting the simplifier.
 */
export const WHOLE_ANSWERS: Record<string, Record<string, string>> = {
	envelope: {
		addRecipients: 'short: envelopeId, message and the recipients added',
		checkEstamp: 'short: envelopeId, queued, estampStatus, message',
		downloadFile: "short: the file's name, size and status, with the PDF as binary",
	},
	template: {
		archive: 'short: the template as Update answers it',
		restore: 'short: the template as Update answers it',
		update: 'short: id, name, description, counts, status, updatedAt',
		duplicate: 'short: id, name, createdAt, copiedFrom',
		deleteTemplate: 'short: deleted and id',
		create: 'whole up to 1.2: a simplifier would change what saved workflows output',
	},
	workflow: {
		create: 'whole up to 1.2: the definition and version a later Update or Publish reads',
		update: 'whole up to 1.2: the definition, version and versionWritten',
		publish: 'whole up to 1.2: the published definition and version',
		run: 'whole up to 1.2: run, envelope and approval, as the service answers',
	},
	credit: {
		getBalance: 'short: context, balance, currency',
		getUsage: 'short: totalUsed, period and breakdown',
	},
};
