// The curating agent's search, read off the window like everything else it does: when a fact is not visible it
// searches the folded history first (one call that scans every fold's verified source) and answers from the
// matches' excerpts: a receipt from "Receipt for stage N: ...", a file's line count from a search of its path
// (the tool says how long the file a folded read showed is, beside the read's result: "→ read src/a.js: 120
// lines, ...", or an earlier brief's "src/a.js (120 lines)" in an excerpt), a definition's line from a read
// result's hit (`line L` of that read), which file defines a symbol from the read result the definition sits in. A listed file the stage revisits is not read
// again when a search shows a read of it that is not stale (the fold holds it, verified). Pure functions.

import { definitionLine } from "./facts.ts";
import { CONTEXT_TOOL } from "./folds.ts";
import { RECEIPT_LINE } from "./protocol.ts";
import { questionTarget, type RecoveryRoute, type ToolCallSpec } from "./routes.ts";
import type { QuestionView, StageView, WindowView } from "./window-view.ts";

/** Matches the agent asks for per search page, and pages it reads for one question at most. */
export const SEARCH_LIMIT = 10;
export const SEARCH_MAX_PAGES = 2;

/** One match of a visible search result, as its lines show it. */
export interface SearchHit {
	fold: string;
	entry: string;
	/** What the entry is ("read result of src/a.js", "assistant", ...). */
	label: string;
	/** For a hit in a file read's result: the file, and how much of it the read showed ("120 lines"). */
	path?: string;
	size?: string;
	line: number | null;
	/** The excerpt's text (markers and ellipses removed). */
	text: string;
	/** "→ read <path>: result entry <id> in <fold> bytes <a>-<b>: <peek call>" pointers under the match. */
	reads: ReadPointer[];
	stale: boolean;
}

/** Where a search says a folded read's result is: its fold and the byte range of its entry there. */
export interface ReadPointer {
	path: string;
	/** How much of the file the read showed, as the tool says it ("120 lines", "lines 1-2,000 of 3,500"). */
	size?: string;
	stale: boolean;
	fold?: string;
	start?: number;
	end?: number;
}

/** One visible search result: its pattern, page, whether more pages follow, its matches. */
export interface SearchPage {
	pattern: string;
	regex: boolean;
	page: number;
	pages: number;
	hits: SearchHit[];
}

const HEADER =
	/^\[search "(?:[^"\\]|\\.)*" · (?:literal|regex), case-insensitive · [\d,]+ match(?:es)? · page (\d+)\/(\d+) · /;
const HIT = /^\d+\. (f[0-9a-f]{16}) · depth \d+ · entry (\S+) \((.*)\) · byte \d+(?: · line (\d+))?$/;
/** How the tool states what a read showed of its file. */
const SIZE = "[\\d,]+ lines?|lines [\\d,]+-[\\d,]+(?: of [\\d,]+)?";
const READ_LABEL = new RegExp(`^\\S+ result of (.+?)(?:, (${SIZE}))?$`);
const POINTER = new RegExp(`^ {3}→ read (.+?): (?:(${SIZE}), )?result entry \\S+ in (.*)$`);

/** The file's length in lines a size states ("120 lines", "lines 1-2,000 of 3,500"), or undefined. */
export function fileLines(size: string | undefined): number | undefined {
	const m = size === undefined ? null : /^([\d,]+) lines?$|^lines [\d,]+-[\d,]+ of ([\d,]+)$/.exec(size);
	const n = m?.[1] ?? m?.[2];
	return n === undefined ? undefined : Number(n.replaceAll(",", ""));
}

/** Every visible search result, in window order (a search that found no folds at all is a page with no hits). */
export function searchPages(view: WindowView): SearchPage[] {
	const out: SearchPage[] = [];
	for (const r of view.results) {
		if (r.toolName !== CONTEXT_TOOL || r.isError || r.call?.args.action !== "search") continue;
		const head = HEADER.exec(r.text);
		const page: SearchPage = {
			pattern: String(r.call.args.pattern),
			regex: r.call.args.regex === true,
			page: head ? Number(head[1]) : Number(r.call.args.page ?? 1),
			pages: head ? Number(head[2]) : 1,
			hits: [],
		};
		for (const line of head ? r.text.split("\n").slice(1) : []) readLine(page, line);
		out.push(page);
	}
	return out;
}

/** Adds what one line of a search result says to `page`: a match, its excerpt, a stale flag, a read pointer. */
function readLine(page: SearchPage, line: string): void {
	const hit = HIT.exec(line);
	const current = page.hits.at(-1);
	if (hit) {
		const read = READ_LABEL.exec(hit[3] as string);
		page.hits.push({
			fold: hit[1] as string,
			entry: hit[2] as string,
			label: hit[3] as string,
			...(read ? { path: read[1] as string, ...(read[2] ? { size: read[2] } : {}) } : {}),
			line: hit[4] ? Number(hit[4]) : null,
			text: "",
			reads: [],
			stale: false,
		});
	} else if (current && line.startsWith("   …")) current.text = line.slice(4, -1).replace("«", "").replace("»", "");
	else if (current && line.startsWith("   stale:")) current.stale = true;
	else if (current) {
		const pointer = POINTER.exec(line);
		if (!pointer) return;
		const rest = pointer[3] as string;
		const range = /^(f[0-9a-f]{16}) bytes (\d+)-(\d+):/.exec(rest);
		current.reads.push({
			path: pointer[1] as string,
			...(pointer[2] ? { size: pointer[2] } : {}),
			stale: rest.includes("stale:"),
			...(range ? { fold: range[1] as string, start: Number(range[2]), end: Number(range[3]) } : {}),
		});
	}
}

function search(pattern: string, regex: boolean, page = 1): ToolCallSpec {
	return {
		name: CONTEXT_TOOL,
		args: {
			action: "search",
			pattern,
			...(regex ? { regex: true } : {}),
			limit: SEARCH_LIMIT,
			...(page > 1 ? { page } : {}),
		},
	};
}

function escapeRegex(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The search a question asks for: a receipt line, a file's path (its line count), a symbol's definition. */
function patternFor(q: QuestionView): { pattern: string; regex: boolean } | undefined {
	const target = questionTarget(q);
	if (q.kind === "receipt" && q.aboutStage !== undefined)
		return { pattern: `Receipt for stage ${q.aboutStage}:`, regex: false };
	if (q.kind === "line-count" && target.file) return { pattern: target.file, regex: false };
	if (target.symbol) {
		const s = escapeRegex(target.symbol);
		return { pattern: `(function\\*?\\s+|class\\s+|(const|let|var)\\s+)${s}(?![\\w$])`, regex: true };
	}
	return undefined;
}

/** The answer the hits give, or undefined. */
function answerFrom(q: QuestionView, hits: readonly SearchHit[]): string | undefined {
	const target = questionTarget(q);
	for (const h of hits) {
		if (q.kind === "receipt") {
			const m = [...h.text.matchAll(RECEIPT_LINE)].find((x) => Number(x[1]) === q.aboutStage);
			if (m) return m[2];
			continue;
		}
		if (q.kind === "line-count" && target.file) {
			// What the tool says of a read of the file (its own hit, or a read call's pointer), then a brief's words.
			const sizes = [
				...(h.path === target.file && !h.stale ? [h.size] : []),
				...h.reads.filter((r) => r.path === target.file && !r.stale).map((r) => r.size),
			];
			const lines = sizes.map(fileLines).find((n) => n !== undefined);
			if (lines !== undefined) return String(lines);
			const m = new RegExp(`${escapeRegex(target.file)} \\(([\\d,]+) lines?\\)`).exec(h.text);
			if (m) return (m[1] as string).replaceAll(",", "");
			continue;
		}
		// A definition: a hit in the read result of the file asked about, whose text line defines the symbol.
		const file = h.path;
		if (!file || h.stale || !target.symbol || definitionLine(h.text, target.symbol) === undefined) continue;
		if (q.kind === "definition-line" && file === target.file && h.line !== null) return String(h.line);
		if (q.kind === "defining-file" && (target.candidates.length === 0 || target.candidates.includes(file))) return file;
	}
	return undefined;
}

/** Search first: answer from visible matches; else search, or read the next page; else pass (peek, reread). */
export const searchRoute: RecoveryRoute = {
	name: "search",
	resolve(q, view) {
		const wanted = patternFor(q);
		if (!wanted) return undefined;
		const pages = searchPages(view).filter((p) => p.pattern === wanted.pattern && p.regex === wanted.regex);
		const answer = answerFrom(
			q,
			pages.flatMap((p) => p.hits),
		);
		if (answer !== undefined) return { answer };
		const seen = new Set(pages.map((p) => p.page));
		if (pages.length === 0) return { calls: [search(wanted.pattern, wanted.regex)] };
		const total = Math.max(...pages.map((p) => p.pages));
		const next = [...Array(Math.min(total, SEARCH_MAX_PAGES)).keys()].map((i) => i + 1).find((p) => !seen.has(p));
		return next === undefined ? undefined : { calls: [search(wanted.pattern, wanted.regex, next)] };
	},
};

/** Listed files the stage says it revisits ("- path (revisited from stage N)" in its result). */
function revisitedFiles(view: WindowView, stage: StageView): Set<string> {
	const text = view.results.find((r) => r.index === stage.index)?.text ?? "";
	const out = new Set<string>();
	for (const m of text.matchAll(/^- (.+) \(revisited from stage \d+\)$/gm)) out.add(m[1] as string);
	return out;
}

/**
 * Listed files the window does not show: a file the stage revisits is searched for (by path) once; when a search
 * shows a read of it that is not stale, a fold holds it, verified and current, and it is not read again. Every
 * other file (new, no read found, or changed since) is read from disk.
 */
export function recoverListed(
	view: WindowView,
	stage: StageView,
	missing: readonly string[],
): { calls: ToolCallSpec[]; rest: string[] } {
	const pages = searchPages(view);
	const revisited = revisitedFiles(view, stage);
	const calls: ToolCallSpec[] = [];
	const rest: string[] = [];
	for (const path of missing) {
		if (!revisited.has(path)) {
			rest.push(path);
			continue;
		}
		const found = pages.filter((p) => p.pattern === path && !p.regex);
		if (found.length === 0) {
			calls.push(search(path, false));
			continue;
		}
		const reads = found.flatMap((p) => p.hits.flatMap((h) => h.reads.filter((r) => r.path === path)));
		const current = reads.length > 0 && reads.every((r) => !r.stale);
		if (!current) rest.push(path);
	}
	return { calls, rest };
}
