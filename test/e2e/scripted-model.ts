/* eslint-disable @typescript-eslint/no-explicit-any, @n8n/community-nodes/no-restricted-imports -- local tooling: a stand-in chat model for the e2e run, not published (package.json "files" is dist/ only) */
/**
 * A scripted chat model on 127.0.0.1 speaking the part of the OpenAI API that n8n's OpenAI
 * Chat Model node uses (through LangChain's ChatOpenAI and the `openai` client):
 * `POST /v1/chat/completions`, answered whole or as server-sent events when the request asks
 * for `stream: true`, and `GET /v1/models` (the node's model list in the editor).
 *
 * Nothing is generated: each conversation follows a script. A conversation is recognised by
 * a `[scenario:<name>]` tag in its messages (the agent's prompt carries it); its turn is the
 * number of assistant messages already in the request, so turn 0 is the first answer, turn 1
 * the answer after the first tool results, and so on. Every request is recorded, so a test
 * reads the `role: "tool"` messages: the tool results exactly as the model received them.
 * A request no script covers gets 400 with the reason (the agent then fails visibly).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

/** One answer of the model: tool calls (arguments as an object, or a raw string as a model may send), or a final text. */
export type ScriptedTurn =
	| { toolCalls: Array<{ name: string; arguments: Record<string, unknown> | string }> }
	| { text: string };

export interface ChatMessage {
	role: string;
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
}

export interface RecordedRequest {
	method: string;
	path: string;
	scenario?: string;
	turn?: number;
	stream?: boolean;
	/** The tool names offered to the model in this request. */
	tools?: string[];
	/** The JSON schema of each offered tool's arguments, by tool name. */
	toolSchemas?: Record<
		string,
		{ properties?: Record<string, { type?: unknown }>; required?: string[] }
	>;
	messages?: ChatMessage[];
	/** The raw request body as received, byte for byte. */
	raw: string;
}

const MODEL_ID = 'scripted-model';

export const textOfMessage = (message: ChatMessage): string =>
	typeof message.content === 'string'
		? message.content
		: (message.content ?? []).map((part) => part.text ?? '').join('');

export class ScriptedModel {
	readonly requests: RecordedRequest[] = [];
	private readonly scripts = new Map<string, ScriptedTurn[]>();
	private server?: Server;
	private calls = 0;

	/** Sets (or replaces) the script of a scenario. */
	script(scenario: string, turns: ScriptedTurn[]): void {
		this.scripts.set(scenario, turns);
	}

	/** Listens on a free port of 127.0.0.1; resolves with the base URL (`http://127.0.0.1:<port>/v1`). */
	async start(): Promise<string> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	/** The chat-completion requests of a scenario, in order. */
	conversation(scenario: string): RecordedRequest[] {
		return this.requests.filter((r) => r.scenario === scenario);
	}

	/** The tool results the model received in a scenario: each `role: "tool"` message of its last request. */
	toolResults(scenario: string): Array<{ toolCallId: string; content: string }> {
		const last = this.conversation(scenario).at(-1);
		return (last?.messages ?? [])
			.filter((m) => m.role === 'tool')
			.map((m) => ({ toolCallId: String(m.tool_call_id), content: textOfMessage(m) }));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks).toString('utf8');
		const path = (req.url ?? '').split('?')[0];
		const record: RecordedRequest = { method: req.method ?? '', path, raw };
		this.requests.push(record);

		if (req.method === 'GET' && path.endsWith('/models')) {
			return json(res, 200, {
				object: 'list',
				data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'local' }],
			});
		}
		if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
			return json(res, 404, {
				error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' },
			});
		}
		let body: {
			messages?: ChatMessage[];
			stream?: boolean;
			tools?: Array<{ function?: { name?: string; parameters?: any } }>;
			model?: string;
		};
		try {
			body = JSON.parse(raw);
		} catch {
			return json(res, 400, {
				error: { message: 'the body is not JSON', type: 'invalid_request_error' },
			});
		}
		const messages = body.messages ?? [];
		record.messages = messages;
		record.stream = body.stream === true;
		record.tools = (body.tools ?? []).map((t) => String(t.function?.name));
		record.toolSchemas = Object.fromEntries(
			(body.tools ?? []).map((t) => [String(t.function?.name), t.function?.parameters ?? {}]),
		);
		const tag = messages
			.map(textOfMessage)
			.join('\n')
			.match(/\[scenario:([\w-]+)\]/);
		record.scenario = tag?.[1];
		record.turn = messages.filter((m) => m.role === 'assistant').length;
		const turn = tag ? this.scripts.get(tag[1])?.[record.turn] : undefined;
		if (!turn) {
			const reason = tag
				? `scenario "${tag[1]}" has no turn ${record.turn}`
				: 'no [scenario:<name>] tag in the messages';
			return json(res, 400, {
				error: { message: `scripted model: ${reason}`, type: 'invalid_request_error' },
			});
		}

		const id = `chatcmpl-scripted-${++this.calls}`;
		const message =
			'text' in turn
				? { role: 'assistant', content: turn.text }
				: {
						role: 'assistant',
						content: null,
						tool_calls: turn.toolCalls.map((call, index) => ({
							id: `call_${record.scenario}_${record.turn}_${index}`,
							type: 'function',
							function: {
								name: call.name,
								arguments:
									typeof call.arguments === 'string'
										? call.arguments
										: JSON.stringify(call.arguments),
							},
						})),
					};
		const finish = 'text' in turn ? 'stop' : 'tool_calls';
		const usage = {
			prompt_tokens: Math.ceil(raw.length / 4),
			completion_tokens: 10,
			total_tokens: Math.ceil(raw.length / 4) + 10,
		};
		const base = { id, created: Math.floor(Date.now() / 1000), model: body.model ?? MODEL_ID };
		if (!record.stream) {
			return json(res, 200, {
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
				usage,
			});
		}
		// Streamed: the whole message in one delta (tool calls with their index), then the finish, the usage and [DONE].
		res.writeHead(200, {
			'content-type': 'text/event-stream',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
		const delta =
			'tool_calls' in message
				? { ...message, tool_calls: message.tool_calls!.map((call, index) => ({ index, ...call })) }
				: message;
		event({
			...base,
			object: 'chat.completion.chunk',
			choices: [{ index: 0, delta, finish_reason: null }],
		});
		event({
			...base,
			object: 'chat.completion.chunk',
			choices: [{ index: 0, delta: {}, finish_reason: finish }],
		});
		event({ ...base, object: 'chat.completion.chunk', choices: [], usage });
		res.end('data: [DONE]\n\n');
	}
}

function json(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
