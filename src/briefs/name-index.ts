// The names a fold holds, as an index its brief carries: the distinctive tokens of its tool results
// that the agent went on to use in its own words or calls after the span (still in use: most used
// first), the paths its tool calls named, the tokens of its results the agent used inside the span,
// and the symbols its reads define. A fold that holds folds is
// indexed over all its entries, so an outer fold carries its children's names up and a name the
// agent sees in the window leads to the fold that holds it. Bounded by the room it is given; what
// does not fit is counted. Tokens are those a later reply would quote: paths (8+ characters with a
// slash), code-shaped identifiers of 8+ characters (camelCase, snake_case, letters with digits),
// numbers of 4+ digits and hex ids of 7+ characters.
// Pure, linear in the span's text.

import { escapeUnsafe } from "../common/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";

/** Characters a brief's name index takes at most. */
export const NAME_INDEX_MAX_CHARS = 480;

const PATH = /(?:[\w.-]+)?(?:\/[\w.@+-]+)+/g;
const IDENT = /\b[A-Za-z_][A-Za-z0-9_]{7,}\b/g;
const NUMBER = /\b\d{4,}\b/g;
const HEX = /\b[0-9a-f]{7,40}\b/g;
const DEFINES =
	/\b(?:function|class|interface|type|const|let|var|def|fn|struct|enum|trait|impl|func|module)\s+([A-Za-z_][A-Za-z0-9_]{3,})/g;

/** An identifier shaped like code: camelCase, snake_case, or letters with digits. */
function codeShaped(token: string): boolean {
	return /[a-z][A-Z]/.test(token) || token.includes("_") || (/\d/.test(token) && /[A-Za-z]/.test(token));
}

function argumentsText(message: TranscriptEntry["message"]): string {
	if (message.role !== "assistant" || !Array.isArray(message.content)) return "";
	const parts: string[] = [];
	for (const block of message.content as unknown[]) {
		const b = block as { type?: unknown; arguments?: unknown } | null;
		if (b?.type === "toolCall") parts.push(JSON.stringify(b.arguments ?? {}));
	}
	return parts.join(" ");
}

/** Paths named in the agent's calls, in first-use order. */
function calledPaths(leaves: readonly TranscriptEntry[]): string[] {
	const out: string[] = [];
	for (const leaf of leaves)
		for (const m of argumentsText(leaf.message).matchAll(/"(?:path|file_path|file)":"([^"]{3,200})"/g))
			if (m[1] && !out.includes(m[1])) out.push(m[1]);
	return out;
}

/** Tokens a reply would quote, counted by use, in `text`. */
function quotable(text: string, into: Map<string, number> = new Map()): Map<string, number> {
	const add = (token: string) => into.set(token, (into.get(token) ?? 0) + 1);
	for (const m of text.matchAll(IDENT)) if (codeShaped(m[0])) add(m[0]);
	for (const m of text.matchAll(PATH)) if (m[0].length >= 8 && /[A-Za-z]/.test(m[0])) add(m[0]);
	for (const m of text.matchAll(NUMBER)) if (!/^(19|20)\d\d$/.test(m[0])) add(m[0]);
	for (const m of text.matchAll(HEX)) if (/\d/.test(m[0]) && /[a-f]/.test(m[0])) add(m[0]);
	return into;
}

/** What the agent wrote and called in `entries`, as one text. */
function agentText(entries: readonly TranscriptEntry[]): string {
	const parts: string[] = [];
	for (const { message } of entries)
		if (message.role === "assistant") parts.push(`${contentText(message.content)} ${argumentsText(message)}`);
	return parts.join("\n");
}

/**
 * The index entries of `leaves`, most useful first: tokens of their tool results the agent used in
 * `later` (the entries after the span), then the paths their calls named, then the tokens used
 * inside the span, then the symbols their reads define.
 */
export function heldNames(leaves: readonly TranscriptEntry[], later: readonly TranscriptEntry[] = []): string[] {
	const results: string[] = [];
	for (const { message } of leaves) if (message.role === "toolResult") results.push(contentText(message.content, "\n"));
	const resultText = results.join("\n");
	const inResults = quotable(resultText);
	const byUse = (used: Map<string, number>) =>
		[...used]
			.filter(([token]) => inResults.has(token))
			.sort((a, b) => b[1] - a[1])
			.map(([token]) => token);
	const out: string[] = [];
	const add = (name: string) => {
		if (!out.includes(name)) out.push(name);
	};
	for (const token of byUse(quotable(agentText(later)))) add(token);
	for (const path of calledPaths(leaves)) add(path);
	for (const token of byUse(quotable(agentText(leaves)))) add(token);
	for (const m of resultText.matchAll(DEFINES)) if (m[1]) add(m[1]);
	return out;
}

/** "Names: a, b, c (+N more)." within `maxChars` (at most NAME_INDEX_MAX_CHARS); "" when none fit. */
export function nameIndex(
	leaves: readonly TranscriptEntry[],
	maxChars = NAME_INDEX_MAX_CHARS,
	later: readonly TranscriptEntry[] = [],
): string {
	const room = Math.min(maxChars, NAME_INDEX_MAX_CHARS);
	const names = heldNames(leaves, later).map((n) => escapeUnsafe(n));
	if (names.length === 0 || room < 40) return "";
	const head = "Names: ";
	let text = head;
	let shown = 0;
	for (const name of names) {
		const rest = names.length - shown - 1;
		const tail = rest > 0 ? ` (+${rest} more)` : "";
		if (text.length + name.length + 2 + tail.length + 12 > room) break;
		text += `${shown > 0 ? ", " : ""}${name}`;
		shown++;
	}
	if (shown === 0) return "";
	const rest = names.length - shown;
	return `${text}${rest > 0 ? ` (+${rest} more)` : ""}.`;
}
