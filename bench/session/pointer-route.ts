// The curating agent following what search told it, as pi-fold's tool guidelines say ("use search
// first ... then peek at that offset"): for a question about a file, it searches the file's path; a
// match under a folded read carries "→ read <path>: result entry … in <fold> bytes <a>-<b>", the
// exact range of that read's result in the fold's source; it peeks exactly that range (page by page
// when pi-fold trims it to the window's room) and answers from the file text in it. Only what the
// tool's results show is used. Pure functions.

import { CONTEXT_TOOL } from "./folds.ts";
import { answerFromFileText, questionTarget, type RecoveryRoute, type ToolCallSpec } from "./routes.ts";
import { type ReadPointer, SEARCH_LIMIT, searchPages } from "./search-route.ts";
import type { WindowView } from "./window-view.ts";

const PEEK_HEADER = /^\[peek (f[0-9a-f]{16}) · bytes (\d+)-(\d+) of (\d+) · /;

/** The visible peek slices of `fold`: where each starts and ends, and its text. */
function slicesOf(view: WindowView, fold: string): { start: number; end: number; text: string }[] {
	const out: { start: number; end: number; text: string }[] = [];
	for (const r of view.results) {
		if (r.toolName !== CONTEXT_TOOL || r.isError) continue;
		const m = PEEK_HEADER.exec(r.text);
		if (!m || m[1] !== fold) continue;
		const lines = r.text.split("\n");
		out.push({ start: Number(m[2]), end: Number(m[3]), text: lines.slice(1, -1).join("\n") });
	}
	return out.sort((a, b) => a.start - b.start);
}

/** The pointed range as far as visible peeks cover it from its start: the text, and the next offset still unread. */
function covered(view: WindowView, p: Required<ReadPointer>): { text: string; next: number } {
	let at = p.start;
	let text = "";
	for (const s of slicesOf(view, p.fold)) {
		if (s.start !== at) continue;
		text += s.text;
		at = s.end;
		if (at >= p.end) break;
	}
	return { text, next: at };
}

/** The file text in a read result's JSON line, or undefined when it does not parse. */
function resultText(line: string): string | undefined {
	try {
		const entry = JSON.parse(line.split("\n")[0] ?? "") as {
			message?: { content?: { type?: string; text?: string }[] };
		};
		return (entry.message?.content ?? []).map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");
	} catch {
		return undefined;
	}
}

function search(pattern: string): ToolCallSpec {
	return { name: CONTEXT_TOOL, args: { action: "search", pattern, limit: SEARCH_LIMIT } };
}

/** Search a file's path, peek the exact range of its read that the search points at, answer from it. */
export const pointerRoute: RecoveryRoute = {
	name: "peek",
	resolve(q, view) {
		const target = questionTarget(q);
		const paths = target.file ? [target.file] : target.candidates;
		const pages = searchPages(view);
		for (const path of paths) {
			const found = pages.filter((p) => p.pattern === path && !p.regex);
			if (found.length === 0) return { calls: [search(path)] };
			const pointers = found.flatMap((p) => p.hits.flatMap((h) => h.reads)).filter((r) => r.path === path && !r.stale);
			const pointer = pointers.find((r): r is Required<ReadPointer> => r.fold !== undefined);
			if (!pointer) continue;
			const { text, next } = covered(view, pointer);
			if (next < pointer.end)
				return {
					calls: [
						{ name: CONTEXT_TOOL, args: { action: "peek", id: pointer.fold, offset: next, bytes: pointer.end - next } },
					],
				};
			const file = resultText(text);
			const answer = file === undefined ? undefined : answerFromFileText(q, path, file);
			if (answer !== undefined) return { answer };
		}
		return undefined;
	},
};
