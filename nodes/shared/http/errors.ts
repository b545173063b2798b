import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { fieldNameOfDotted } from '../api/fieldNames';

/**
 * Errors of the API and of the network, turned into n8n errors.
 *
 * The API answers every failure with `{ code, message, requestId, timestamp, details }`
 * (spec part 7). The resulting NodeApiError shows `<code>: <message>`, lists each field
 * error and the request id in its description, and keeps the same facts in
 * `error.context` (`apiCode`, `requestId`, `fieldErrors`) so callers can read them
 * without parsing text.
 */

/** What the router copies into an error item under "Continue On Fail". */
export interface ApiErrorFields extends IDataObject {
	code?: string;
	requestId?: string;
	httpCode?: string;
	fieldErrors?: string[];
	envelopeId?: string;
}

const REDACTED = '[redacted]';

/** Secrets to keep out of messages: the API key, and the webhook secret where there is one. */
export type Secrets = string | ReadonlyArray<string | undefined> | undefined;

/** Encoded forms shorter than this are not looked for: they would match by chance. */
const MIN_ENCODED_CHARS = 8;

/**
 * The base64 characters that only the secret's bytes decide, at each of the three byte
 * alignments it can have inside a longer base64 text (a Basic header, "Bearer <key>").
 */
function base64Cores(bytes: Buffer): string[] {
	const cores: string[] = [];
	for (let before = 0; before < 3; before++) {
		const text = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
		cores.push(
			text.slice(Math.ceil((before * 8) / 6), Math.floor(((before + bytes.length) * 8) / 6)),
		);
	}
	return cores;
}

/** Every form a service may echo a secret in: as is, URL-encoded, base64, base64url, hex. */
function secretForms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const base64 = base64Cores(bytes);
	const hex = bytes.toString('hex');
	const encoded = [
		encodeURIComponent(secret),
		...base64,
		...base64.map((core) => core.replace(/\+/g, '-').replace(/\//g, '_')),
		hex,
		hex.toUpperCase(),
	].filter((form) => form.length >= MIN_ENCODED_CHARS);
	// Longest first, so a form is replaced whole before a shorter one inside it.
	return [...new Set([secret, ...encoded])].sort((a, b) => b.length - a.length);
}

function formsOf(secrets: Secrets): string[] {
	const list = typeof secrets === 'string' ? [secrets] : (secrets ?? []);
	return list.filter((secret): secret is string => !!secret).flatMap(secretForms);
}

/** Replaces every occurrence of the secrets, in each of their encoded forms, in strings, deeply. */
export function redactSecret<T>(value: T, secrets: Secrets): T {
	const forms = formsOf(secrets);
	return forms.length ? redactForms(value, forms) : value;
}

function redactForms<T>(value: T, forms: string[]): T {
	if (typeof value === 'string')
		return forms.reduce((text, form) => text.split(form).join(REDACTED), value as string) as T;
	if (Array.isArray(value)) return value.map((entry) => redactForms(entry, forms)) as T;
	if (value !== null && typeof value === 'object') {
		const copy: IDataObject = {};
		for (const [key, entry] of Object.entries(value as IDataObject)) {
			copy[key] = redactForms(entry, forms);
		}
		return copy as T;
	}
	return value;
}

/**
 * The first `max` characters of a text that has already been redacted: a secret is replaced
 * whole before any cut, so no part of it survives at the cut.
 */
export function cutText(redacted: string, max: number): string {
	return redacted.slice(0, max);
}

/**
 * `Recipient 1 > Email: Invalid email` lines from `details.validation` (issues first, then
 * field and form errors): each field named as the panel shows it, counted from 1.
 */
export function fieldErrorLines(body: IDataObject): string[] {
	const details = body.details as IDataObject | undefined;
	const validation = (details?.validation ?? details) as IDataObject | undefined;
	if (!validation || typeof validation !== 'object') return [];

	const lines: string[] = [];
	const issuePaths: string[] = [];
	const add = (path: string, message: unknown) => {
		const text = String(message) === 'Required' ? 'is required' : String(message);
		const line = path ? `${fieldNameOfDotted(path)}: ${text}` : text;
		if (!lines.includes(line)) lines.push(line);
	};

	if (Array.isArray(validation.issues)) {
		for (const issue of validation.issues as IDataObject[]) {
			const path = Array.isArray(issue.path) ? issue.path.join('.') : String(issue.path ?? '');
			issuePaths.push(path);
			add(path, issue.message);
		}
	}
	const fieldErrors = validation.fieldErrors as IDataObject | undefined;
	if (fieldErrors && typeof fieldErrors === 'object') {
		for (const [path, messages] of Object.entries(fieldErrors)) {
			// an issue already names this field, with a more precise path
			if (issuePaths.some((p) => p === path || p.startsWith(`${path}.`))) continue;
			for (const message of Array.isArray(messages) ? messages : [messages]) add(path, message);
		}
	}
	if (Array.isArray(validation.formErrors)) {
		for (const message of validation.formErrors) add('', message);
	}
	return lines;
}

/** An answer of the service as a NodeApiError: its status, its body as read, the secrets kept out. */
type AnswerError = (
	node: INode,
	status: number,
	rawBody: string,
	secret: Secrets,
	itemIndex?: number,
) => NodeApiError;

/** An error answer of the API (status >= 400). */
export const apiResponseError: AnswerError = (node, status, rawBody, secret, itemIndex) => {
	const body = redactSecret(parseObject(rawBody), secret);
	const code = typeof body?.code === 'string' ? body.code : undefined;
	const apiMessage = typeof body?.message === 'string' ? body.message : undefined;
	const requestId = typeof body?.requestId === 'string' ? body.requestId : undefined;
	const fieldErrors = body ? fieldErrorLines(body) : [];

	const message = code
		? `${code}: ${apiMessage ?? `HTTP ${status}`}`
		: `The service answered HTTP ${status}`;
	const descriptionLines = [...fieldErrors];
	if (!body && rawBody.trim()) {
		descriptionLines.push(`Response: ${cutText(redactSecret(rawBody, secret).trim(), 300)}`);
	}
	if (requestId) descriptionLines.push(`Request ID: ${requestId}`);
	if (code) descriptionLines.push(`Error code: ${code}`);

	const error = new NodeApiError(node, (body ?? { message }) as JsonObject, {
		message,
		description: descriptionLines.join('\n') || undefined,
		httpCode: String(status),
		itemIndex,
	});
	Object.assign(error.context, {
		apiCode: code,
		requestId,
		fieldErrors,
	});
	return error;
};

/** The request failed on the network, after the allowed retries. */
export function connectionError(
	node: INode,
	systemCode: string | undefined,
	detail: string,
	itemIndex?: number,
): NodeApiError {
	const error = new NodeApiError(
		node,
		{
			message: `Could not reach the service${systemCode ? ` (${systemCode})` : ''}`,
			code: systemCode ?? null,
		},
		{ description: detail, itemIndex },
	);
	Object.assign(error.context, { apiCode: systemCode });
	return error;
}

/** A success answer whose body is not JSON. */
export const malformedResponseError: AnswerError = (node, status, rawBody, secret, itemIndex) => {
	const error = new NodeApiError(
		node,
		{ message: 'The service answered with malformed JSON' },
		{
			message: 'The service answered with malformed JSON',
			description: `HTTP ${status}; response starts with: ${cutText(redactSecret(rawBody, secret), 120)}`,
			httpCode: String(status),
			itemIndex,
		},
	);
	Object.assign(error.context, { apiCode: 'MALFORMED_RESPONSE' });
	return error;
};

/** The fields an error item carries under "Continue On Fail". */
export function apiErrorFields(error: unknown): ApiErrorFields {
	const fields: ApiErrorFields = {};
	if (!error || typeof error !== 'object') return fields;
	const context = ((error as { context?: IDataObject }).context ?? {}) as IDataObject;
	if (typeof context.apiCode === 'string') fields.code = context.apiCode;
	if (typeof context.requestId === 'string') fields.requestId = context.requestId;
	// a document created but not sent: its draft, to send instead of creating it again
	if (typeof context.envelopeId === 'string') fields.envelopeId = context.envelopeId;
	const httpCode = (error as { httpCode?: unknown }).httpCode;
	// An HTTP status only: n8n 1.x puts a socket code (ECONNRESET) there, which `code` carries.
	if (typeof httpCode === 'string' && /^\d{3}$/.test(httpCode)) fields.httpCode = httpCode;
	if (Array.isArray(context.fieldErrors) && context.fieldErrors.length) {
		fields.fieldErrors = context.fieldErrors as string[];
	}
	return fields;
}

function parseObject(text: string): IDataObject | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value)
			? (value as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}
