// The names a fold holds, as an index its placeholder carries. First the files: every path its calls
// named, in first-use order ("Files: …"), since a path is what leads to everything else about a file
// (a search of it says its length and the fold that holds its read); when they would not fit the
// index's room in full, paths that share a directory are written once per directory
// ("pkg/dist/{a.js,b.js}", as a shell expands braces), and when even that does not fit, the files
// take up to FILES_ROOM_FACTOR times the room. Then, in what the files leave of the room, the other
// names ("Names: …"): the distinctive tokens of its tool results that the agent went on to use in its
// own words or calls after the span, and the code spans it wrote there that the results hold
// (`globalThis.fetch`, `User-Agent`: code-spans.ts), most used first; the same from inside the span;
// the symbols its reads define at the top of a file; then every other distinctive token of its
// results, most frequent first. The room grows with the fold (NAME_INDEX_SHARE of its source bytes,
// between NAME_INDEX_MIN_CHARS and NAME_INDEX_MAX_CHARS): a name the agent first needs long after the
// read is still in the window, in the placeholder of the fold that holds it. A fold that holds folds
// is indexed over all its entries, so an outer fold carries its children's names up and a name the
// agent sees in the window leads to the fold that holds it. Bounded by the room it is given; what
// does not fit is counted. Tokens are those a later reply would quote: paths (8+ characters with a
// slash, an npm scope's "@" included, not a closing tag), web addresses, code-shaped identifiers of
// 8+ characters (camelCase, snake_case, letters with digits), numbers of 4+ digits and hex ids of 7+
// characters.
// Linear in the span's text; each message is tokenized once per process (a cache keyed by the
// message). Deliberately not the replay's fact extractor (src/replay fidelity-facts.ts), though the
// token classes are alike: the measure of what the window holds must not share code with what fills it.

import { escapeUnsafe } from "../common/index.ts";
import type { TranscriptEntry } from "../transcript/index.ts";
import { contentText } from "../transcript/index.ts";
import { spansHeld, spansIn } from "./code-spans.ts";

/** Characters a fold's name index may take per byte of the fold's source (chosen on the replays: docs/policy.md). */
export const NAME_INDEX_SHARE = 0.06;
/** Characters a fold's name index is always given (a small fold's names cost little). */
export const NAME_INDEX_MIN_CHARS = 240;
/** Characters a fold's name index takes at most, however large the fold. */
export const NAME_INDEX_MAX_CHARS = 12_000;

/**
 * Characters a fold's name index may take per token of the serving budget on a small window: a
 * window holds many placeholders, so there each index stays small (480 characters on a budget of
 * 16,000 tokens, 1,320 on 44,000, a 60,000-token window's). Measured: without this bound the
 * benchmark at a 60,000-token window cost 1.07x Pi's compaction and two arms hit its request cap;
 * 0.02 left 10 and 11 blind misses there against native's 8 (docs/policy.md, "Where the cost goes at
 * 120k").
 */
export const NAME_INDEX_BUDGET_SHARE = 0.03;
/** Characters the budget's bound gives at least from a 60,000-token window up (what 0.03 gives there). */
export const NAME_INDEX_BUDGET_FLOOR_CHARS = 1_320;
/**
 * Characters per budget token on a larger window, past the floor (from a budget of 88,000 tokens:
 * 1,560 characters on 104,000, 2,760 on 184,000, the 12,000-character cap from 800,000). Chosen on
 * the four shared sessions and the benchmark (docs/policy.md): 0.03 at every size cost 0.80x native
 * at 120k; 0.015 costs 0.73x there with the shared sessions' used facts missing at or under 8% and
 * blind misses at or under native's at every window; 0.01 lost 6.7% of session 10's facts and cost
 * it 0.728x with recalls (0.679x at 0.015).
 */
export const NAME_INDEX_LARGE_BUDGET_SHARE = 0.015;

/** The room of the name index of a fold whose source is `sourceBytes` bytes, on a budget of `budgetTokens`. */
export function nameIndexRoom(sourceBytes: number, budgetTokens: number): number {
	const byBudget = Math.min(
		budgetTokens * NAME_INDEX_BUDGET_SHARE,
		Math.max(budgetTokens * NAME_INDEX_LARGE_BUDGET_SHARE, NAME_INDEX_BUDGET_FLOOR_CHARS),
	);
	const cap = Math.min(NAME_INDEX_MAX_CHARS, Math.max(NAME_INDEX_MIN_CHARS, byBudget));
	return Math.round(Math.min(cap, Math.max(NAME_INDEX_MIN_CHARS, sourceBytes * NAME_INDEX_SHARE)));
}

/** A path: an optional first segment (an npm scope's "@" or an alias's "@/" included), then "/segment"s. */
const PATH = /@?[\w.-]*(?:\/[\w.@+-]+)+/g;
const IDENT = /\b[A-Za-z_][A-Za-z0-9_]{7,}\b/g;
const NUMBER = /\b\d{4,}\b/g;
/** A web address, up to a space, a quote or a bracket (a sentence's final punctuation left out). */
const URL = /\bhttps?:\/\/[^\s"'`<>()[\]{},;|*]+/g;
const HEX = /\b[0-9a-f]{7,40}\b/g;
/**
 * A definition at the top of a file's structure: at the start of a line (after a reader's line
 * number, as some read tools show one), optionally exported, async, public. Definitions nested in a
 * function or a class (its locals) are left out: they are many and rarely what a later reply names.
 */
const DEFINES =
	/^(?:\s*\d+(?:→|\t|: |\| ?))?(?:export\s+)?(?:default\s+)?(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:abstract\s+)?(?:declare\s+)?(?:function\*?|class|interface|type|const|let|var|def|fn|struct|enum|trait|impl|func|module)\s+([A-Za-z_][A-Za-z0-9_]{3,})/gm;

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
	// Not a closing tag ("</DialogTitle>": markup) nor a web address's path (read whole below).
	for (const m of text.matchAll(PATH))
		if (m[0].length >= 8 && /[A-Za-z]/.test(m[0]) && !/[</]/.test(text.charAt((m.index ?? 0) - 1))) add(m[0]);
	for (const m of text.matchAll(URL)) add(m[0].replace(/[.:!?]+$/, ""));
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
	// The tokens and code spans (code-spans.ts) the agent wrote that the results hold, most used first.
	const byUse = (entries: readonly TranscriptEntry[]) => {
		const spans = spansIn(entries);
		const heldSpans = spansHeld(leaves, spans);
		const held = new Set(heldSpans);
		// A token a listed span holds ("globalThis" in "globalThis.fetch") is named by it.
		const inSpan = (token: string) => heldSpans.some((span) => span.includes(token));
		return [
			...[...tokensIn(entries, "assistant")].filter(([token]) => inResults.has(token) && !inSpan(token)),
			...[...spans].filter(([span]) => held.has(span)),
		]
			.sort((a, b) => b[1] - a[1])
			.map(([name]) => name);
	};
	const out = new Set<string>();
	for (const name of byUse(later)) out.add(name);
	for (const path of calledPaths(leaves)) out.add(path);
	for (const name of byUse(leaves)) out.add(name);
	for (const { message } of leaves)
		if (message.role === "toolResult")
			for (const m of contentText(message.content, "\n").matchAll(DEFINES)) if (m[1]) out.add(m[1]);
	for (const [token] of [...inResults].sort((a, b) => b[1] - a[1])) out.add(token);
	return [...out].filter((name) => !shownElsewhere.has(name));
}

/**
 * Characters the files part of a fold's index may take, per character of its room: every file the
 * fold's calls named is listed (written once per directory when the full list would not fit the
 * room), up to this many times the room, so a fold over many reads on a small window still names
 * each file it read. Measured (docs/session-benchmark.md): at a 60,000-token window a consolidation
 * over 30 stages read about 170 files; its 2,200-character room named about 100 of them.
 */
export const FILES_ROOM_FACTOR = 2;

/** Characters the files part of an index of `room` may take. */
function filesRoom(room: number): number {
	return Math.min(NAME_INDEX_MAX_CHARS, room * FILES_ROOM_FACTOR);
}

/**
 * Characters the name index of a fold over `leaves` takes at most in `room`: every path their calls
 * named, as the files part lists them (in full when that fits the room, else once per directory; at
 * most its own room), and every distinctive token of their results, as the names part lists them (in
 * what the files leave of the room), before the names the window shows elsewhere are left out. Linear
 * in the leaves (their tokens are cached), and it stops once the room is spent.
 */
export function nameIndexSizeBound(leaves: readonly TranscriptEntry[], room: number): number {
	const files = new Set<string>();
	let plain = "Files: .".length;
	// The same files written once per directory: each directory once, each base name with a comma.
	const dirs = new Set<string>();
	let grouped = plain;
	for (const { message } of leaves) {
		if (message.role !== "assistant") continue;
		for (const path of pathsOf(message)) {
			if (files.has(path)) continue;
			files.add(path);
			plain += path.length + 2;
			const split = splitPath(path);
			if (!split) grouped += path.length + 2;
			else if (dirs.has(split.dir)) grouped += split.base.length + 1;
			else {
				dirs.add(split.dir);
				grouped += split.dir.length + split.base.length + 4;
			}
		}
		if (grouped >= filesRoom(room)) break;
	}
	const seen = new Set<string>();
	let size = "Names: .".length;
	// Stops at the first name past the room: on the ladder's path each boundary asks this per span.
	outer: for (const { message } of leaves) {
		if (message.role !== "toolResult") continue;
		for (const token of tokensOf(message).keys()) {
			if (seen.has(token) || files.has(token)) continue;
			seen.add(token);
			size += token.length + 2;
			if (size >= room) break outer;
		}
	}
	const filesPart = files.size === 0 ? 0 : Math.min(plain <= room ? plain : grouped, filesRoom(room));
	// The names get what the files leave of the room.
	const namesPart = seen.size === 0 ? 0 : Math.min(size, Math.max(0, room - filesPart - 1));
	return filesPart + namesPart + (filesPart > 0 && namesPart > 0 ? 1 : 0);
}

/** A name shaped like a file path that can share its directory: "<dir>/" and the base name. */
function splitPath(name: string): { dir: string; base: string } | undefined {
	const m = /^(\/?(?:[\w.@+-]+\/)+)([\w.@+-]+)$/.exec(name);
	return m ? { dir: m[1] as string, base: m[2] as string } : undefined;
}

/** One item of a listing: a name, or the paths of one directory ("dir/{a.ts,b.ts}"). */
interface Item {
	readonly name?: string;
	readonly dir?: string;
	readonly bases: string[];
}

function itemText(item: Item): string {
	if (item.name !== undefined) return item.name;
	return item.bases.length === 1 ? `${item.dir}${item.bases[0]}` : `${item.dir}{${item.bases.join(",")}}`;
}

/**
 * The names that fit in `room` after `head`, most useful first, as listing items: each name in
 * full, or (when `grouped`) paths of one directory written once as "dir/{a.ts,b.ts}", in the place
 * of the first of them. Stops at the first name that does not fit. Returns the items and how many
 * names they hold.
 */
function fitted(
	names: readonly string[],
	head: string,
	room: number,
	grouped: boolean,
): { items: Item[]; shown: number } {
	const items: Item[] = [];
	const byDir = new Map<string, Item>();
	let length = head.length;
	let shown = 0;
	for (const name of names) {
		const rest = names.length - shown - 1;
		const tail = rest > 0 ? ` (+${rest} more)` : "";
		const path = grouped ? splitPath(name) : undefined;
		const group = path ? byDir.get(path.dir) : undefined;
		// Joining a directory's group: its base name and a comma, plus the braces when it held one path.
		const added = group
			? (path?.base.length ?? 0) + 1 + (group.bases.length === 1 ? 2 : 0)
			: name.length + (items.length > 0 ? 2 : 0);
		if (length + added + tail.length + 12 > room) break;
		length += added;
		shown++;
		if (group && path) group.bases.push(path.base);
		else if (path) {
			const item: Item = { dir: path.dir, bases: [path.base] };
			byDir.set(path.dir, item);
			items.push(item);
		} else items.push({ name, bases: [] });
	}
	return { items, shown };
}

/**
 * `head` and as many of `names` as fit in `room` ("Names: a, b, c (+N more)."); "" when none fit.
 * When they do not all fit in `plainRoom` in full, paths that share a directory are written once per
 * directory ("pkg/dist/{a.js,b.js}", as a shell expands braces) if that lets more in.
 */
function listing(names: readonly string[], head: string, room: number, plainRoom = room): string {
	if (names.length === 0 || room < 40) return "";
	let best = fitted(names, head, Math.min(room, plainRoom), false);
	if (best.shown < names.length) {
		const grouped = fitted(names, head, room, true);
		if (grouped.shown > best.shown) best = grouped;
	}
	if (best.shown === 0) return "";
	const rest = names.length - best.shown;
	return `${head}${best.items.map(itemText).join(", ")}${rest > 0 ? ` (+${rest} more)` : ""}.`;
}

/** Whether `text` names `name` whole (not as the start of a longer path or word). */
function namedIn(text: string, name: string): boolean {
	for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
		const next = text.charAt(at + name.length);
		if (!/[\w/-]/.test(next) && !(next === "." && /[\w]/.test(text.charAt(at + name.length + 1)))) return true;
	}
	return false;
}

/**
 * A fold's index within `maxChars` (at most NAME_INDEX_MAX_CHARS) for its names: "Files: …" (every
 * path its calls named, in first-use order, written once per directory when they would not fit
 * `maxChars` in full, up to FILES_ROOM_FACTOR times that room) and, in what they leave of the room,
 * "Names: a, b, c (+N more)." (the other names it holds, most useful first: heldNames); "" when it
 * holds none. A name the fold's own brief (`brief`, shown beside the index) already states is not
 * listed again.
 */
export function nameIndex(
	leaves: readonly TranscriptEntry[],
	maxChars: number,
	later: readonly TranscriptEntry[] = [],
	shownElsewhere: ReadonlySet<string> = new Set(),
	brief = "",
): string {
	const room = Math.min(maxChars, NAME_INDEX_MAX_CHARS);
	const files = calledPaths(leaves);
	const filesText = listing(
		files.filter((f) => !namedIn(brief, f)).map((f) => escapeUnsafe(f)),
		"Files: ",
		filesRoom(room),
		room,
	);
	const listed = new Set(files);
	const others = heldNames(leaves, later, shownElsewhere).filter((n) => !listed.has(n) && !namedIn(brief, n));
	// The files come first: the other names get what they leave of the room.
	const namesRoom = room - (filesText.length > 0 ? filesText.length + 1 : 0);
	const namesText = listing(
		others.map((n) => escapeUnsafe(n)),
		"Names: ",
		namesRoom,
	);
	return [filesText, namesText].filter((t) => t.length > 0).join("\n");
}

/**
 * `text` with every brace group of paths a name index writes ("pkg/dist/{a.js,b.js}") followed by
 * the paths it stands for, so a reader of names finds each path whole.
 */
export function expandPathGroups(text: string): string {
	const paths: string[] = [];
	for (const m of text.matchAll(/(\/?(?:[\w.@+-]+\/)+)\{([\w.@+-]+(?:,[\w.@+-]+)+)\}/g))
		for (const base of (m[2] as string).split(",")) paths.push(`${m[1]}${base}`);
	return paths.length === 0 ? text : `${text}\n${paths.join("\n")}`;
}
