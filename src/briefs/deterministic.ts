// The deterministic brief: a bounded, model-free summary of a span built from its structure and
// its own words (who asked what, which tools ran on what, how the span ended). It is the default
// for tool batches, the fallback for every summarizer failure, and all `summarizer:
// "deterministic"` ever uses. Every piece of transcript text it quotes (asks, tool targets, last
// words) has unsafe characters escaped visibly (src/common/text.ts), so it is always a valid brief.
// Pure.

import { codePointLength, escapeUnsafe, nounFor, plural, sliceCodePoints } from "../common/index.ts";
import { readResults, resultLineCount, type ShownRead } from "../lattice/index.ts";
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

/** A brief's one-line quote (first ask, last words, a tool's target): escaped, at most `limit` code points. */
function briefExcerpt(text: string, limit = EXCERPT_CHARS): string {
	const flat = escapeUnsafe(text.replace(/\s+/g, " ").trim());
	return codePointLength(flat) <= limit ? flat : `${sliceCodePoints(flat, limit - 1)}…`;
}

/** How a brief names what a file read showed: the whole file's line count, or the range of a partial read. */
function shownLines(read: ShownRead): string {
	if (read.lines)
		return `lines ${read.lines[0].toLocaleString("en-US")}-${(read.lines[0] + read.lines[1] - 1).toLocaleString("en-US")}`;
	const n = resultLineCount(read.text);
	return plural(n, "line");
}

function targetOf(args: unknown): string | undefined {
	if (args === null || typeof args !== "object") return undefined;
	const a = args as Record<string, unknown>;
	for (const key of ["path", "file", "pattern", "query", "command", "url", "id"]) {
		const value = a[key];
		if (typeof value === "string" && value.length > 0) return briefExcerpt(value, 80);
	}
	return undefined;
}

/** Truncates `text` to BRIEF_MAX_CHARS code points (never splitting a pair), marking the cut. */
export function boundBrief(text: string): string {
	if (codePointLength(text) <= BRIEF_MAX_CHARS) return text;
	return `${sliceCodePoints(text, BRIEF_MAX_CHARS - 1)}…`;
}

/**
 * A deterministic brief of `leaves`: same span, same brief, never longer than BRIEF_MAX_CHARS. A
 * file a read returned is listed with its line count ("src/a.ts (120 lines)"), or the lines a
 * partial read showed ("src/a.ts (lines 1-2,000)"), as src/lattice reads.ts tells them.
 */
export function deterministicBrief(leaves: readonly TranscriptEntry[]): string {
	const calls = new Map<string, string[]>();
	// What each file read showed, by tool and target.
	const showed = new Map<string, string>();
	for (const r of readResults(leaves.map((l) => l.message))) {
		const target = targetOf(r.args);
		if (target !== undefined) showed.set(`${r.name}\u0000${target}`, shownLines(r.shown));
	}
	let results = 0;
	let resultChars = 0;
	let errors = 0;
	let firstAsk: string | undefined;
	let lastWords: string | undefined;
	for (const { message } of leaves) {
		if (message.role === "user" && firstAsk === undefined) firstAsk = briefExcerpt(textOf(message));
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
			if (words && toolCallsOf(message).length === 0) lastWords = briefExcerpt(words);
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
		const counted = (t: string) => {
			const lines = showed.get(`${name}\u0000${t}`);
			return lines === undefined ? t : `${t} (${lines})`;
		};
		const shown = targets.slice(0, MAX_TARGETS).map(counted).join(", ");
		const more = targets.length > MAX_TARGETS ? ` and ${targets.length - MAX_TARGETS} more` : "";
		const tool = escapeUnsafe(name);
		parts.push(targets.length > 0 ? `${tool}: ${shown}${more}` : `${tool} called`);
	}
	if (results > 0)
		parts.push(
			`${results} tool ${nounFor(results, "result")}, ${resultChars.toLocaleString("en-US")} chars${errors ? `, ${errors} ${nounFor(errors, "error")}` : ""}`,
		);
	if (lastWords) parts.push(`Ended: "${lastWords}"`);
	if (parts.length === 0) parts.push(`${leaves.length} ${nounFor(leaves.length, "entry", "entries")}`);
	return boundBrief(parts.join(". "));
}
