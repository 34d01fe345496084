// Test helper: the OpenAI Chat Completions dialect of the wire server, as a custom provider would
// serve it (POST /v1/chat/completions, streamed `chat.completion.chunk`s with text and tool_call
// deltas, a finish_reason, a final usage chunk, `[DONE]`), with no prompt cache (a host other than
// OpenAI's gets no cache key), and the request rules the API enforces (`chatProblems`).

import {
	type Dialect,
	type IdSource,
	MESSAGE_FRAMING_TOKENS,
	type PromptBill,
	type ScriptedReply,
	sse,
	tokensOf,
} from "./server.ts";

type Json = Record<string, unknown>;

/** The text of one message a tokenizer reads. */
function messageText(message: Json): string {
	const content = message.content;
	let text = "";
	if (typeof content === "string") text += content;
	else if (Array.isArray(content)) for (const c of content as Json[]) text += String(c.text ?? "");
	for (const call of (message.tool_calls as Json[] | undefined) ?? []) {
		const fn = call.function as Json | undefined;
		text += String(fn?.name ?? "") + String(fn?.arguments ?? "");
	}
	return text;
}

function bill(request: { body: Json }): PromptBill {
	const messages = (request.body.messages as Json[] | undefined) ?? [];
	const tools = tokensOf(JSON.stringify(request.body.tools ?? []));
	const total = messages.reduce((n, m) => n + tokensOf(messageText(m)) + MESSAGE_FRAMING_TOKENS, tools);
	return { total, cacheRead: 0, cacheWrite: 0 };
}

function chunk(id: string, model: string, delta: Json, finish: string | null): string {
	return sse({
		id,
		object: "chat.completion.chunk",
		created: 0,
		model,
		choices: [{ index: 0, delta, finish_reason: finish }],
	});
}

function stream(reply: ScriptedReply, billed: PromptBill, outputTokens: number, ids: IdSource, model: string): string {
	const id = ids.next("chatcmpl-");
	let out = chunk(id, model, { role: "assistant", content: "" }, null);
	if (reply.text) out += chunk(id, model, { content: reply.text }, null);
	(reply.calls ?? []).forEach((call, index) => {
		const fn = { name: call.name, arguments: JSON.stringify(call.args) };
		out += chunk(id, model, { tool_calls: [{ index, id: ids.next("call_"), type: "function", function: fn }] }, null);
	});
	out += chunk(id, model, {}, (reply.calls?.length ?? 0) > 0 ? "tool_calls" : "stop");
	const usage = {
		prompt_tokens: billed.total,
		completion_tokens: outputTokens,
		total_tokens: billed.total + outputTokens,
		prompt_tokens_details: { cached_tokens: billed.cacheRead },
	};
	out += sse({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage });
	return `${out}data: [DONE]\n\n`;
}

/** The Chat Completions dialect; `model` is echoed in every chunk. */
export function chatDialect(model: string): Dialect {
	return {
		api: "openai-completions",
		paths: ["/v1/chat/completions"],
		hasTools: (body) => Array.isArray(body.tools) && body.tools.length > 0,
		bill,
		stream: (reply, billed, outputTokens, ids) => stream(reply, billed, outputTokens, ids, model),
	};
}

function emptyProblem(message: Json, i: number): string | null {
	const content = message.content;
	const hasCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
	const empty =
		content === null || content === undefined
			? true
			: typeof content === "string"
				? content.trim() === ""
				: !Array.isArray(content) || content.length === 0;
	if (empty && !(message.role === "assistant" && hasCalls))
		return `message ${i} (${String(message.role)}): empty content`;
	return null;
}

/** Every rule of the Chat Completions API this request breaks (empty: valid). */
export function chatProblems(body: Json): string[] {
	const messages = (body.messages as Json[] | undefined) ?? [];
	const problems: string[] = [];
	const first = messages.find((m) => m.role !== "system" && m.role !== "developer");
	if (first?.role !== "user") problems.push(`first conversation message is ${String(first?.role)}`);
	let pending = new Set<unknown>();
	messages.forEach((message, i) => {
		const why = emptyProblem(message, i);
		if (why) problems.push(why);
		if (message.role === "tool") {
			if (!pending.delete(message.tool_call_id))
				problems.push(`message ${i}: tool result ${String(message.tool_call_id)} answers no pending call`);
			return;
		}
		for (const id of pending) problems.push(`call ${String(id)} has no result before message ${i}`);
		pending = new Set(((message.tool_calls as Json[] | undefined) ?? []).map((c) => c.id));
	});
	for (const id of pending) problems.push(`call ${String(id)} has no result`);
	return problems;
}
