/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The sandbox server: an in-memory simulation of the Document Signing Service API.
 *
 *   /api/v1/...        the API (Bearer key; faults apply here only)
 *   /storage/...       presigned upload and download addresses (no key)
 *   /sign/<token>      recipient action pages (GET page, POST sign/approve)
 *   /__sandbox/...     test control: reset, clock, keys, credits, estamp timing, faults,
 *                      webhooks, deliveries, events, request log, fixed template ids,
 *                      the variant mode, envelope status and events of any kind
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import { apiError } from './http';
import { faults, requestId, requestLog } from './middleware';
import adminRoutes, { installHourlyCheck } from './routes/admin';
import creditsRoutes from './routes/credits';
import dashboardRoutes from './routes/dashboard';
import envelopeRoutes from './routes/envelopes';
import signingRoutes from './routes/signing';
import storageRoutes from './routes/storage';
import templatesRoutes from './routes/templates';
import workflowsRoutes from './routes/workflows';
import { type FaultInput, SandboxState } from './state';

export interface Sandbox {
	/** `http://127.0.0.1:<port>/api/v1` */
	baseUrl: string;
	/** `http://127.0.0.1:<port>` */
	origin: string;
	apiKey: string;
	orgApiKey: string;
	disabledApiKey: string;
	webhookSecret: string;
	state: SandboxState;
	close(): Promise<void>;
}

export interface SandboxOptions {
	port?: number;
	host?: string;
	webhookSecret?: string;
	/** Start in the variant mode (variant.ts); POST /__sandbox/variant switches at run time. */
	variant?: boolean;
	/** Faults from the start (latency, rate limit, capacity, ...), as POST /__sandbox/faults takes them; a reset returns to them. */
	faults?: FaultInput;
}

type RouterFactory = (state: SandboxState) => express.Router;

/** Routers of other areas are mounted when their module exports a factory. */
const optionalRouters: RouterFactory[] = [templatesRoutes, workflowsRoutes, creditsRoutes];

export function createApp(state: SandboxState): express.Express {
	const app = express();
	app.disable('x-powered-by');
	app.set('etag', false);
	app.locals.state = state;
	app.use(requestId());

	const api = express.Router();
	api.use(express.json({ limit: '5mb' }));
	api.use(requestLog({ logBody: true }));
	api.use(faults());
	api.use(envelopeRoutes(state));
	for (const factory of optionalRouters) {
		if (typeof factory === 'function') api.use(factory(state));
	}
	api.use((req: Request, res: Response) => {
		apiError(res, 'NOT_FOUND', `No route ${req.method} ${req.path}`);
	});
	app.use('/api/v1', api);

	app.use('/storage', requestLog({ logBody: false }), storageRoutes(state));
	app.use('/sign', express.json(), signingRoutes(state));
	app.use('/__sandbox', express.json(), adminRoutes(state));
	app.use(dashboardRoutes(state, () => state.origin));

	app.use((req: Request, res: Response) => {
		apiError(res, 'NOT_FOUND', `No route ${req.method} ${req.path}`);
	});
	// Body-parser errors (malformed JSON) and anything thrown by a route.
	app.use((err: any, _req: Request, res: Response, _next: NextFunction) => {
		if (res.headersSent) return;
		if (err?.type === 'entity.parse.failed') {
			apiError(res, 'VALIDATION_ERROR', `Request body is not valid JSON: ${err.message}`, {
				validation: {
					fieldErrors: {},
					formErrors: ['Request body is not valid JSON'],
					issues: [{ path: '', message: 'Request body is not valid JSON', code: 'invalid_type' }],
				},
			});
		} else if (err?.type === 'entity.too.large') {
			apiError(res, 'VALIDATION_ERROR', 'Request body is too large');
		} else {
			apiError(res, 'INTERNAL_SERVER_ERROR', `Internal error: ${err?.message ?? String(err)}`);
		}
	});
	return app;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
	const state = new SandboxState({
		webhookSecret: opts.webhookSecret,
		variant: opts.variant,
		faults: opts.faults,
	});
	installHourlyCheck(state);
	const app = createApp(state);
	const host = opts.host ?? '127.0.0.1';
	const server: Server = await new Promise((resolve, reject) => {
		const s = app.listen(opts.port ?? 0, host, (err?: Error) => (err ? reject(err) : resolve(s)));
		s.on('error', reject);
	});
	const port = (server.address() as AddressInfo).port;
	const origin = `http://${host}:${port}`;
	state.origin = origin;
	let closed: Promise<void> | undefined;
	return {
		baseUrl: `${origin}/api/v1`,
		origin,
		apiKey: state.apiKey.secret,
		orgApiKey: state.orgApiKey.secret,
		disabledApiKey: state.disabledApiKey.secret,
		webhookSecret: state.webhookSecret,
		state,
		close() {
			closed ??= new Promise<void>((resolve) => {
				state.generation += 1;
				state.clearTimers();
				server.close(() => resolve());
				// Held (timeout fault) and keep-alive sockets would keep close() waiting.
				server.closeAllConnections();
			});
			return closed;
		},
	};
}
