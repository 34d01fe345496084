// Test helper: the Anthropic Messages dialect of the wire server (POST /v1/messages, streamed SSE:
// message_start, content_block_start/delta/stop for thinking, text and tool_use blocks,
// message_delta, message_stop), billed by the lookback evaluator (lookback.ts) so the usage pi-ai
// reads is what a real Anthropic cache would serve, and the request rules Anthropic enforces
// (`anthropicProblems`): first message a user message, no empty content, every tool_use answered by
// a tool_result first in the next user turn (consecutive same-role turns merged, as Anthropic does),
// at most four breakpoints, and a thinking budget below max_tokens.

import { contentBlocks, serveOne } from "./lookback.ts";
import { type Dialect, type IdSource, type PromptBill, type ScriptedReply, sse } from "./server.ts";

type Json = Record<string, unknown>;

/** Bills each request as a real Anthropic cache would serve it (one cache per dialect instance). */
function biller(): Dialect["bill"] {
	const cache = new Set<string>();
	return (request) => {
		const served = serveOne(request.body, cache);
		return { total: served.totalTokens, cacheRead: served.readTokens, cacheWrite: served.writeTokens };
	};
}

function blockEvents(index: number, start: Json, deltas: Json[]): string {
	let out = sse({ type: "content_block_start", index, content_block: start }, "content_block_start");
	for (const delta of deltas) out += sse({ type: "content_block_delta", index, delta }, "content_block_delta");
	return out + sse({ type: "content_block_stop", index }, "content_block_stop");
}

function stream(reply: ScriptedReply, billed: PromptBill, outputTokens: number, ids: IdSource, model: string): string {
	const usage = {
		input_tokens: billed.total - billed.cacheRead - billed.cacheWrite,
		output_tokens: 1,
		cache_read_input_tokens: billed.cacheRead,
		cache_creation_input_tokens: billed.cacheWrite,
	};
	const message = { id: ids.next("msg_"), type: "message", role: "assistant", model, content: [], usage };
	let out = sse({ type: "message_start", message }, "message_start");
	let index = 0;
	if (reply.thinking)
		out += blockEvents(index++, { type: "thinking", thinking: "", signature: "" }, [
			{ type: "thinking_delta", thinking: reply.thinking },
			{ type: "signature_delta", signature: `sig-${ids.next("")}` },
		]);
	if (reply.text) out += blockEvents(index++, { type: "text", text: "" }, [{ type: "text_delta", text: reply.text }]);
	for (const call of reply.calls ?? [])
		out += blockEvents(index++, { type: "tool_use", id: ids.next("toolu_"), name: call.name, input: {} }, [
			{ type: "input_json_delta", partial_json: JSON.stringify(call.args) },
		]);
	const stop = (reply.calls?.length ?? 0) > 0 ? "tool_use" : "end_turn";
	out += sse(
		{
			type: "message_delta",
			delta: { stop_reason: stop, stop_sequence: null },
			usage: { output_tokens: outputTokens },
		},
		"message_delta",
	);
	return out + sse({ type: "message_stop" }, "message_stop");
}

/** The Anthropic Messages dialect (one per server: it holds the cache); `model` is echoed in message_start. */
export function anthropicDialect(model: string): Dialect {
	return {
		api: "anthropic-messages",
		paths: ["/v1/messages"],
		hasTools: (body) => Array.isArray(body.tools) && body.tools.length > 0,
		bill: biller(),
		stream: (reply, billed, outputTokens, ids) => stream(reply, billed, outputTokens, ids, model),
	};
}

/** Consecutive same-role messages merged, as Anthropic does before validating. */
function mergedTurns(messages: readonly Json[]): { role: string; blocks: Json[] }[] {
	const turns: { role: string; blocks: Json[] }[] = [];
	for (const message of messages) {
		const role = String(message.role);
		const last = turns.at(-1);
		if (last && last.role === role) last.blocks.push(...contentBlocks(message.content));
		else turns.push({ role, blocks: [...contentBlocks(message.content)] });
	}
	return turns;
}

function emptiness(messages: readonly Json[]): string[] {
	const problems: string[] = [];
	messages.forEach((message, i) => {
		const content = message.content;
		if (typeof content === "string" && content.trim() === "") problems.push(`message ${i}: empty string content`);
		if (Array.isArray(content) && content.length === 0) problems.push(`message ${i}: empty content array`);
		for (const block of contentBlocks(content))
			if (block.type === "text" && String(block.text ?? "").trim() === "")
				problems.push(`message ${i}: empty text block`);
	});
	return problems;
}

function pairing(messages: readonly Json[]): string[] {
	const problems: string[] = [];
	const turns = mergedTurns(messages);
	turns.forEach((turn, t) => {
		const uses = turn.role === "assistant" ? turn.blocks.filter((b) => b.type === "tool_use").map((b) => b.id) : [];
		const next = turns[t + 1];
		if (uses.length > 0 && next) {
			const leading: unknown[] = [];
			for (const b of next.blocks) {
				if (b.type !== "tool_result") break;
				leading.push(b.tool_use_id);
			}
			if (JSON.stringify([...leading].sort()) !== JSON.stringify([...uses].sort()))
				problems.push(`turn ${t}: tool_use ${JSON.stringify(uses)} answered by ${JSON.stringify(leading)}`);
		}
		if (turn.role === "user") {
			const before = turns[t - 1];
			const asked = new Set(before?.role === "assistant" ? before.blocks.map((b) => b.id) : []);
			for (const b of turn.blocks)
				if (b.type === "tool_result" && !asked.has(b.tool_use_id))
					problems.push(`turn ${t}: tool_result ${String(b.tool_use_id)} answers no tool_use of the turn before`);
		}
	});
	return problems;
}

function limits(body: Json, messages: readonly Json[]): string[] {
	const problems: string[] = [];
	const count = (JSON.stringify(body).match(/"cache_control":/g) ?? []).length;
	if (count > 4) problems.push(`${count} cache_control breakpoints (at most 4)`);
	const maxTokens = Number(body.max_tokens);
	if (!(maxTokens >= 1)) problems.push(`max_tokens ${String(body.max_tokens)}`);
	const thinking = body.thinking as { type?: string; budget_tokens?: number } | undefined;
	if (thinking?.type === "enabled") {
		const budget = Number(thinking.budget_tokens);
		if (!(budget >= 1024 && budget < maxTokens))
			problems.push(`thinking budget ${budget} must be >= 1024 and below max_tokens ${maxTokens}`);
		const lastAssistant = [...messages].reverse().find((m) => m.role === "assistant");
		const first = lastAssistant ? contentBlocks(lastAssistant.content)[0] : undefined;
		const usesTools = lastAssistant && contentBlocks(lastAssistant.content).some((b) => b.type === "tool_use");
		if (usesTools && first?.type !== "thinking")
			problems.push("thinking on: the last assistant tool-use turn must start with a thinking block");
	}
	return problems;
}

/** Every rule of the Messages API this request breaks (empty: valid). */
export function anthropicProblems(body: Json): string[] {
	const messages = (body.messages as Json[] | undefined) ?? [];
	const problems: string[] = [];
	if (messages[0]?.role !== "user") problems.push(`first message is ${String(messages[0]?.role)}, not user`);
	for (const m of messages)
		if (m.role !== "user" && m.role !== "assistant") problems.push(`message role ${String(m.role)}`);
	return [...problems, ...emptiness(messages), ...pairing(messages), ...limits(body, messages)];
}
