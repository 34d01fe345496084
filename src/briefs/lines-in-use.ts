// The lines of a fold's tool results the agent is still using, kept verbatim in its placeholder: a
// line holds a name (src/briefs name-index.ts's tokens: paths, code-shaped identifiers, long numbers,
// hex ids) that one of the agent's RECENT_REPLIES newest replies or calls after the span quoted. Each such line comes with the line before and
// after it, under the file (or tool) it came from and its line numbers, most used lines first until
// the room is spent, then shown in source order. So a value the agent keeps quoting (a constant, a
// signature, an error line) stays in its window while the rest of the result folds behind the fold's
// handle; a line no later reply quoted folds with the rest. Linear in the span's result text and the
// later replies' names (each message's names are read once per process, name-index.ts).

import { escapeUnsafe } from "../common/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";
import { quotable, tokensOf } from "./name-index.ts";

/**
 * Characters the lines in use take at most in one placeholder. Measured on the four shared sessions
 * (docs/policy.md): 2,000 characters over every later reply cost up to
 * 0.11x more for little; 600 over the newest 8 replies costs 0.00x to 0.02x more.
 */
export const LINES_IN_USE_MAX_CHARS = 600;
/** Characters of one kept line at most (a longer line is cut, marked with "…"). */
const LINE_MAX_CHARS = 200;
/** The agent's newest replies whose names count as still in use. */
const RECENT_REPLIES = 8;
/** Lines kept before and after each line in use. */
const CONTEXT_LINES = 1;
/** The heading of the lines in use. */
const HEADER = "In use, verbatim (line numbers within each result):";
/** Characters a kept line adds beyond its text, at most: "  1234567: ", its newline, a "  …" gap line. */
const LINE_OVERHEAD = 16;

/** Where a tool result came from: the path its call named, else its tool's name. */
function sourcesOf(leaves: readonly TranscriptEntry[]): Map<string, string> {
	const out = new Map<string, string>();
	for (const { message } of leaves) {
		if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
		for (const block of message.content as { type?: string; id?: string; name?: string; arguments?: unknown }[]) {
			if (block.type !== "toolCall" || typeof block.id !== "string") continue;
			const args = (block.arguments ?? {}) as Record<string, unknown>;
			const path = [args.path, args.file_path, args.file].find((v) => typeof v === "string");
			out.set(block.id, typeof path === "string" ? path : String(block.name ?? "tool"));
		}
	}
	return out;
}

/** A line in use: which result, which line, and the names in it the agent used after the span. */
interface Hit {
	readonly result: number;
	readonly line: number;
	readonly names: readonly string[];
}

/**
 * "Lines in use" of `leaves`: the lines of their tool results holding a name `later` (the entries
 * after the span) quoted in the agent's words or calls, with CONTEXT_LINES around each, within
 * `maxChars` (at most LINES_IN_USE_MAX_CHARS); "" when none.
 */
export function linesInUse(
	leaves: readonly TranscriptEntry[],
	later: readonly TranscriptEntry[],
	maxChars = LINES_IN_USE_MAX_CHARS,
): string {
	const room = Math.min(maxChars, LINES_IN_USE_MAX_CHARS);
	const used = new Map<string, number>();
	let replies = 0;
	for (let i = later.length - 1; i >= 0 && replies < RECENT_REPLIES; i--) {
		const { message } = later[i] as TranscriptEntry;
		if (message.role !== "assistant") continue;
		replies++;
		for (const [token, n] of tokensOf(message)) used.set(token, (used.get(token) ?? 0) + n);
	}
	if (used.size === 0 || room < HEADER.length + 40) return "";
	const sources = sourcesOf(leaves);
	const results: { source: string; lines: string[] }[] = [];
	const hits: Hit[] = [];
	const linesWith = new Map<string, number>();
	for (const { message } of leaves) {
		if (message.role !== "toolResult" || message.isError) continue;
		const lines = contentText(message.content, "\n").split("\n");
		const result = results.length;
		results.push({ source: sources.get(String(message.toolCallId)) ?? String(message.toolName ?? "tool"), lines });
		lines.forEach((line, i) => {
			const names = [...quotable(line).keys()].filter((token) => used.has(token));
			if (names.length === 0) return;
			for (const token of names) linesWith.set(token, (linesWith.get(token) ?? 0) + 1);
			hits.push({ result, line: i, names });
		});
	}
	if (hits.length === 0) return "";
	// A line's weight: the uses of its names after the span, each shared among the lines holding it.
	const weight = (hit: Hit) =>
		hit.names.reduce((n, token) => n + (used.get(token) ?? 0) / (linesWith.get(token) ?? 1), 0);
	hits.sort((a, b) => weight(b) - weight(a) || a.result - b.result || a.line - b.line);
	const kept = new Map<number, Set<number>>();
	const cut = (line: string) =>
		escapeUnsafe(line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS - 1)}…` : line);
	let size = HEADER.length + 1;
	for (const hit of hits) {
		const lines = (results[hit.result] as { lines: string[] }).lines;
		const set = kept.get(hit.result) ?? new Set<number>();
		const add: number[] = [];
		for (let i = hit.line - CONTEXT_LINES; i <= hit.line + CONTEXT_LINES; i++)
			if (i >= 0 && i < lines.length && !set.has(i)) add.push(i);
		const source = (results[hit.result] as { source: string }).source;
		// Upper bounds: a line's prefix, newline and a gap marker; a result's heading.
		const cost =
			add.reduce((n, i) => n + cut(lines[i] as string).length + LINE_OVERHEAD, 0) +
			(set.size === 0 ? escapeUnsafe(source).length + 2 : 0);
		if (size + cost > room) continue;
		size += cost;
		for (const i of add) set.add(i);
		kept.set(hit.result, set);
	}
	const parts: string[] = [];
	for (const [result, set] of [...kept].sort((a, b) => a[0] - b[0])) {
		const { source, lines } = results[result] as { source: string; lines: string[] };
		const rows = [...set].sort((a, b) => a - b);
		const body: string[] = [];
		rows.forEach((i, k) => {
			if (k > 0 && i !== (rows[k - 1] as number) + 1) body.push("  …");
			body.push(`  ${i + 1}: ${cut(lines[i] as string)}`);
		});
		parts.push(`${escapeUnsafe(source)}:\n${body.join("\n")}`);
	}
	const text = `${HEADER}\n${parts.join("\n")}`;
	return parts.length === 0 || text.length > room ? "" : text;
}
