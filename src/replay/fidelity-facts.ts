// The facts a reply can be seen to use, and the text a message carries, for the replay's working-set
// measure (working-set.ts). A fact is a token a model could only have copied: a path (a run with `/`
// or `\`, 8+ characters, a letter in it), a code-shaped identifier of 8+ characters (camelCase,
// snake_case, or letters with digits), a number of 4+ digits (not a year 19xx/20xx), a hex run of 7+
// with a digit and a letter, or a quoted or backticked string of 10-120 characters (its inside).
// A reply's facts come from its text and its tool calls' arguments, never its thinking; a message's
// whole text (what a window lookup searches) is everything it sends, thinking included. Pure.

import { contentText, type TranscriptMessage } from "../transcript/index.ts";

/** Runs of characters that can be part of a path; a path is one holding a slash or a backslash. */
const PATH_RUN = /[^\s"'`<>()[\]{},;|*]*[/\\][^\s"'`<>()[\]{},;|*]*/g;
const IDENTIFIER = /\b[A-Za-z_][A-Za-z0-9_]{7,}\b/g;
const NUMBER = /\b\d{4,}\b/g;
const HEX = /\b[0-9a-fA-F]{7,}\b/g;
const QUOTED = [/"([^"\n]{10,120})"/g, /`([^`\n]{10,120})`/g, /(?<![\w\\])'([^'\n]{10,120})'(?!\w)/g];

const LETTER = /[A-Za-z]/;
const DIGIT = /\d/;
const CAMEL = /[a-z][A-Z]/;
const SNAKE = /[A-Za-z0-9]_[A-Za-z0-9]/;
const YEAR = /^(19|20)\d\d$/;
/** Punctuation a sentence puts after (or before) a path, not part of it. */
const TRAILING = /[.:!?]+$/;

function isCodeShaped(id: string): boolean {
	return CAMEL.test(id) || (SNAKE.test(id) && LETTER.test(id)) || (LETTER.test(id) && DIGIT.test(id));
}

/** The distinct facts of `text`, in the order found (by kind, then position). */
export function factsIn(text: string): string[] {
	const out = new Set<string>();
	for (const m of text.matchAll(PATH_RUN)) {
		const path = m[0].replace(TRAILING, "");
		if (path.length >= 8 && LETTER.test(path) && /[/\\]/.test(path)) out.add(path);
	}
	for (const m of text.matchAll(IDENTIFIER)) if (isCodeShaped(m[0])) out.add(m[0]);
	for (const m of text.matchAll(NUMBER)) if (!YEAR.test(m[0])) out.add(m[0]);
	for (const m of text.matchAll(HEX)) if (DIGIT.test(m[0]) && LETTER.test(m[0])) out.add(m[0]);
	for (const quoted of QUOTED)
		for (const m of text.matchAll(quoted)) if ((m[1] as string).trim()) out.add(m[1] as string);
	return [...out];
}

/** The string and number values of a tool call's arguments, depth first. */
function argumentValues(value: unknown, out: string[]): void {
	if (typeof value === "string") out.push(value);
	else if (typeof value === "number") out.push(String(value));
	else if (Array.isArray(value)) for (const v of value) argumentValues(v, out);
	else if (value !== null && typeof value === "object")
		for (const v of Object.values(value as Record<string, unknown>)) argumentValues(v, out);
}

type Block = { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };

function blocksOf(message: TranscriptMessage): Block[] {
	const content = message.content;
	if (typeof content === "string") return [{ type: "text", text: content }];
	return Array.isArray(content) ? (content as Block[]).filter((b) => b !== null && typeof b === "object") : [];
}

/** What a reply says and passes to its tools: its text and its tool calls' arguments, not its thinking. */
export function usedText(message: TranscriptMessage): string {
	const parts: string[] = [];
	for (const b of blocksOf(message)) {
		if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
		else if (b.type === "toolCall") argumentValues(b.arguments, parts);
	}
	return parts.join("\n");
}

/** Everything `message` puts in a window: text, thinking, tool calls (name and arguments), a summary. */
export function fullText(message: TranscriptMessage): string {
	if (message.role === "compactionSummary") return String((message as { summary?: unknown }).summary ?? "");
	const parts: string[] = [];
	for (const b of blocksOf(message)) {
		if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
		else if (b.type === "thinking" && typeof b.thinking === "string") parts.push(b.thinking);
		else if (b.type === "toolCall") {
			if (typeof b.name === "string") parts.push(b.name);
			argumentValues(b.arguments, parts);
		}
	}
	return parts.join("\n");
}

/**
 * The first 160 characters of a user message of 40 or more, its surrounding whitespace left out (a brief
 * quoting it trims it), or undefined (shorter, or not the user's text).
 */
export function userOpening(message: TranscriptMessage): string | undefined {
	if (message.role !== "user") return undefined;
	const text = contentText(message.content, "\n");
	return text.length >= 40 ? text.trim().slice(0, 160) : undefined;
}
