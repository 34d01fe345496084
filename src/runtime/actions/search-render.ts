// Renders a search as one bounded page of text (at most SEARCH_PAGE_MAX_CHARS) with structured
// details: a header (the pattern, matches, sources scanned and verified, bytes of source shown),
// each hit (fold, depth, entry, byte offset, line, an excerpt with the match marked «like this», a
// ready peek at that offset, a read's result range and how big the file it showed is, a stale-read
// note), the sources that failed
// verification (named; none of their bytes shown), and the next page. The peeks and the next page
// are asked for in the reader's terms: the agent's tool JSON, or a person's slash commands
// (humanAsk). Excerpts are shortened to fit the page. Pure.

import type { FileState } from "../../store/index.ts";
import { staleNote } from "../stale.ts";
import type { SearchNotes } from "./search-notes.ts";
import { displayText, plainExcerpt } from "./search-plain.ts";
import { type PlacedHit, SEARCH_MAX_HITS, type SearchArgs, type SearchFindings } from "./search-types.ts";
import type { ActionResult } from "./shared.ts";
import { PEEK_MAX_BYTES } from "./tool-schema.ts";

/** Characters one page of search results takes at most. */
export const SEARCH_PAGE_MAX_CHARS = 4_000;
/** The peek call of a hit starts this many bytes before it and reads SEARCH_PEEK_BYTES. */
export const SEARCH_PEEK_LEAD_BYTES = 200;
export const SEARCH_PEEK_BYTES = 1_000;
/** Excerpt characters per hit never go below this when a full page is shortened to fit. */
const EXCERPT_FLOOR = 40;

/** `text` cut to at most `n` characters from the end (left) or the start (right), never inside a surrogate pair. */
function clip(text: string, n: number, side: "left" | "right"): string {
	if (text.length <= n) return text;
	let at = side === "left" ? text.length - n : n;
	const code = text.charCodeAt(at);
	if (code >= 0xdc00 && code <= 0xdfff) at += side === "left" ? 1 : -1;
	return side === "left" ? text.slice(at) : text.slice(0, at);
}

/** How the reader asks for a peek and the next page: the agent in the tool's JSON, a person as slash commands. */
export interface SearchAsk {
	/** A person reads it: a plain header, excerpts as the text the entries hold (search-plain.ts). */
	readonly person: boolean;
	readonly peek: (id: string, offset: number, bytes: number) => string;
	readonly next: (args: SearchArgs & { limit: number; page: number }) => string;
}

/** The agent's calls, as the tool takes them. */
export const AGENT_ASK: SearchAsk = {
	person: false,
	peek: (id, offset, bytes) => JSON.stringify({ action: "peek", id, offset, bytes }),
	next: (args) => nextCall(args),
};

/** A person's slash commands (`/<command> peek <id> <offset> <bytes>`, `/<command> search --page <n> <text>`). */
export function humanAsk(command: string): SearchAsk {
	return {
		person: true,
		peek: (id, offset, bytes) => `/${command} peek ${id} ${offset} ${bytes}`,
		next: (args) =>
			`/${command} search --page ${args.page + 1}${args.regex ? " --regex" : ""}${args.fold ? ` --fold ${args.fold}` : ""} ${args.pattern}`,
	};
}

interface Block {
	readonly head: string;
	readonly rest: string[];
	readonly before: string;
	readonly match: string;
	readonly after: string;
}

function blockOf(
	n: number,
	h: PlacedHit,
	notes: SearchNotes,
	stale: ReadonlyMap<string, FileState>,
	ask: SearchAsk,
): Block {
	const peekCall = ask.peek;
	const note = notes.perHit[n];
	const id = h.fold.record.id;
	const line = h.hit.line === null ? "" : ` · line ${h.hit.line}`;
	const size = note?.size ? ` (${note.size})` : "";
	const head = ask.person
		? `${n + 1}. in fold ${id}${h.fold.depth > 0 ? " (nested)" : ""}, ${note?.label ?? "an"} entry ${h.hit.entryId ?? "?"}${size}, byte ${h.offset}`
		: `${n + 1}. ${id} · depth ${h.fold.depth} · entry ${h.hit.entryId ?? "?"} (${note?.label ?? "?"}${note?.size ? `, ${note.size}` : ""}) · byte ${h.offset}${line}`;
	const rest = [`   peek: ${peekCall(id, Math.max(0, h.offset - SEARCH_PEEK_LEAD_BYTES), SEARCH_PEEK_BYTES)}`];
	const own = h.hit.entryId === null ? null : staleNote(stale.get(h.hit.entryId));
	if (own) rest.push(`   ${own}`);
	for (const r of note?.reads ?? []) {
		const where = r.range
			? `${r.range.fold.record.id} bytes ${r.range.start}-${r.range.end}: ${peekCall(r.range.fold.record.id, r.range.start, Math.min(PEEK_MAX_BYTES, r.range.end - r.range.start))}`
			: "its range was not seen";
		const flag = staleNote(stale.get(r.entry));
		rest.push(
			`   → read ${r.path}: ${r.size ? `${r.size}, ` : ""}result entry ${r.entry} in ${where}${flag ? ` (${flag})` : ""}`,
		);
	}
	return { head, rest, before: h.hit.before, match: h.hit.match, after: h.hit.after };
}

function excerpt(b: Block, budget: number, person: boolean): { text: string; bytes: number } {
	const match = clip(b.match, Math.max(EXCERPT_FLOOR / 2, Math.floor(budget / 2)), "right");
	const side = Math.max(0, Math.floor((budget - match.length) / 2));
	const before = clip(b.before, side, "left");
	const after = clip(b.after, side, "right");
	const text = person
		? `   …${plainExcerpt(before, match, after)}…`
		: `   …${displayText(before)}«${displayText(match)}»${displayText(after)}…`;
	return { text, bytes: Buffer.byteLength(before + match + after) };
}

function pluralize(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function failureLines(findings: SearchFindings): string[] {
	return findings.failed.map(({ fold, result, instead }) => {
		const actual = result.actual ? `, actual sha256 ${result.actual.slice(0, 16)}…` : "";
		const more = instead.length > 0 ? `; searched the folds nested in it instead: ${instead.join(", ")}` : "";
		return `Not shown: fold ${fold.record.id} failed verification (source sha256 ${fold.record.sourceSha256.slice(0, 16)}…: ${result.detail}${actual}); none of its bytes are shown${more}.`;
	});
}

function nextCall(args: SearchArgs & { limit: number; page: number }): string {
	return JSON.stringify({
		action: "search",
		pattern: args.pattern,
		...(args.regex ? { regex: true } : {}),
		...(args.fold ? { fold: args.fold } : {}),
		...(args.limit !== undefined ? { limit: args.limit } : {}),
		page: args.page + 1,
	});
}

export function renderSearch(
	args: SearchArgs & { limit: number; page: number },
	findings: SearchFindings,
	shown: readonly PlacedHit[],
	notes: SearchNotes,
	stale: ReadonlyMap<string, FileState>,
	ask: SearchAsk = AGENT_ASK,
): ActionResult {
	const pages = Math.max(1, Math.ceil(Math.min(findings.total, SEARCH_MAX_HITS) / args.limit));
	const blocks = shown.map((h, i) => blockOf(i, h, notes, stale, ask));
	const tail = [...failureLines(findings)];
	if (findings.stopped)
		tail.push(
			`Incomplete: the search stopped at ${findings.stopped} after ${findings.sources} of ${findings.sourcesPlanned} sources; narrow it with "fold", or use a literal pattern.`,
		);
	tail.push(args.page < pages ? `[more: ${ask.next(args)}]` : "[end of matches]");
	const fixed = blocks.reduce((n, b) => n + b.head.length + b.rest.reduce((m, r) => m + r.length + 1, 0) + 8, 0);
	const room = SEARCH_PAGE_MAX_CHARS - 420 - fixed - tail.reduce((n, t) => n + t.length + 1, 0);
	const budget = blocks.length === 0 ? 0 : Math.max(EXCERPT_FLOOR, Math.floor(room / blocks.length));
	const excerpts = blocks.map((b) => excerpt(b, budget, ask.person));
	const shownBytes = excerpts.reduce((n, e) => n + e.bytes, 0);
	const mode = args.regex ? "regex, case-insensitive" : "literal, case-insensitive";
	const rebuilt =
		findings.rebuilt > 0
			? `, ${findings.rebuilt.toLocaleString("en-US")} rebuilt from the session's entries (the fold store has no copy)`
			: "";
	const head = ask.person
		? `Search for ${JSON.stringify(args.pattern)} in the exact originals of the folds (${pluralize(findings.sources, "original")} read, each SHA-256 verified${rebuilt}): ${pluralize(findings.total, "match", "matches")}, page ${args.page} of ${pages}`
		: `[search ${JSON.stringify(args.pattern)} · ${mode} · ${pluralize(findings.total, "match", "matches")} · page ${args.page}/${pages} · ${pluralize(findings.sources, "source")} (${findings.bytes.toLocaleString("en-US")} bytes) read once each and verified (sha256) before any byte was shown${rebuilt} · ${shownBytes.toLocaleString("en-US")} bytes of source shown]`;
	const body = blocks.flatMap((b, i) => [b.head, (excerpts[i] as { text: string }).text, ...b.rest]);
	const none = findings.total === 0 ? ["No match in the verified sources."] : [];
	const text = [head, ...none, ...body, ...tail].join("\n");
	return {
		text,
		details: {
			action: "search",
			pattern: args.pattern,
			regex: args.regex === true,
			total: findings.total,
			page: args.page,
			pages,
			hits: shown.map((h) => ({
				fold: h.fold.record.id,
				depth: h.fold.depth,
				entry: h.hit.entryId,
				offset: h.offset,
				line: h.hit.line,
			})),
			failed: findings.failed.map((f) => ({
				fold: f.fold.record.id,
				detail: f.result.detail,
				actual: f.result.actual,
			})),
			sources: findings.sources,
			rebuilt: findings.rebuilt,
			scannedBytes: findings.bytes,
			shownBytes,
			stopped: findings.stopped,
		},
	};
}
