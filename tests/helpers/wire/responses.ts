// Test helper: the OpenAI Responses dialect of the wire server (POST /v1/responses, streamed SSE:
// response.created, response.output_item.added/done for message and function_call items with their
// text and argument deltas, response.completed with usage), billed like OpenAI's automatic prompt
// cache (the common prefix with the previous request of the same `prompt_cache_key`, in 128-token
// steps from 1,024 tokens), and the request rules the Responses API enforces (`responsesProblems`).

import {
	type Dialect,
	type IdSource,
	MESSAGE_FRAMING_TOKENS,
	type PromptBill,
	type ScriptedReply,
	sse,
	tokensOf,
	type WireRequest,
} from "./server.ts";

type Json = Record<string, unknown>;

/** The text of one input item a tokenizer reads. */
function itemText(item: Json): string {
	if (item.type === "function_call") return String(item.name ?? "") + String(item.arguments ?? "");
	if (item.type === "function_call_output") return String(item.output ?? "");
	const content = item.content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return JSON.stringify(item);
	return (content as Json[]).map((c) => String(c.text ?? "")).join("");
}

/** Prompt tokens per input item (the tools counted with the first). */
function itemTokens(body: Json): number[] {
	const input = (body.input as Json[] | undefined) ?? [];
	const tools = tokensOf(JSON.stringify(body.tools ?? []));
	return input.map((item, i) => tokensOf(itemText(item)) + MESSAGE_FRAMING_TOKENS + (i === 0 ? tools : 0));
}

function bill(request: WireRequest, earlier: readonly WireRequest[]): PromptBill {
	const tokens = itemTokens(request.body);
	const total = tokens.reduce((a, b) => a + b, 0);
	const key = request.body.prompt_cache_key;
	const previous = [...earlier].reverse().find((r) => key !== undefined && r.body.prompt_cache_key === key);
	if (!previous) return { total, cacheRead: 0, cacheWrite: 0 };
	const a = (previous.body.input as unknown[]).map((x) => JSON.stringify(x));
	const b = (request.body.input as unknown[]).map((x) => JSON.stringify(x));
	let common = 0;
	let same = JSON.stringify(previous.body.tools) === JSON.stringify(request.body.tools);
	for (let i = 0; same && i < a.length && i < b.length && a[i] === b[i]; i++) common += tokens[i] ?? 0;
	same = common >= 1024;
	return { total, cacheRead: same ? Math.floor(common / 128) * 128 : 0, cacheWrite: 0 };
}

function stream(reply: ScriptedReply, billed: PromptBill, outputTokens: number, ids: IdSource, model: string): string {
	const id = ids.next("resp_");
	let out = sse(
		{ type: "response.created", response: { id, status: "in_progress", model, output: [] } },
		"response.created",
	);
	const items: Json[] = [];
	const add = (item: Json, deltas: Json[], done: Json): void => {
		const output_index = items.length;
		out += sse({ type: "response.output_item.added", output_index, item }, "response.output_item.added");
		for (const d of deltas) out += sse({ ...d, output_index }, String(d.type));
		out += sse({ type: "response.output_item.done", output_index, item: done }, "response.output_item.done");
		items.push(done);
	};
	if (reply.text) {
		const msgId = ids.next("msg_");
		const base = { type: "message", id: msgId, role: "assistant" };
		add({ ...base, status: "in_progress", content: [] }, [{ type: "response.output_text.delta", delta: reply.text }], {
			...base,
			status: "completed",
			content: [{ type: "output_text", text: reply.text, annotations: [] }],
		});
	}
	for (const call of reply.calls ?? []) {
		const base = { type: "function_call", id: ids.next("fc_"), call_id: ids.next("call_"), name: call.name };
		const args = JSON.stringify(call.args);
		add(
			{ ...base, arguments: "", status: "in_progress" },
			[{ type: "response.function_call_arguments.delta", delta: args }],
			{
				...base,
				arguments: args,
				status: "completed",
			},
		);
	}
	const usage = {
		input_tokens: billed.total,
		input_tokens_details: { cached_tokens: billed.cacheRead },
		output_tokens: outputTokens,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: billed.total + outputTokens,
	};
	const response = { id, status: "completed", model, output: items, usage };
	return out + sse({ type: "response.completed", response }, "response.completed");
}

/** The OpenAI Responses dialect; `model` is echoed in the response. */
export function responsesDialect(model: string): Dialect {
	return {
		api: "openai-responses",
		paths: ["/v1/responses"],
		hasTools: (body) => Array.isArray(body.tools) && body.tools.length > 0,
		bill,
		stream: (reply, billed, outputTokens, ids) => stream(reply, billed, outputTokens, ids, model),
	};
}

function itemProblems(item: Json, i: number): string[] {
	if (item.type === "function_call") {
		const bad = item.id !== undefined && !String(item.id).startsWith("fc_");
		return bad ? [`item ${i}: function_call id ${String(item.id)} does not start with fc_`] : [];
	}
	if (item.type === "function_call_output")
		return String(item.output ?? "") === "" ? [`item ${i}: empty function_call_output`] : [];
	const content = item.content;
	if (typeof content === "string") return content.trim() === "" ? [`item ${i}: empty content`] : [];
	if (!Array.isArray(content) || content.length === 0) return [`item ${i}: empty content`];
	return (content as Json[]).some((c) => String(c.text ?? "").trim() === "") ? [`item ${i}: empty text part`] : [];
}

/** Every rule of the Responses API this request breaks (empty: valid). */
export function responsesProblems(body: Json): string[] {
	const input = (body.input as Json[] | undefined) ?? [];
	const problems: string[] = [];
	const first = input.find((item) => item.role !== "developer" && item.role !== "system");
	if (first?.role !== "user") problems.push(`first conversation item is ${JSON.stringify(first?.role ?? first?.type)}`);
	const calls = new Set<unknown>();
	const answered = new Set<unknown>();
	input.forEach((item, i) => {
		problems.push(...itemProblems(item, i));
		if (item.type === "function_call") calls.add(item.call_id);
		if (item.type === "function_call_output") {
			if (!calls.has(item.call_id))
				problems.push(`item ${i}: output for ${String(item.call_id)} precedes or lacks its call`);
			answered.add(item.call_id);
		}
	});
	for (const id of calls) if (!answered.has(id)) problems.push(`call ${String(id)} has no output`);
	return problems;
}
