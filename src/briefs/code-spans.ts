// The code spans an agent writes in its own words (`globalThis.fetch`, `User-Agent`,
// `@scope/pkg`, `kimchi/${getVersion()}`): the names it is working with that no token class of
// name-index.ts reads whole (a member chain, a header, a template). A fold's name index lists the ones
// its tool results hold, most used first, beside the tokens the agent used (name-index.ts heldNames),
// so a name the agent keeps writing stays named in its window after the result that holds it folds.
// Each message's spans are read once per process; whether a fold's results hold a span is one
// substring search of their text per span, at most SPANS_CHECKED spans a fold. Pure.

import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";

/** Characters of a code span the index takes, at least and at most. */
const SPAN_MIN_CHARS = 6;
const SPAN_MAX_CHARS = 80;
/** Spans, most used first, a fold's results are searched for (each search reads their text once). */
export const SPANS_CHECKED = 32;

const BACKTICKED = /`([^`\n]+)`/g;
/** A span worth indexing: a letter in it and some character no identifier holds (a name the token classes would cut). */
const LETTER = /[A-Za-z]/;
const NOT_WORD = /[^\w]/;

/** The code spans of an assistant's text (not its thinking or calls), counted by use; cached per message. */
const spansByMessage = new WeakMap<object, ReadonlyMap<string, number>>();
export function spansOf(message: TranscriptEntry["message"]): ReadonlyMap<string, number> {
	const known = spansByMessage.get(message);
	if (known) return known;
	const out = new Map<string, number>();
	if (message.role === "assistant" && Array.isArray(message.content)) {
		for (const block of message.content as { type?: unknown; text?: unknown }[]) {
			if (block?.type !== "text" || typeof block.text !== "string") continue;
			for (const m of block.text.matchAll(BACKTICKED)) {
				const span = (m[1] as string).trim();
				if (span.length < SPAN_MIN_CHARS || span.length > SPAN_MAX_CHARS) continue;
				if (!LETTER.test(span) || !NOT_WORD.test(span)) continue;
				out.set(span, (out.get(span) ?? 0) + 1);
			}
		}
	}
	spansByMessage.set(message, out);
	return out;
}

/** The code spans the assistant messages among `entries` wrote, their uses summed. */
export function spansIn(entries: readonly TranscriptEntry[]): Map<string, number> {
	const out = new Map<string, number>();
	for (const { message } of entries)
		if (message.role === "assistant") for (const [span, n] of spansOf(message)) out.set(span, (out.get(span) ?? 0) + n);
	return out;
}

/** The SPANS_CHECKED most used of `used` (code spans and their uses): the ones an index may list. */
export function mostUsedSpans(used: ReadonlyMap<string, number>): string[] {
	return [...used]
		.sort((a, b) => b[1] - a[1])
		.slice(0, SPANS_CHECKED)
		.map(([span]) => span);
}

/**
 * Of `used` (code spans and their uses), the ones the tool results among `leaves` hold verbatim,
 * most used first; at most SPANS_CHECKED of them are searched for.
 */
export function spansHeld(leaves: readonly TranscriptEntry[], used: ReadonlyMap<string, number>): string[] {
	if (used.size === 0) return [];
	const candidates = mostUsedSpans(used);
	const texts: string[] = [];
	for (const { message } of leaves) if (message.role === "toolResult") texts.push(contentText(message.content, "\n"));
	if (texts.length === 0) return [];
	// A call written as the agent names it ("loadSession()") is held where the results call it ("loadSession(id)").
	const needle = (span: string) => (span.endsWith("()") ? span.slice(0, -1) : span);
	return candidates.filter((span) => texts.some((text) => text.includes(needle(span))));
}
