/* eslint-disable @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-explicit-any -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * In-memory store of the sandbox: keys, workspaces, credits, envelopes, stored files,
 * request log, webhook subscriptions, fault settings and a clock that can be advanced.
 * Everything lives in one SandboxState so `reset()` gives a fresh service with the same keys.
 */
import { randomBytes } from 'crypto';
import { DOWNLOAD_EXPIRES_IN, MAX_FILE_SIZE, UPLOAD_EXPIRES_IN } from './spec/limits';

export type WorkspaceType = 'personal' | 'organization';
export interface WorkspaceRef {
	type: WorkspaceType;
	id: string;
}

/** Every scope a key can hold; personal and organization keys get all of them by default. */
export const ALL_SCOPES = [
	'documents:read',
	'documents:write',
	'signing:write',
	'credits:read',
	'templates:read',
	'templates:write',
	'templates:delete',
	'workflows:read',
	'workflows:write',
] as const;

export interface ApiKeyRecord {
	id: string;
	/** The full secret `<prefix>_<random>`; never logged. */
	secret: string;
	workspace: WorkspaceRef;
	scopes: string[];
	disabled: boolean;
	createdAt: string;
}

export type RecipientRole = 'signer' | 'approver' | 'cc';

export interface SignaturePlacement {
	type?: string;
	searchText?: string;
	pages?: number[];
	position?: string;
	gap?: number;
	width?: number;
	height?: number;
}

export interface RecipientRecord {
	id: string;
	name: string;
	email?: string;
	phone?: string;
	role: RecipientRole;
	order: number;
	signatureMethod: string;
	verificationMethod?: string;
	signaturePlacement?: SignaturePlacement;
	/** `pending`, `signed` (signer) or `approved` (approver); cc stays `pending`. */
	status: string;
	signedAt?: string;
	/** Secret part of the recipient's action address `<origin>/sign/<token>`. */
	token: string;
}

export interface WorkflowSettings {
	mode: string;
	verificationMethod: string;
	message?: string;
	reminderEveryHours: number;
	expiresAt?: string;
	emailNotifications: string;
	whatsappNotifications: string;
	redirectUrl?: string;
	estampEnabled: boolean;
	estampConfig?: Record<string, any>;
}

/** Form field of an envelope (2.8); templates hand theirs over at document creation. */
export interface EnvelopeField {
	id: string;
	fieldKey: string;
	type: string;
	pageNumber: number;
	x: number;
	y: number;
	width: number;
	height: number;
	recipientId?: string | null;
	[extra: string]: unknown;
}

export interface EstampRecord {
	enabled: boolean;
	/** queued, pending, completed, failed */
	status: string;
	transactionId: string;
	reference: string;
	certificateId: string | null;
	initiatedAt: string;
	pollAttempts: number;
	lastError: string | null;
	/** Sandbox-clock time (ms) of the next hourly provider check. */
	nextCheckAt: number;
}

export interface EnvelopeRecord {
	id: string;
	workspace: WorkspaceRef;
	title: string;
	fileName: string;
	fileKey: string;
	status: string;
	createdAt: string;
	updatedAt: string;
	recipients: RecipientRecord[];
	workflow: WorkflowSettings;
	fields: EnvelopeField[];
	templateId?: string;
	sentAt?: string;
	completedAt?: string;
	/** Storage key of the signed PDF once completed. */
	signedFileKey?: string;
	estamp?: EstampRecord;
}

export interface StoredObject {
	data: Buffer;
	contentType: string;
	uploadedAt: string;
	/**
	 * Makes `data` when it is first read, once (a signed copy: most completed envelopes are
	 * never downloaded, and signing one costs pdf-lib several milliseconds). `contentOf` reads it.
	 */
	render?: () => Promise<Buffer>;
}

/** The object's bytes, made on first read when it is rendered lazily. */
export async function contentOf(object: StoredObject): Promise<Buffer> {
	if (object.render) object.data = await object.render();
	return object.data;
}

/** A presigned upload address: `<origin>/storage/upload/<token>`. */
export interface UploadGrant {
	token: string;
	fileKey: string;
	fields: Record<string, string>;
	expiresAt: number;
	maxFileSize: number;
}

/** A presigned download address: `<origin>/storage/download/<token>`. */
export interface DownloadGrant {
	token: string;
	fileKey: string;
	fileName: string;
	expiresAt: number;
}

export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, unknown>;
	body: unknown;
	keyId: string | null;
	/** null when the connection was dropped without an answer (reset / timeout faults). */
	status: number | null;
	hasAuthorization: boolean;
	time: string;
}

export interface WebhookSubscription {
	id: string;
	url: string;
	/** Event kinds; empty means every kind. */
	events: string[];
	createdAt: string;
}

export interface WebhookEvent {
	id: string;
	event: string;
	createdAt: string;
	data: Record<string, unknown>;
}

export interface DeliveryAttempt {
	at: string;
	status: number | null;
	error: string | null;
}

export interface WebhookDelivery {
	id: string;
	subscriptionId: string;
	url: string;
	eventId: string;
	event: string;
	/** The exact body that was signed and sent. */
	body: string;
	signature: string;
	attempts: DeliveryAttempt[];
	delivered: boolean;
	/** true once retries are exhausted or the delivery succeeded. */
	finished: boolean;
}

/** A fault that hits a share of /api/v1 requests. */
export interface FaultRule {
	/** Probability 0..1 that a matching request is hit (default 1). */
	rate: number;
	/** Only requests whose path (below /api/v1) starts with this string. */
	path?: string;
	/** Stop after this many hits (default: unlimited). */
	count?: number;
	hits: number;
}

export interface FailureRule extends FaultRule {
	status: number;
}

export interface FaultSettings {
	seed: number;
	latencyMs: number;
	/** When set, each answer's latency is drawn between latencyMs and this. */
	latencyMaxMs: number | null;
	/** The Retry-After of 429 and 503 answers, in seconds (fractions allowed for fast tests). */
	retryAfterSeconds: number;
	/** Requests per second per key beyond which 429 RATE_LIMITED is answered (the clock's seconds). */
	rateLimitPerSecond: number | null;
	/** More limits per key, each counted on its own (rateLimits.ts); all must have room. */
	rateLimits: RateLimitRule[];
	/** Announce the budget on each limited answer: `RateLimit-*` (IETF draft) or `X-RateLimit-*`. */
	rateLimitHeaders: 'ietf' | 'x' | null;
	/** The budget's reset as seconds from now or as epoch seconds (null: ietf seconds, x epoch). */
	rateLimitReset: 'seconds' | 'epoch' | null;
	/** A 429's Retry-After: seconds to the millisecond, whole seconds rounded up, or an HTTP date. */
	retryAfterAs: 'seconds' | 'whole-seconds' | 'date';
	/**
	 * A service with a capacity: `slots` requests are served at once (each for the latency);
	 * more wait in line, so their latency grows with the queue; beyond `maxInFlight` requests
	 * in flight (serving and waiting) it answers 503 SERVICE_UNAVAILABLE with Retry-After.
	 */
	capacity: { slots: number; maxInFlight: number } | null;
	failures: FailureRule[];
	connectionReset: FaultRule | null;
	malformedJson: FaultRule | null;
	timeout: FaultRule | null;
}

/** A limit of `limit` requests per key per window. */
export interface RateLimitRule {
	limit: number;
	/** The window's length: a second, a minute, an hour, or a number of seconds. */
	per: 'second' | 'minute' | 'hour' | number;
	/**
	 * `clock`: fixed windows on the clock's whole windows; `first-request`: a fixed window from
	 * the first request after the last one ended; `sliding`: the last window's length up to now.
	 */
	window: 'clock' | 'first-request' | 'sliding';
}

/** What POST /__sandbox/faults and the start options take (every field optional). */
export type FaultInput = Partial<Omit<FaultSettings, 'failures' | 'rateLimits'>> & {
	failures?: Array<Omit<FailureRule, 'hits'>>;
	rateLimits?: Array<Omit<RateLimitRule, 'window'> & { window?: RateLimitRule['window'] }>;
};

export interface EstampTiming {
	/** Delay before the provider accepts the purchase (queued -> pending). */
	acceptAfterMs: number;
	/** Delay from pending to the outcome; null = stay pending until a status check. */
	completeAfterMs: number | null;
	/** Delay before a queued manual check runs. */
	checkAfterMs: number;
}

export interface WebhookRetryPolicy {
	attempts: number;
	backoffMs: number;
	timeoutMs: number;
}

export interface CreditTransaction {
	id: string;
	workspace: WorkspaceRef;
	type: string;
	amount: number;
	balanceAfter: number;
	reason: string;
	description: string;
	envelopeId: string | null;
	signatureMethod: string | null;
	source: string;
	createdAt: string;
}

export { DOWNLOAD_EXPIRES_IN, MAX_FILE_SIZE, UPLOAD_EXPIRES_IN };
/** Starting balances after start and after reset. */
export const INITIAL_CREDITS = { personal: 25, organization: 100 };

export function defaultFaults(): FaultSettings {
	return {
		seed: 1,
		latencyMs: 0,
		latencyMaxMs: null,
		retryAfterSeconds: 1,
		rateLimitPerSecond: null,
		rateLimits: [],
		rateLimitHeaders: null,
		rateLimitReset: null,
		retryAfterAs: 'seconds',
		capacity: null,
		failures: [],
		connectionReset: null,
		malformedJson: null,
		timeout: null,
	};
}

export function defaultEstampTiming(): EstampTiming {
	return { acceptAfterMs: 30, completeAfterMs: 30, checkAfterMs: 10 };
}

export function workspaceKey(ws: WorkspaceRef): string {
	return `${ws.type}:${ws.id}`;
}

export function sameWorkspace(a: WorkspaceRef, b: WorkspaceRef): boolean {
	return a.type === b.type && a.id === b.id;
}

/** mulberry32: small seeded generator so fault tests are reproducible. */
function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class SandboxState {
	/** Set by the server once it listens, e.g. `http://127.0.0.1:4567`. */
	origin = '';
	readonly webhookSecret: string;
	/** The variant mode (variant.ts); kept by reset, changed by POST /__sandbox/variant. */
	variant: boolean;
	readonly personalWorkspace: WorkspaceRef = { type: 'personal', id: 'usr_sandbox' };
	readonly organizationWorkspace: WorkspaceRef = { type: 'organization', id: 'org_sandbox' };

	/** Keys survive reset so a client keeps working; minted keys are dropped on reset. */
	keys = new Map<string, ApiKeyRecord>();
	readonly apiKey: ApiKeyRecord;
	readonly orgApiKey: ApiKeyRecord;
	readonly disabledApiKey: ApiKeyRecord;

	clockOffsetMs = 0;
	private seq = 0;

	/** Credit balances by workspaceKey(): the personal balance or the organization wallet. */
	credits = new Map<string, number>();
	/** Credit transactions, oldest first; sends append `consume` rows; the credits routes list them. */
	creditTransactions: CreditTransaction[] = [];

	envelopes = new Map<string, EnvelopeRecord>();
	storage = new Map<string, StoredObject>();
	uploads = new Map<string, UploadGrant>();
	downloads = new Map<string, DownloadGrant>();
	requestLog: RequestLogEntry[] = [];
	webhooks: WebhookSubscription[] = [];
	events: WebhookEvent[] = [];
	deliveries: WebhookDelivery[] = [];
	webhookRetry: WebhookRetryPolicy = { attempts: 4, backoffMs: 50, timeoutMs: 2000 };
	faults: FaultSettings = defaultFaults();
	/** The faults set at start (startSandbox / the CLI); a reset returns to them. */
	startFaults: FaultInput = {};
	random: () => number = seededRandom(1);
	estampTiming: EstampTiming = defaultEstampTiming();

	// ---- Filled by the template, workflow and credit routes ----
	/** Templates by id (routes/templates.ts). */
	templates = new Map<string, any>();
	/** Reusable workflow definitions by id (routes/workflows.ts). */
	workflowDefinitions = new Map<string, any>();
	/** Reusable workflow versions by id (routes/workflows.ts). */
	workflowVersions = new Map<string, any>();
	/** Reusable workflow runs by id (routes/workflows.ts). */
	workflowRuns = new Map<string, any>();

	/** Pending timers (e-stamp steps, webhook retries), cleared on reset and close. */
	private timers = new Set<NodeJS.Timeout>();
	/** Bumped on reset so work scheduled before it is dropped. */
	generation = 0;
	/** Hooks run after the clock moves (the hourly e-stamp check registers here). */
	clockListeners: Array<() => void> = [];

	constructor(opts: { webhookSecret?: string; variant?: boolean; faults?: FaultInput } = {}) {
		this.variant = opts.variant ?? false;
		this.startFaults = opts.faults ?? {};
		this.webhookSecret = opts.webhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`;
		this.apiKey = this.createKey(this.personalWorkspace);
		this.orgApiKey = this.createKey(this.organizationWorkspace);
		this.disabledApiKey = this.createKey(this.personalWorkspace, { disabled: true });
		this.resetData();
	}

	/** Sandbox time in ms: real time plus every advance. */
	nowMs(): number {
		return Date.now() + this.clockOffsetMs;
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	nowIso(): string {
		return this.now().toISOString();
	}

	advanceClock(seconds: number): void {
		this.clockOffsetMs += seconds * 1000;
		for (const listener of this.clockListeners) listener();
	}

	/** Opaque id such as `env_0001a1b2c3d4`. */
	newId(prefix: string): string {
		this.seq += 1;
		return `${prefix}_${this.seq.toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
	}

	newToken(): string {
		return randomBytes(18).toString('base64url');
	}

	createKey(
		workspace: WorkspaceRef,
		opts: { scopes?: string[]; disabled?: boolean } = {},
	): ApiKeyRecord {
		const key: ApiKeyRecord = {
			id: this.newId('key'),
			secret: `service_${randomBytes(20).toString('hex')}`,
			workspace,
			scopes: opts.scopes ? [...opts.scopes] : [...ALL_SCOPES],
			disabled: opts.disabled ?? false,
			createdAt: new Date().toISOString(),
		};
		this.keys.set(key.secret, key);
		return key;
	}

	findKey(secret: string): ApiKeyRecord | undefined {
		return this.keys.get(secret);
	}

	workspaceOf(type: WorkspaceType): WorkspaceRef {
		return type === 'organization' ? this.organizationWorkspace : this.personalWorkspace;
	}

	balance(ws: WorkspaceRef): number {
		return this.credits.get(workspaceKey(ws)) ?? 0;
	}

	setBalance(ws: WorkspaceRef, balance: number): void {
		this.credits.set(workspaceKey(ws), balance);
	}

	/** Takes credits and records a transaction; the caller checked the balance. */
	consumeCredits(
		ws: WorkspaceRef,
		amount: number,
		info: {
			reason: string;
			description: string;
			envelopeId: string | null;
			signatureMethod: string | null;
			source?: string;
		},
	): CreditTransaction {
		const balanceAfter = this.balance(ws) - amount;
		this.setBalance(ws, balanceAfter);
		const tx: CreditTransaction = {
			id: this.newId('txn'),
			workspace: ws,
			type: 'consume',
			amount,
			balanceAfter,
			reason: info.reason,
			description: info.description,
			envelopeId: info.envelopeId,
			signatureMethod: info.signatureMethod,
			source: info.source ?? 'api',
			createdAt: this.nowIso(),
		};
		this.creditTransactions.push(tx);
		return tx;
	}

	setFaults(input: FaultInput): void {
		const rule = (r: any): FaultRule | null =>
			r ? { rate: r.rate ?? 1, path: r.path, count: r.count, hits: 0 } : null;
		this.faults = {
			seed: input.seed ?? 1,
			latencyMs: input.latencyMs ?? 0,
			latencyMaxMs: input.latencyMaxMs ?? null,
			retryAfterSeconds: input.retryAfterSeconds ?? 1,
			rateLimitPerSecond: input.rateLimitPerSecond ?? null,
			rateLimits: (input.rateLimits ?? []).map((r) => ({ ...r, window: r.window ?? 'clock' })),
			rateLimitHeaders: input.rateLimitHeaders ?? null,
			rateLimitReset: input.rateLimitReset ?? null,
			retryAfterAs: input.retryAfterAs ?? 'seconds',
			capacity: input.capacity ?? null,
			failures: (input.failures ?? []).map((f) => ({
				...(rule(f) as FaultRule),
				status: f.status,
			})),
			connectionReset: rule(input.connectionReset),
			malformedJson: rule(input.malformedJson),
			timeout: rule(input.timeout),
		};
		this.random = seededRandom(this.faults.seed);
	}

	/** Run fn after ms unless the state is reset or closed first. */
	schedule(fn: () => void, ms: number): void {
		const gen = this.generation;
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				if (gen === this.generation) fn();
			},
			Math.max(0, ms),
		);
		this.timers.add(timer);
	}

	clearTimers(): void {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
	}

	/** Back to a fresh service: same origin, secret, mode and built-in keys; everything else empty. */
	reset(): void {
		this.generation += 1;
		this.clearTimers();
		this.clockOffsetMs = 0;
		for (const [secret, key] of this.keys) {
			if (key !== this.apiKey && key !== this.orgApiKey && key !== this.disabledApiKey) {
				this.keys.delete(secret);
			}
		}
		this.resetData();
	}

	private resetData(): void {
		this.credits = new Map();
		this.setBalance(this.personalWorkspace, INITIAL_CREDITS.personal);
		this.setBalance(this.organizationWorkspace, INITIAL_CREDITS.organization);
		this.creditTransactions = [];
		this.envelopes = new Map();
		this.storage = new Map();
		this.uploads = new Map();
		this.downloads = new Map();
		this.requestLog = [];
		this.webhooks = [];
		this.events = [];
		this.deliveries = [];
		this.webhookRetry = { attempts: 4, backoffMs: 50, timeoutMs: 2000 };
		this.setFaults(this.startFaults);
		this.estampTiming = defaultEstampTiming();
		this.templates = new Map();
		this.workflowDefinitions = new Map();
		this.workflowVersions = new Map();
		this.workflowRuns = new Map();
	}
}

// The envelope rules shared by envelope, template and workflow routes live in envelopes.ts.
export { createEnvelopeRecord, createUploadGrant, findEnvelope, sendEnvelope } from './envelopes';
