// The window observer on the wire: for providers whose payload Pi shows extensions
// (`before_provider_request`: every pi-ai client, not the faux provider), the body as it leaves,
// after every change pi-fold itself makes to it (the Anthropic stable-prefix breakpoint,
// anthropic-cache.ts, registers before this handler), digested part by part: one head part (the
// system prompt and the tool schemas, as the API names them) and then each message or input item.
// Prompt-cache markers (`cache_control`) are left out: pi-ai moves the last one on every request by
// design, and they are directives, not content; on the Messages API a string content is the one text
// block it stands for (pi-ai sends the last message's as a block to mark it; Anthropic caches blocks). The runtime classifies the parts (telemetry's wire
// observer): a wire rewrite on a request the window observer saw as an append is a body change no
// commit explains. Reads the payload; changes nothing.

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { withoutCacheControl } from "./anthropic-cache.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";

type Json = Record<string, unknown>;

/** The list of conversation items a payload carries (Messages and Chat: `messages`; Responses: `input`; Gemini: `contents`). */
function itemsOf(payload: Json): unknown[] | null {
	for (const key of ["messages", "input", "contents"])
		if (Array.isArray(payload[key])) return payload[key] as unknown[];
	return null;
}

/** One conversation item as a cache compares it: no cache markers; on the Messages API, string content as its text block. */
function itemPart(item: unknown, api: string | undefined): unknown {
	const clean = withoutCacheControl(item);
	if (api !== "anthropic-messages" || clean === null || typeof clean !== "object") return clean;
	const content = (clean as Json).content;
	return typeof content === "string" ? { ...(clean as Json), content: [{ type: "text", text: content }] } : clean;
}

/**
 * The parts of a provider payload the observer digests: a head part with role "system" (the system
 * prompt and the tool schemas under the names the API gives them), then every conversation item, all
 * as a cache compares them (itemPart); null when the payload has no conversation list the observer knows.
 */
export function wireParts(payload: unknown, api?: string): unknown[] | null {
	if (payload === null || typeof payload !== "object") return null;
	const body = payload as Json;
	const items = itemsOf(body);
	if (!items) return null;
	const head: Json = { role: "system" };
	for (const key of ["system", "instructions", "systemInstruction", "tools", "tool_choice", "toolConfig"])
		if (body[key] !== undefined) head[key] = withoutCacheControl(body[key]);
	return [head, ...items.map((item) => itemPart(item, api))];
}

/** Registers the `before_provider_request` handler that observes the body as it leaves. Register after every body edit of pi-fold's. */
export function registerWireObserver(pi: ExtensionAPI, fold: PiFold): void {
	pi.on("before_provider_request", (event, ctx) => {
		try {
			const parts = wireParts(event.payload, ctx.model?.api);
			if (parts) fold.runtime.telemetry.observeWire(parts);
		} catch (error) {
			notifierFor(ctx)(`before_provider_request (wire observer) failed: ${errorMessage(error)}`, "error");
		}
		return undefined;
	});
}
