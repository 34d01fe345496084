// Test helper: an evaluator of Anthropic's documented prompt-cache rule, applied to recorded request
// bodies. A request's prompt is a sequence of blocks in cache order (each tool definition, each
// system block, each message's top-level content blocks; a string content is one block). A block
// carrying `cache_control` is a breakpoint. A cache entry is WRITTEN only at a breakpoint (for the
// prefix up to and including that block, when it is at least MIN_CACHEABLE_TOKENS long); a request
// READS the longest prefix that some earlier request wrote and that ends at one of its own
// breakpoints or within LOOKBACK_BLOCKS blocks before one (the breakpoint's block counts as the
// first of them: the conservative reading of "about 20 blocks"). Prefix identity ignores
// `cache_control` and treats a string content as one text block, as Anthropic does. Entries never
// expire here (a test session runs in milliseconds). Pure; no I/O.

import { createHash } from "node:crypto";
import { MESSAGE_FRAMING_TOKENS, tokensOf } from "./server.ts";

/** Blocks looked at from a breakpoint backwards, the breakpoint's own block included. */
export const LOOKBACK_BLOCKS = 20;

/** Shortest prefix Anthropic caches (Claude Sonnet/Opus 4: 1,024 tokens). */
export const MIN_CACHEABLE_TOKENS = 1024;

/** One block of a request in cache order. */
export interface CacheBlock {
	/** Where it is: "tools", "system", or the index of its message. */
	readonly where: "tools" | "system" | number;
	/** Its bytes with `cache_control` removed. */
	readonly bytes: string;
	readonly tokens: number;
	readonly breakpoint: boolean;
}

/** What a real Anthropic cache would serve for one request. */
export interface CacheServed {
	/** Blocks read from cache (a prefix), and their tokens. */
	readonly readBlocks: number;
	readonly readTokens: number;
	/** Tokens written (from the read prefix to the last breakpoint). */
	readonly writeTokens: number;
	/** Tokens after the last breakpoint (billed as fresh input). */
	readonly inputTokens: number;
	readonly totalTokens: number;
	/** Block indices of the breakpoints. */
	readonly breakpoints: readonly number[];
}

type Json = Record<string, unknown>;

/** `value` with every `cache_control` key removed, at any depth. */
export function withoutCacheControl(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutCacheControl);
	if (value === null || typeof value !== "object") return value;
	const out: Json = {};
	for (const [k, v] of Object.entries(value as Json)) if (k !== "cache_control") out[k] = withoutCacheControl(v);
	return out;
}

/** A message's content as blocks: a string is one text block. */
export function contentBlocks(content: unknown): Json[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? (content as Json[]) : [];
}

/** The text of one block a tokenizer reads. */
export function blockText(block: Json): string {
	switch (block.type) {
		case "text":
			return String(block.text ?? "");
		case "thinking":
			return String(block.thinking ?? "");
		case "tool_use":
			return String(block.name ?? "") + JSON.stringify(block.input ?? {});
		case "tool_result":
			return contentBlocks(block.content).map(blockText).join("");
		default:
			return JSON.stringify(block);
	}
}

/** The blocks of an Anthropic Messages body, in cache order (tools, system, messages). */
export function cacheBlocks(body: Json): CacheBlock[] {
	const out: CacheBlock[] = [];
	const push = (where: CacheBlock["where"], block: Json, tokens: number): void => {
		out.push({
			where,
			bytes: JSON.stringify([where, withoutCacheControl(block)]),
			tokens,
			breakpoint: block.cache_control !== undefined,
		});
	};
	for (const tool of (body.tools as Json[] | undefined) ?? [])
		push("tools", tool, tokensOf(JSON.stringify(withoutCacheControl(tool))));
	for (const block of contentBlocks(body.system)) push("system", block, tokensOf(blockText(block)));
	const messages = (body.messages as Json[] | undefined) ?? [];
	messages.forEach((message, m) => {
		contentBlocks(message.content).forEach((block, k) => {
			const framing = k === 0 ? MESSAGE_FRAMING_TOKENS : 0;
			push(m, { role: message.role, ...block }, tokensOf(blockText(block)) + framing);
		});
	});
	return out;
}

/** Prefix keys: key[i] names blocks 0..i (and the model), so equal keys mean equal prefixes. */
function prefixKeys(model: string, blocks: readonly CacheBlock[]): string[] {
	const keys: string[] = [];
	const hash = createHash("sha256").update(model);
	for (const block of blocks) {
		hash.update(block.bytes).update("\u0000");
		keys.push(hash.copy().digest("hex"));
	}
	return keys;
}

/**
 * Replays `bodies` (one session's Anthropic requests, in order) against an empty cache and returns
 * what each request would be served.
 */
export function serveAll(bodies: readonly Json[]): CacheServed[] {
	const cache = new Set<string>();
	return bodies.map((body) => serveOne(body, cache));
}

/** Serves one request from `cache` (mutated: entries at this request's breakpoints are written). */
export function serveOne(body: Json, cache: Set<string>): CacheServed {
	const blocks = cacheBlocks(body);
	const keys = prefixKeys(String(body.model ?? ""), blocks);
	const prefixTokens: number[] = [];
	let sum = 0;
	for (const b of blocks) {
		sum += b.tokens;
		prefixTokens.push(sum);
	}
	const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
	let readBlocks = 0;
	for (const bp of breakpoints) {
		for (let j = bp; j > bp - LOOKBACK_BLOCKS && j >= 0; j--) {
			if (cache.has(keys[j] as string)) {
				readBlocks = Math.max(readBlocks, j + 1);
				break;
			}
		}
	}
	for (const bp of breakpoints) if ((prefixTokens[bp] ?? 0) >= MIN_CACHEABLE_TOKENS) cache.add(keys[bp] as string);
	const readTokens = readBlocks > 0 ? (prefixTokens[readBlocks - 1] ?? 0) : 0;
	const last = breakpoints.at(-1);
	const cachedEnd = last === undefined ? 0 : Math.max(readTokens, prefixTokens[last] ?? 0);
	return {
		readBlocks,
		readTokens,
		writeTokens: cachedEnd - readTokens,
		inputTokens: sum - cachedEnd,
		totalTokens: sum,
		breakpoints,
	};
}

/** A block of a body's messages: message index and block index. */
export interface MessageBlock {
	readonly message: number;
	readonly block: number;
}

/** Breakpoints in the messages other than pi-ai's own (the last message's last block). */
export function extraBreakpoints(body: Json): MessageBlock[] {
	const messages = (body.messages as Json[] | undefined) ?? [];
	const out: MessageBlock[] = [];
	messages.forEach((m, message) => {
		const blocks = contentBlocks(m.content);
		blocks.forEach((b, block) => {
			const pis = message === messages.length - 1 && block === blocks.length - 1;
			if (b.cache_control !== undefined && !pis) out.push({ message, block });
		});
	});
	return out;
}

/** The body without the extra breakpoints (what pi-ai alone would send). */
export function withoutExtraBreakpoints(body: Json): Json {
	const extra = extraBreakpoints(body);
	const messages = ((body.messages as Json[] | undefined) ?? []).map((m, message) => {
		if (!extra.some((e) => e.message === message)) return m;
		const blocks = contentBlocks(m.content).map((b, block) =>
			extra.some((e) => e.message === message && e.block === block) ? (withoutCacheControl(b) as Json) : b,
		);
		return { ...m, content: blocks };
	});
	return { ...body, messages };
}

/** Prompt tokens up to and including block `at` of the messages (tools and system included). */
export function tokensThrough(body: Json, at: MessageBlock): number {
	let sum = 0;
	let current = -1;
	let k = 0;
	for (const b of cacheBlocks(body)) {
		if (typeof b.where === "number") {
			k = b.where === current ? k + 1 : 0;
			current = b.where;
			if (b.where > at.message || (b.where === at.message && k > at.block)) break;
		}
		sum += b.tokens;
	}
	return sum;
}
