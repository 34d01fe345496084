// One more prompt-cache breakpoint on Anthropic requests, at the end of the stable prefix. pi-ai's
// Anthropic client marks the system prompt, the last tool and the last message; Anthropic reads a
// cache entry only at a breakpoint or within about 20 blocks before one, so after a commit whose
// first change is not near the end only tools and system would be read, however long the unchanged
// prefix. In `before_provider_request` (anthropic-messages only) this module adds a fourth
// breakpoint (the API allows four) on the last block before the first entry the next commit could
// change (`FoldRuntime.stablePrefixEnd`, mapped onto the request's messages through Pi's
// projection), and changes nothing else in the body.
//
// Where it sits, and why requests stay byte-exact extensions: the position is chosen at the first
// request after each commit and held until the next one, so between commits every request marks the
// same block (cache_control aside, the bytes are those pi-ai built; a string content carrying the
// marker is sent as the one text block it stands for, as pi-ai does for the last message). At a
// commit it moves forward at most LOOKBACK_BLOCKS blocks past the held one, so the commit's first
// request still reaches the entry the held breakpoint wrote, and it never moves back while the held
// block is still in the unchanged prefix (a proposal that appeared since would only touch it at a
// later commit). No breakpoint is added when pi-ai's caching is off, when the body already holds
// four, or when the stable prefix cannot be matched to the request's messages.

import { convertToLlm, type ExtensionAPI, type ExtensionContext } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../common/index.ts";
import { createSha256 } from "../wasm/index.ts";
import type { PiFold } from "./host.ts";
import { notifierFor } from "./notify.ts";

/** Blocks Anthropic looks back from a breakpoint, the breakpoint's own block included (conservative). */
export const LOOKBACK_BLOCKS = 20;

/** Breakpoints the Messages API allows in one request. */
export const MAX_BREAKPOINTS = 4;

type Json = Record<string, unknown>;
type Block = Json;
interface WireMessage {
	readonly role?: unknown;
	readonly content?: unknown;
}

/** A block of the request's messages: message index, block index, and index among all message blocks. */
export interface BlockAt {
	readonly message: number;
	readonly block: number;
	readonly flat: number;
}

/** Block types Anthropic accepts `cache_control` on. */
const MARKABLE = new Set(["text", "image", "tool_use", "tool_result", "document"]);

function blocksOf(content: unknown): Block[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? (content as Block[]) : [];
}

/** Every block of `messages` in order, with its position. */
export function messageBlocks(messages: readonly WireMessage[]): (BlockAt & { readonly value: Block })[] {
	const out: (BlockAt & { value: Block })[] = [];
	messages.forEach((m, message) => {
		blocksOf(m.content).forEach((value, block) => {
			out.push({ message, block, flat: out.length, value });
		});
	});
	return out;
}

/** The signature of an LLM message the wire must show: role plus a tool id or its first text. */
function signature(message: { role?: unknown; content?: unknown; toolCallId?: unknown }): string | null {
	if (message.role === "toolResult") return `result:${String(message.toolCallId)}`;
	const blocks = blocksOf(message.content);
	if (message.role === "assistant") {
		const call = blocks.find((b) => b.type === "toolCall");
		if (call) return `use:${String(call.id)}`;
	}
	const text = blocks.find((b) => b.type === "text" && String(b.text ?? "").trim() !== "");
	return text ? `${String(message.role)}:${String(text.text)}` : null;
}

function wireHas(message: WireMessage, sig: string): boolean {
	for (const b of blocksOf(message.content)) {
		if (b.type === "tool_use" && sig === `use:${String(b.id)}`) return true;
		if (b.type === "tool_result" && sig === `result:${String(b.tool_use_id)}`) return true;
		if (b.type === "text" && sig === `${String(message.role)}:${String(b.text)}`) return true;
	}
	return false;
}

/**
 * The wire message that ends the stable prefix: `stable` are the LLM messages before the first
 * touchable one, `next` that one's messages. Aligns them in order against `wire` by tool ids and
 * texts; null when they cannot be matched, or when the first touchable message would share the
 * stable prefix's last wire message.
 */
export function stableWireEnd(
	stable: readonly { role?: unknown; content?: unknown }[],
	next: readonly { role?: unknown; content?: unknown }[],
	wire: readonly WireMessage[],
): number | null {
	let j = 0;
	let last = -1;
	for (const message of stable) {
		const sig = signature(message);
		if (sig === null) continue;
		while (j < wire.length && !wireHas(wire[j] as WireMessage, sig)) j++;
		if (j === wire.length) return null;
		last = j;
	}
	const firstNext = next.map(signature).find((s) => s !== null);
	if (firstNext) {
		let k = Math.max(j, 0);
		while (k < wire.length && !wireHas(wire[k] as WireMessage, firstNext)) k++;
		if (k === wire.length || k <= last) return null;
	}
	return last >= 0 ? last : null;
}

/** The last block of message `index` that can carry `cache_control`, or null. */
export function markableEnd(blocks: readonly (BlockAt & { value: Block })[], index: number): BlockAt | null {
	const own = blocks.filter((b) => b.message === index);
	const last = own.at(-1);
	return last && MARKABLE.has(String(last.value.type)) ? last : null;
}

/**
 * Where the breakpoint goes at a commit, given the one held so far (still in the unchanged prefix)
 * and the new target: never back, and at most LOOKBACK_BLOCKS - 1 blocks forward, so the lookback
 * from the new position still reaches the held one.
 */
export function advance(blocks: readonly (BlockAt & { value: Block })[], held: BlockAt, target: BlockAt): BlockAt {
	if (target.flat <= held.flat) return held;
	if (target.flat - held.flat < LOOKBACK_BLOCKS) return target;
	let best: BlockAt = held;
	for (const b of blocks) {
		if (b.flat <= held.flat || b.flat - held.flat >= LOOKBACK_BLOCKS) continue;
		if (MARKABLE.has(String(b.value.type))) best = b;
	}
	return best;
}

/** `value` with every `cache_control` field removed, at any depth. */
export function withoutCacheControl(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutCacheControl);
	if (value === null || typeof value !== "object") return value;
	const out: Json = {};
	for (const [k, v] of Object.entries(value as Json)) if (k !== "cache_control") out[k] = withoutCacheControl(v);
	return out;
}

/** Digest of the request up to and including block `at` (cache_control aside): equal digests, equal prefixes. */
export function prefixDigest(payload: Json, at: BlockAt): string {
	const hash = createSha256();
	hash.update(JSON.stringify(withoutCacheControl([payload.model, payload.tools, payload.system])));
	const messages = payload.messages as WireMessage[];
	for (let m = 0; m <= at.message; m++) {
		const blocks = blocksOf(messages[m]?.content);
		const upto = m === at.message ? blocks.slice(0, at.block + 1) : blocks;
		hash.update(JSON.stringify(withoutCacheControl([messages[m]?.role, upto])));
	}
	return hash.digestHex();
}

/** Breakpoints already in the body (tools, system, message blocks). */
export function breakpointCount(payload: Json): number {
	let n = 0;
	for (const t of (payload.tools as Block[] | undefined) ?? []) if (t.cache_control) n++;
	for (const b of blocksOf(payload.system)) if (b.cache_control) n++;
	for (const b of messageBlocks((payload.messages as WireMessage[]) ?? [])) if (b.value.cache_control) n++;
	return n;
}

/** pi-ai's own marker (on the last message, else the system prompt), to copy; undefined when caching is off. */
function markerOf(payload: Json): unknown {
	const messages = (payload.messages as WireMessage[]) ?? [];
	const last = blocksOf(messages.at(-1)?.content).at(-1)?.cache_control;
	return last ?? blocksOf(payload.system)[0]?.cache_control;
}

/** A copy of `payload` whose block `at` carries `marker`; nothing else differs. */
export function withBreakpoint(payload: Json, at: BlockAt, marker: unknown): Json {
	const messages = [...(payload.messages as WireMessage[])];
	const target = messages[at.message] as WireMessage;
	const blocks = blocksOf(target.content).map((b, i) => (i === at.block ? { ...b, cache_control: marker } : b));
	messages[at.message] = { ...target, content: blocks };
	return { ...payload, messages };
}

interface Held extends BlockAt {
	readonly session: string;
	readonly seq: number;
	readonly digest: string;
}

type Projected = ReturnType<ExtensionContext["sessionManager"]["buildSessionProjection"]>["entries"][number];
type Llm = { role?: unknown; content?: unknown }[];

/** The LLM messages before the first touchable entry, and those of the first entry from it that has any. */
function splitAt(ctx: ExtensionContext, entryId: string): { stable: Llm; next: Llm } | null {
	const stable: Projected["messages"] = [];
	const next: Projected["messages"] = [];
	let found = false;
	for (const entry of ctx.sessionManager.buildSessionProjection().entries) {
		const messages = entry.messages.filter((m) => m.role !== "system");
		if (entry.sourceEntry.id === entryId) found = true;
		if (!found) stable.push(...messages);
		else if (next.length === 0) next.push(...messages);
	}
	return found ? { stable: convertToLlm(stable) as Llm, next: convertToLlm(next) as Llm } : null;
}

/** Places and holds the extra breakpoint for one runtime's session. */
export class StableBreakpoint {
	private held: Held | null = null;
	private readonly fold: PiFold;

	constructor(fold: PiFold) {
		this.fold = fold;
	}

	/** The payload with the extra breakpoint, or undefined to send it as built. */
	place(payload: Json, ctx: ExtensionContext): Json | undefined {
		const wire = payload.messages;
		if (!Array.isArray(wire) || wire.length === 0) return undefined;
		const marker = markerOf(payload);
		if (marker === undefined || breakpointCount(payload) >= MAX_BREAKPOINTS) return undefined;
		const seq = this.fold.runtime.sync(this.fold.host(ctx)).commitSeq;
		const session = ctx.sessionManager.getSessionId();
		const blocks = messageBlocks(wire as WireMessage[]);
		const at = this.position(payload, ctx, blocks, { seq, session });
		if (!at) {
			this.held = null;
			return undefined;
		}
		this.held = { ...at, session, seq, digest: prefixDigest(payload, at) };
		return at.flat === blocks.at(-1)?.flat ? undefined : withBreakpoint(payload, at, marker);
	}

	/** The held block between commits; at a commit, the new target reached from the held one. */
	private position(
		payload: Json,
		ctx: ExtensionContext,
		blocks: ReturnType<typeof messageBlocks>,
		now: { seq: number; session: string },
	): BlockAt | null {
		const held = this.held;
		const kept = held && held.session === now.session && prefixDigest(payload, held) === held.digest ? held : null;
		if (kept && kept.seq === now.seq) return kept;
		const target = this.target(ctx, blocks, payload.messages as WireMessage[]);
		if (!kept) return target;
		return target ? advance(blocks, kept, target) : kept;
	}

	private target(ctx: ExtensionContext, blocks: ReturnType<typeof messageBlocks>, wire: WireMessage[]): BlockAt | null {
		const { firstTouchable } = this.fold.runtime.stablePrefixEnd(this.fold.host(ctx));
		const split = firstTouchable === null ? null : splitAt(ctx, firstTouchable);
		if (!split) return null;
		const end = stableWireEnd(split.stable, split.next, wire);
		return end === null ? null : markableEnd(blocks, end);
	}
}

/** Registers the `before_provider_request` handler that adds the stable-prefix breakpoint on Anthropic requests. */
export function registerAnthropicCache(pi: ExtensionAPI, fold: PiFold): void {
	const breakpoint = new StableBreakpoint(fold);
	pi.on("before_provider_request", (event, ctx) => {
		if (ctx.model?.api !== "anthropic-messages") return undefined;
		const payload = event.payload as Json | null;
		if (payload === null || typeof payload !== "object") return undefined;
		try {
			return breakpoint.place(payload, ctx);
		} catch (error) {
			notifierFor(ctx)(`before_provider_request (cache breakpoint) failed: ${errorMessage(error)}`, "error");
			return undefined;
		}
	});
}
