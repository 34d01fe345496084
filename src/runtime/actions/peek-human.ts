// A peek slice as the person at the keyboard reads it: each entry of the fold's source (one JSON
// line per entry, as the fold store keeps it) drawn as who spoke, when, and what was said (text with
// its real line breaks; tool calls by name and arguments; tool results by the tool they answer),
// never the JSON line itself. A line the slice cuts off at either end is said to be partial, with
// the text it holds (a search's peek starts inside an entry). Pure.

import { contentText } from "../../transcript/index.ts";

/** Characters of one entry's text shown at most (the rest: the next peek). */
const ENTRY_TEXT_MAX = 2_000;

interface SourceMessage {
	readonly role?: string;
	readonly content?: unknown;
	readonly timestamp?: number;
	readonly toolName?: string;
	readonly isError?: boolean;
	readonly summary?: string;
}

/** "14:02:11 UTC" of a message's timestamp, or "" when it has none. */
function timeOf(timestamp: unknown): string {
	if (typeof timestamp !== "number" || !Number.isFinite(timestamp)) return "";
	return ` · ${new Date(timestamp).toISOString().slice(11, 19)} UTC`;
}

/** The tool calls of an assistant message, as `name {arguments}` lines. */
function toolCalls(content: unknown): string[] {
	if (!Array.isArray(content)) return [];
	return (content as { type?: string; name?: string; arguments?: unknown }[]).flatMap((b) =>
		b?.type === "toolCall" ? [`calls ${b.name ?? "a tool"} ${JSON.stringify(b.arguments ?? {})}`] : [],
	);
}

function who(m: SourceMessage): string {
	switch (m.role) {
		case "user":
			return "you";
		case "assistant":
			return "assistant";
		case "toolResult":
			return `result of ${m.toolName ?? "a tool"}${m.isError ? " (error)" : ""}`;
		default:
			return m.role ?? "entry";
	}
}

function clipped(text: string): string {
	return text.length <= ENTRY_TEXT_MAX ? text : `${text.slice(0, ENTRY_TEXT_MAX - 1)}… (cut here)`;
}

/** One entry line of the source, drawn for a person; null when the line is not a whole entry. */
function entryLines(line: string): string[] | null {
	let parsed: { id?: unknown; message?: SourceMessage };
	try {
		parsed = JSON.parse(line) as typeof parsed;
	} catch {
		return null;
	}
	const m = parsed.message;
	if (typeof parsed.id !== "string" || !m || typeof m !== "object") return null;
	const text = contentText(m.content, "\n").trim() || (typeof m.summary === "string" ? m.summary.trim() : "");
	const body = [...(text ? clipped(text).split("\n") : []), ...toolCalls(m.content)];
	return [
		`${parsed.id} · ${who(m)}${timeOf(m.timestamp)}`,
		...(body.length > 0 ? body : ["(no text)"]).map((l) => `  ${l}`),
	];
}

/** A JSON string's contents, its escapes decoded (as written when they do not parse). */
function decoded(raw: string): string {
	try {
		return JSON.parse(`"${raw}"`) as string;
	} catch {
		return raw;
	}
}

/** The texts a cut-off JSON line holds (its `"text"` strings, the last one possibly unterminated), decoded. */
function partialText(line: string): string[] {
	const texts: string[] = [];
	// A slice that starts inside a string starts with its tail: text when it reads as words.
	const head = line.startsWith("{") ? undefined : /^((?:[^"\\]|\\.)*)("|\\?$)/.exec(line)?.[1];
	if (head?.includes(" ")) texts.push(decoded(head.replace(/\\u[0-9a-fA-F]{0,3}$/, "")));
	for (const m of line.matchAll(/"text":"((?:[^"\\]|\\.)*)("|\\?$)/g)) {
		texts.push(decoded((m[1] ?? "").replace(/\\u[0-9a-fA-F]{0,3}$/, "")));
	}
	const text = texts.join("\n").trim();
	return text ? clipped(text).split("\n") : ["(no text in this part)"];
}

/** The slice's entries as a person reads them, one block per entry. */
export function humanSlice(text: string): string[] {
	const lines = text.split("\n");
	if (lines.at(-1) === "") lines.pop();
	const out: string[] = [];
	for (const line of lines) {
		const drawn = entryLines(line);
		if (drawn) out.push(...drawn);
		else if (line.trim()) out.push("(part of an entry, cut by the slice)", ...partialText(line).map((l) => `  ${l}`));
	}
	return out.length > 0 ? out : ["(nothing in this slice)"];
}
