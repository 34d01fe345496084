// Test helper: a local `node:http` server that speaks just enough of one provider API (a dialect:
// anthropic.ts, responses.ts, chat.ts) for pi-ai's REAL client to run a Pi session against it. It
// records every request body byte for byte, answers each agent request (one that declares tools)
// with the next scripted reply streamed as that API's SSE, answers side requests (no tools: the
// session model writing a brief) with a fixed brief, and bills usage: prompt tokens counted by
// pi-fold's Wasm estimator (an o200k-like count standing in for the provider's tokenizer) plus a few
// tokens of framing per message, cache reads the way the dialect's provider would serve them.
// No network.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { estimateTokens } from "../../../src/wasm/index.ts";

/** One tool call the scripted model makes. */
export interface ScriptedCall {
	readonly name: string;
	readonly args: Record<string, unknown>;
}

/** What the scripted model answers: optional thinking, optional text, tool calls (none: a final reply). */
export interface ScriptedReply {
	readonly thinking?: string;
	readonly text?: string;
	readonly calls?: readonly ScriptedCall[];
}

/** A scripted step: a fixed reply, or one computed from the request it answers (ids read off the wire). */
export type Step = ScriptedReply | ((request: WireRequest) => ScriptedReply);

/** How the dialect's provider bills one request's prompt. */
export interface PromptBill {
	/** Prompt tokens, as the provider's tokenizer counts them (`tokensOf`). */
	readonly total: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** One request as it reached the server. */
export interface WireRequest {
	readonly index: number;
	readonly path: string;
	/** The body exactly as sent. */
	readonly raw: string;
	readonly body: Record<string, unknown>;
	/** True for agent requests (the body declares tools); false for side requests (briefs). */
	readonly agent: boolean;
	/** Filled in when the reply is sent. */
	bill?: PromptBill;
	reply?: ScriptedReply;
}

/** Fresh ids for the calls and items of one reply. */
export interface IdSource {
	next(prefix: string): string;
}

/** What one API needs to be spoken: paths, billing, and the SSE stream of a reply. */
export interface Dialect {
	readonly api: "anthropic-messages" | "openai-responses" | "openai-completions";
	/** Request paths this dialect answers (query strings ignored). */
	readonly paths: readonly string[];
	/** Whether the body declares tools (an agent request). */
	hasTools(body: Record<string, unknown>): boolean;
	/** Bills `request` given every earlier request (cache simulation). */
	bill(request: WireRequest, earlier: readonly WireRequest[]): PromptBill;
	/** The full SSE response body streaming `reply`. */
	stream(reply: ScriptedReply, bill: PromptBill, outputTokens: number, ids: IdSource): string;
}

export interface WireServer {
	/** http://127.0.0.1:<port> */
	readonly origin: string;
	readonly requests: WireRequest[];
	/** Agent requests only, in order. */
	agentRequests(): WireRequest[];
	script(steps: readonly Step[]): void;
	/** Scripted steps not yet consumed. */
	pending(): number;
	close(): Promise<void>;
}

/** The brief a side request (the session model writing a chapter brief) gets. */
export const SIDE_REPLY = "Brief: the span read probe files and handed in its findings.";

/** Framing tokens a provider adds around each message (role, separators). */
export const MESSAGE_FRAMING_TOKENS = 4;

/** The fake provider's tokenizer: pi-fold's o200k-like Wasm estimate of `text`. */
export function tokensOf(text: string): number {
	return text.length === 0 ? 0 : estimateTokens(text);
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

function replyTokens(reply: ScriptedReply): number {
	const calls = (reply.calls ?? []).reduce((n, c) => n + tokensOf(c.name + JSON.stringify(c.args)), 0);
	return tokensOf(reply.thinking ?? "") + tokensOf(reply.text ?? "") + calls;
}

function fail(res: ServerResponse, status: number, message: string): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }));
}

/** Starts a server speaking `dialect` on 127.0.0.1 (an ephemeral port). */
export async function startWireServer(dialect: Dialect): Promise<WireServer> {
	const requests: WireRequest[] = [];
	const steps: Step[] = [];
	let counter = 0;
	const ids: IdSource = { next: (prefix) => `${prefix}${(++counter).toString(36).padStart(6, "0")}` };
	const server: Server = createServer((req, res) => {
		void (async () => {
			const raw = await readBody(req);
			const path = (req.url ?? "").split("?")[0] ?? "";
			if (req.method !== "POST" || !dialect.paths.includes(path)) return fail(res, 404, `no route ${path}`);
			const body = JSON.parse(raw) as Record<string, unknown>;
			const request: WireRequest = { index: requests.length, path, raw, body, agent: dialect.hasTools(body) };
			requests.push(request);
			let reply: ScriptedReply;
			if (!request.agent) reply = { text: SIDE_REPLY };
			else {
				const step = steps.shift();
				if (!step) return fail(res, 400, "script exhausted");
				reply = typeof step === "function" ? step(request) : step;
			}
			request.reply = reply;
			request.bill = dialect.bill(request, requests.slice(0, -1));
			const sse = dialect.stream(reply, request.bill, replyTokens(reply), ids);
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			res.end(sse);
		})().catch((error: unknown) => fail(res, 500, String(error)));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		agentRequests: () => requests.filter((r) => r.agent),
		script(more) {
			steps.push(...more);
		},
		pending: () => steps.length,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** One SSE event: an optional `event:` line and one `data:` line. */
export function sse(data: unknown, event?: string): string {
	return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
