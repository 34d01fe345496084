// The names a fold holds, as an index its placeholder carries: the distinctive tokens of its tool
// results that the agent went on to use in its own words or calls after the span (still in use: most
// used first), the paths its tool calls named, the tokens of its results the agent used inside the
// span, the symbols its reads define, then every other distinctive token of its results, most frequent
// first. The index's room grows with the fold (NAME_INDEX_SHARE of its source bytes, between
// NAME_INDEX_MIN_CHARS and NAME_INDEX_MAX_CHARS): a name the agent first needs long after the read
// is still in the window, in the placeholder of the fold that holds it. A fold that holds folds is
// indexed over all its entries, so an outer fold carries its children's names up and a name the
// agent sees in the window leads to the fold that holds it. Bounded by the room it is given; what
// does not fit is counted. Tokens are those a later reply would quote: paths (8+ characters with a
// slash), code-shaped identifiers of 8+ characters (camelCase, snake_case, letters with digits),
// numbers of 4+ digits and hex ids of 7+ characters.
// Linear in the span's text; each message is tokenized once per process (a cache keyed by the
// message). Deliberately not the replay's fact extractor (src/replay fidelity-facts.ts), though the
// token classes are alike: the measure of what the window holds must not share code with what fills it.

import { escapeUnsafe } from "../common/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";

/** Characters a fold's name index may take per byte of the fold's source (chosen on the replays: docs/policy.md). */
export const NAME_INDEX_SHARE = 0.06;
/** Characters a fold's name index is always given (a small fold's names cost little). */
export const NAME_INDEX_MIN_CHARS = 240;
/** Characters a fold's name index takes at most, however large the fold. */
export const NAME_INDEX_MAX_CHARS = 12_000;

/**
 * Characters a fold's name index may take per token of the serving budget: a window holds many
 * placeholders, so on a small window each index stays small (2,200 characters on a budget of 44,000
 * tokens, 7,200 on 144,000, the 12,000-character cap from 240,000). Measured: without this bound the
 * benchmark at a 60,000-token window cost 1.07x Pi's compaction and two arms hit its request cap;
 * 0.02 and 0.05 cost 0.76x and 0.86x there (docs/policy.md).
 */
export const NAME_INDEX_BUDGET_SHARE = 0.05;

/** The room of the name index of a fold whose source is `sourceBytes` bytes, on a budget of `budgetTokens`. */
export function nameIndexRoom(sourceBytes: number, budgetTokens: number): number {
	const cap = Math.min(NAME_INDEX_MAX_CHARS, Math.max(NAME_INDEX_MIN_CHARS, budgetTokens * NAME_INDEX_BUDGET_SHARE));
	return Math.round(Math.min(cap, Math.max(NAME_INDEX_MIN_CHARS, sourceBytes * NAME_INDEX_SHARE)));
}

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

/** The paths one message's calls name, read once per process (a message does not change once recorded). */
const pathsByMessage = new WeakMap<object, readonly string[]>();
function pathsOf(message: TranscriptEntry["message"]): readonly string[] {
	const known = pathsByMessage.get(message);
	if (known) return known;
	const paths: string[] = [];
	for (const m of argumentsText(message).matchAll(/"(?:path|file_path|file)":"([^"]{3,200})"/g))
		if (m[1]) paths.push(m[1]);
	pathsByMessage.set(message, paths);
	return paths;
}

/** Paths named in the agent's calls, in first-use order. */
function calledPaths(leaves: readonly TranscriptEntry[]): string[] {
	const out = new Set<string>();
	for (const leaf of leaves) for (const path of pathsOf(leaf.message)) out.add(path);
	return [...out];
}

/** Tokens a reply would quote, counted by use, in `text`. */
export function quotable(text: string, into: Map<string, number> = new Map()): Map<string, number> {
	const add = (token: string) => into.set(token, (into.get(token) ?? 0) + 1);
	for (const m of text.matchAll(IDENT)) if (codeShaped(m[0])) add(m[0]);
	for (const m of text.matchAll(PATH)) if (m[0].length >= 8 && /[A-Za-z]/.test(m[0])) add(m[0]);
	for (const m of text.matchAll(NUMBER)) if (!/^(19|20)\d\d$/.test(m[0])) add(m[0]);
	for (const m of text.matchAll(HEX)) if (/\d/.test(m[0]) && /[a-f]/.test(m[0])) add(m[0]);
	return into;
}

/**
 * The quotable tokens of one message: an assistant's words and call arguments, or a tool result's
 * or user message's text (empty for others). Messages do not change once recorded, so each is read once per process
 * (every commit indexes the spans it folds against everything after them).
 */
const tokensByMessage = new WeakMap<object, ReadonlyMap<string, number>>();
export function tokensOf(message: TranscriptEntry["message"]): ReadonlyMap<string, number> {
	const known = tokensByMessage.get(message);
	if (known) return known;
	const text =
		message.role === "assistant"
			? `${contentText(message.content)} ${argumentsText(message)}`
			: message.role === "toolResult" || message.role === "user"
				? contentText(message.content, "\n")
				: "";
	const tokens = quotable(text);
	tokensByMessage.set(message, tokens);
	return tokens;
}

/** The tokens `role`'s messages among `entries` hold, their uses summed. */
function tokensIn(entries: readonly TranscriptEntry[], role: "assistant" | "toolResult"): Map<string, number> {
	const out = new Map<string, number>();
	for (const { message } of entries)
		if (message.role === role) for (const [token, n] of tokensOf(message)) out.set(token, (out.get(token) ?? 0) + n);
	return out;
}

/**
 * The index entries of `leaves`, most useful first: tokens of their tool results the agent used in
 * `later` (the entries after the span), then the paths their calls named, then the tokens used
 * inside the span, then the symbols their reads define, then the rest of their results' tokens, most
 * frequent first.
 */
export function heldNames(
	leaves: readonly TranscriptEntry[],
	later: readonly TranscriptEntry[] = [],
	shownElsewhere: ReadonlySet<string> = new Set(),
): string[] {
	const inResults = tokensIn(leaves, "toolResult");
	const byUse = (used: Map<string, number>) =>
		[...used]
			.filter(([token]) => inResults.has(token))
			.sort((a, b) => b[1] - a[1])
			.map(([token]) => token);
	const out = new Set<string>();
	for (const token of byUse(tokensIn(later, "assistant"))) out.add(token);
	for (const path of calledPaths(leaves)) out.add(path);
	for (const token of byUse(tokensIn(leaves, "assistant"))) out.add(token);
	for (const { message } of leaves)
		if (message.role === "toolResult")
			for (const m of contentText(message.content, "\n").matchAll(DEFINES)) if (m[1]) out.add(m[1]);
	for (const [token] of [...inResults].sort((a, b) => b[1] - a[1])) out.add(token);
	return [...out].filter((name) => !shownElsewhere.has(name));
}

/**
 * Characters the name index of a fold over `leaves` takes at most in `room`: every distinctive token
 * of their results and every path their calls named, as the index lists them, before the names the
 * window shows elsewhere are left out. Linear in the leaves (their tokens are cached), and it stops
 * once the room is spent.
 */
export function nameIndexSizeBound(leaves: readonly TranscriptEntry[], room: number): number {
	const seen = new Set<string>();
	let size = "Names: .".length;
	const add = (name: string): boolean => {
		if (seen.has(name)) return false;
		seen.add(name);
		size += name.length + 2;
		return size >= room;
	};
	// Stops at the first name past the room: on the ladder's path each boundary asks this per span.
	for (const { message } of leaves) {
		if (message.role === "toolResult") {
			for (const token of tokensOf(message).keys()) if (add(token)) return room;
		} else for (const path of pathsOf(message)) if (add(path)) return room;
	}
	return seen.size === 0 ? 0 : size;
}

/** "Names: a, b, c (+N more)." within `maxChars` (at most NAME_INDEX_MAX_CHARS); "" when none fit. */
export function nameIndex(
	leaves: readonly TranscriptEntry[],
	maxChars: number,
	later: readonly TranscriptEntry[] = [],
	shownElsewhere: ReadonlySet<string> = new Set(),
): string {
	const room = Math.min(maxChars, NAME_INDEX_MAX_CHARS);
	const names = heldNames(leaves, later, shownElsewhere).map((n) => escapeUnsafe(n));
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
