// Test helper: what a model reads off the wire, per API, to name things back to pi-fold: the tool
// calls it made (id as the API shows it, name, arguments), the fold handles placeholders carry, and
// the text a tool result delivered. Scripted steps use these so every id the tests send is one a
// real model could have seen. Pure over recorded bodies.

import { contentBlocks } from "./lookback.ts";
import type { WireApi } from "./session.ts";

type Json = Record<string, unknown>;

/** A tool call as the wire shows it. */
export interface WireCall {
	readonly id: string;
	readonly name: string;
	readonly args: Record<string, unknown>;
}

function parse(text: unknown): Record<string, unknown> {
	try {
		return JSON.parse(String(text)) as Record<string, unknown>;
	} catch {
		return {};
	}
}

/** Every tool call in the body, in order, with the id the model sees (Responses: `call_id`). */
export function callsOnWire(api: WireApi, body: Json): WireCall[] {
	const out: WireCall[] = [];
	if (api === "anthropic-messages") {
		for (const m of (body.messages as Json[] | undefined) ?? [])
			for (const b of contentBlocks(m.content))
				if (b.type === "tool_use") out.push({ id: String(b.id), name: String(b.name), args: (b.input as Json) ?? {} });
	} else if (api === "openai-responses") {
		for (const item of (body.input as Json[] | undefined) ?? [])
			if (item.type === "function_call")
				out.push({ id: String(item.call_id), name: String(item.name), args: parse(item.arguments) });
	} else {
		for (const m of (body.messages as Json[] | undefined) ?? [])
			for (const c of (m.tool_calls as Json[] | undefined) ?? []) {
				const fn = (c.function as Json | undefined) ?? {};
				out.push({ id: String(c.id), name: String(fn.name), args: parse(fn.arguments) });
			}
	}
	return out;
}

/** Calls to `probe` whose key starts with `prefix`. */
export function probeCalls(api: WireApi, body: Json, prefix: string): WireCall[] {
	return callsOnWire(api, body).filter((c) => c.name === "probe" && String(c.args.key ?? "").startsWith(prefix));
}

/** Fold handles the placeholders in a raw body show, in order of first appearance. */
export function foldHandles(raw: string): string[] {
	const ids = [...raw.matchAll(/fold (f[0-9a-f]{16}) ·/g)].map((m) => m[1] as string);
	return [...new Set(ids)];
}

/** The handle of the placeholder whose brief is `brief`, read off a raw body ("" when none shows it). */
export function handleWithBrief(raw: string, brief: string): string {
	const escaped = JSON.stringify(brief)
		.slice(1, -1)
		.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return raw.match(new RegExp(`fold (f[0-9a-f]{16}) ·[^\\]]*\\]\\\\n${escaped}\\\\n`))?.[1] ?? "";
}

/** The text the result of call `id` delivered, as the wire shows it (undefined when absent). */
export function resultText(api: WireApi, body: Json, id: string): string | undefined {
	if (api === "anthropic-messages") {
		for (const m of (body.messages as Json[] | undefined) ?? [])
			for (const b of contentBlocks(m.content))
				if (b.type === "tool_result" && b.tool_use_id === id)
					return contentBlocks(b.content)
						.map((c) => String(c.text ?? ""))
						.join("");
		return undefined;
	}
	if (api === "openai-responses") {
		const item = ((body.input as Json[] | undefined) ?? []).find(
			(i) => i.type === "function_call_output" && i.call_id === id,
		);
		return item === undefined ? undefined : String(item.output);
	}
	const message = ((body.messages as Json[] | undefined) ?? []).find((m) => m.role === "tool" && m.tool_call_id === id);
	if (message === undefined) return undefined;
	const content = message.content;
	return typeof content === "string"
		? content
		: contentBlocks(content)
				.map((c) => String(c.text ?? ""))
				.join("");
}
