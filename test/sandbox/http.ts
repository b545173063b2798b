/**
 * HTTP helpers shared by every sandbox route: the error body of part 7, zod validation
 * errors, pagination, and Bearer-key authentication.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ZodError, ZodIssue, ZodTypeAny, z } from 'zod/v3';
import { rulesFor } from './spec';
import type { ApiKeyRecord, SandboxState } from './state';
import { choicesOf, DEFAULT_CHOICES, type ModeChoices } from './variant';

export interface ApiErrorBody {
	code: string;
	message: string;
	requestId: string;
	timestamp: string;
	details?: Record<string, unknown>;
}

/** The request id given to this request by the server (also sent as `X-Request-Id`). */
export function requestIdOf(res: Response): string {
	return (res.locals.requestId as string | undefined) ?? 'req_unknown';
}

/** The choices of the mode the answering sandbox is in. */
export function choicesOfResponse(res: Response): ModeChoices {
	const state = res.app?.locals.state as SandboxState | undefined;
	return state ? choicesOf(state) : DEFAULT_CHOICES;
}

/** Sends the error body of part 7 with the HTTP status the mode gives the code. */
export function apiError(
	res: Response,
	code: string,
	message: string,
	details?: Record<string, unknown>,
): Response {
	const body: ApiErrorBody = {
		code,
		message,
		requestId: requestIdOf(res),
		timestamp: new Date().toISOString(),
	};
	if (details !== undefined) body.details = details;
	return res.status(choicesOfResponse(res).errorStatus[code] ?? 500).json(body);
}

function pathString(path: Array<string | number>): string {
	return path.map(String).join('.');
}

/** `details.validation` of part 7 built from a zod error. */
export function validationDetails(error: ZodError): {
	validation: {
		fieldErrors: Record<string, string[]>;
		formErrors: string[];
		issues: Array<{ path: string; message: string; code: string }>;
	};
} {
	const fieldErrors: Record<string, string[]> = {};
	const formErrors: string[] = [];
	const issues = error.issues.map((issue: ZodIssue) => {
		const path = pathString(issue.path);
		if (path) (fieldErrors[path] ??= []).push(issue.message);
		else formErrors.push(issue.message);
		return { path, message: issue.message, code: issue.code };
	});
	return { validation: { fieldErrors, formErrors, issues } };
}

/** 400 VALIDATION_ERROR; the top-level message is the first path and its message. */
export function validationError(res: Response, error: ZodError): Response {
	const first = error.issues[0];
	const path = first ? pathString(first.path) : '';
	const message = first ? (path ? `${path}: ${first.message}` : first.message) : 'Invalid request';
	return apiError(res, 'VALIDATION_ERROR', message, validationDetails(error));
}

/** A validation error for a rule that is not a zod schema (e.g. a send requirement). */
export function ruleError(res: Response, path: string, message: string, code = 'custom'): Response {
	return apiError(res, 'VALIDATION_ERROR', path ? `${path}: ${message}` : message, {
		validation: {
			fieldErrors: path ? { [path]: [message] } : {},
			formErrors: path ? [] : [message],
			issues: [{ path, message, code }],
		},
	});
}

export type Validated<T> = { ok: true; data: T } | { ok: false; error: ZodError };

export function validate<S extends ZodTypeAny>(schema: S, value: unknown): Validated<z.infer<S>> {
	const result = schema.safeParse(value);
	return result.success ? { ok: true, data: result.data } : { ok: false, error: result.error };
}

export interface PageInfo {
	page: number;
	limit: number;
	total: number;
	totalPages: number;
	hasNext: boolean;
	hasPrevious: boolean;
}

/**
 * Pages a list by the query's `page` and `limit` (defaults and maximum of the mode). Answers VALIDATION_ERROR itself (and returns undefined) for a bad
 * page or limit, so a route writes `const page = paginate(res, items, req.query); if (!page) return;`.
 */
export function paginate<T>(
	res: Response,
	items: T[],
	query: Record<string, unknown>,
): { items: T[]; pageInfo: PageInfo } | undefined {
	const paging = rulesFor(choicesOfResponse(res)).paging.safeParse({
		page: query.page,
		limit: query.limit,
	});
	if (!paging.success) {
		validationError(res, paging.error);
		return undefined;
	}
	return pageOf(items, paging.data.page, paging.data.limit);
}

export function pageOf<T>(
	items: T[],
	page: number,
	limit: number,
): { items: T[]; pageInfo: PageInfo } {
	const total = items.length;
	const totalPages = Math.ceil(total / limit);
	return {
		items: items.slice((page - 1) * limit, page * limit),
		pageInfo: { page, limit, total, totalPages, hasNext: page < totalPages, hasPrevious: page > 1 },
	};
}

/** The key secret of a `Bearer <key>` header, or undefined. */
export function bearerOf(req: Request): string | undefined {
	const header = req.headers.authorization;
	if (!header) return undefined;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	return match?.[1];
}

/** The SandboxState the server put on app.locals. */
export function stateOf(req: Request): SandboxState {
	return req.app.locals.state as SandboxState;
}

export function keyOf(res: Response): ApiKeyRecord {
	return res.locals.apiKey as ApiKeyRecord;
}

/**
 * Authenticates the Bearer key: missing or unknown -> UNAUTHORIZED, disabled -> FORBIDDEN,
 * lacking one of `scopes` -> FORBIDDEN naming it. Sets res.locals.apiKey.
 */
export function requireAuth(scopes: string[] = []): RequestHandler {
	return (req: Request, res: Response, next: NextFunction) => {
		const state = stateOf(req);
		const secret = bearerOf(req);
		if (!secret) {
			apiError(
				res,
				'UNAUTHORIZED',
				'Missing API key: send the header Authorization: Bearer <API_KEY>',
			);
			return;
		}
		const key = state.findKey(secret);
		if (!key) {
			apiError(res, 'UNAUTHORIZED', 'Invalid API key');
			return;
		}
		if (key.disabled) {
			apiError(res, 'FORBIDDEN', 'API key is disabled');
			return;
		}
		const missing = scopes.find((s) => !key.scopes.includes(s));
		if (missing) {
			apiError(res, 'FORBIDDEN', `API key lacks the permission ${missing}`, {
				requiredScope: missing,
			});
			return;
		}
		res.locals.apiKey = key;
		next();
	};
}
