// The deterministic brief: a bounded, model-free summary of a span built from its structure and
// its own words (who asked what, which tools ran on what, how the span ended). It is the default
// for tool batches, the fallback for every summarizer failure, and all `summarizer:
// "deterministic"` ever uses. Every piece of transcript text it quotes (asks, tool targets, last
// words) has unsafe characters escaped visibly (src/common/text.ts), so it is always a valid brief.
// Pure.

import { codePointLength, escapeUnsafe, sliceCodePoints } from "../common/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";
import { contentText, toolCallsOf } from "../transcript/index.ts";

/** Longest brief pi-fold stores or shows, agent-written or generated, in Unicode code points. */
export const BRIEF_MAX_CHARS = 1_200;
/** Characters of a quoted excerpt (first user ask, last assistant words). */
const EXCERPT_CHARS = 240;
/** Distinct tool targets listed before eliding the rest. */
const MAX_TARGETS = 12;

function textOf(message: TranscriptMessage): string {
	return contentText(message.content);
}

function excerpt(text: string, limit = EXCERPT_CHARS): string {
	const flat = escapeUnsafe(text.replace(/\s+/g, " ").trim());
	return codePointLength(flat) <= limit ? flat : `${sliceCodePoints(flat, limit - 1)}…`;
}

function targetOf(args: unknown): string | undefined {
	if (args === null || typeof args !== "object") return undefined;
	const a = args as Record<string, unknown>;
	for (const key of ["path", "file", "pattern", "query", "command", "url", "id"]) {
		const value = a[key];
		if (typeof value === "string" && value.length > 0) return excerpt(value, 80);
	}
	return undefined;
}

/** Truncates `text` to BRIEF_MAX_CHARS code points (never splitting a pair), marking the cut. */
export function boundBrief(text: string): string {
	if (codePointLength(text) <= BRIEF_MAX_CHARS) return text;
	return `${sliceCodePoints(text, BRIEF_MAX_CHARS - 1)}…`;
}

/** A deterministic brief of `leaves`: same span, same brief, never longer than BRIEF_MAX_CHARS. */
export function deterministicBrief(leaves: readonly TranscriptEntry[]): string {
	const calls = new Map<string, string[]>();
	let results = 0;
	let resultChars = 0;
	let errors = 0;
	let firstAsk: string | undefined;
	let lastWords: string | undefined;
	for (const { message } of leaves) {
		if (message.role === "user" && firstAsk === undefined) firstAsk = excerpt(textOf(message));
		if (message.role === "assistant") {
			for (const block of Array.isArray(message.content) ? (message.content as unknown[]) : []) {
				const b = block as { type?: unknown; name?: unknown; arguments?: unknown };
				if (b.type !== "toolCall" || typeof b.name !== "string") continue;
				const list = calls.get(b.name) ?? [];
				const target = targetOf(b.arguments);
				if (target !== undefined && !list.includes(target)) list.push(target);
				calls.set(b.name, list);
			}
			const words = textOf(message).trim();
			if (words && toolCallsOf(message).length === 0) lastWords = excerpt(words);
		}
		if (message.role === "toolResult") {
			results++;
			resultChars += textOf(message).length;
			if (message.isError === true) errors++;
		}
	}
	const parts: string[] = [];
	if (firstAsk) parts.push(`Asked: "${firstAsk}"`);
	for (const [name, targets] of calls) {
		const shown = targets.slice(0, MAX_TARGETS).join(", ");
		const more = targets.length > MAX_TARGETS ? ` and ${targets.length - MAX_TARGETS} more` : "";
		const tool = escapeUnsafe(name);
		parts.push(targets.length > 0 ? `${tool}: ${shown}${more}` : `${tool} called`);
	}
	if (results > 0)
		parts.push(
			`${results} tool result${results === 1 ? "" : "s"}, ${resultChars.toLocaleString("en-US")} chars${errors ? `, ${errors} error${errors === 1 ? "" : "s"}` : ""}`,
		);
	if (lastWords) parts.push(`Ended: "${lastWords}"`);
	if (parts.length === 0) parts.push(`${leaves.length} entr${leaves.length === 1 ? "y" : "ies"}`);
	return boundBrief(parts.join(". "));
}
