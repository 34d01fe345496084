// The curating agent's search, read off the window like everything else it does: when a fact is not visible it
// searches the folded history first (one call that scans every fold's verified source) and answers from the
// matches' excerpts: a receipt from "Receipt for stage N: ...", a file's line count from its own earlier brief
// ("src/a.js (120 lines)"), a definition's line from a read result's hit (`line L` of that read), which file
// defines a symbol from the read result the definition sits in. A listed file the stage revisits is not read
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
const POINTER = /^ {3}→ read (.+?): result entry \S+ in (.*)$/;

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
	if (hit)
		page.hits.push({
			fold: hit[1] as string,
			entry: hit[2] as string,
			label: hit[3] as string,
			line: hit[4] ? Number(hit[4]) : null,
			text: "",
			reads: [],
			stale: false,
		});
	else if (current && line.startsWith("   …")) current.text = line.slice(4, -1).replace("«", "").replace("»", "");
	else if (current && line.startsWith("   stale:")) current.stale = true;
	else if (current) {
		const pointer = POINTER.exec(line);
		if (!pointer) return;
		const rest = pointer[2] as string;
		const range = /^(f[0-9a-f]{16}) bytes (\d+)-(\d+):/.exec(rest);
		current.reads.push({
			path: pointer[1] as string,
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

/** The search a question asks for: a receipt line, a file's line count in a brief, a symbol's definition. */
function patternFor(q: QuestionView): { pattern: string; regex: boolean } | undefined {
	const target = questionTarget(q);
	if (q.kind === "receipt" && q.aboutStage !== undefined)
		return { pattern: `Receipt for stage ${q.aboutStage}:`, regex: false };
	if (q.kind === "line-count" && target.file) return { pattern: `${target.file} (`, regex: false };
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
			const m = new RegExp(`${escapeRegex(target.file)} \\(([\\d,]+) lines?\\)`).exec(h.text);
			if (m) return (m[1] as string).replaceAll(",", "");
			continue;
		}
		// A definition: a hit in the read result of the file asked about, whose text line defines the symbol.
		const file = /^read result of (.+)$/.exec(h.label)?.[1];
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
