// How the scripted agent recovers a fact a question asks for: a chain of routes tried in order. The visible
// route reads the fact off the window; an arm may add routes (a pi-fold arm: find the brief's handle, then peek
// or expand); the reread route reads the file from disk again (the harness counts it). A route answers, asks for
// tool calls (the next request then sees their results), or passes. Pure functions.

import { countLines, definitionLine } from "./facts.ts";
import { RECEIPT_LINE } from "./protocol.ts";
import { callsSince, type QuestionView, type StageView, visibleTexts, type WindowView } from "./window-view.ts";

export interface ToolCallSpec {
	name: string;
	args: Record<string, unknown>;
}

/** An answer (with `via` naming where it really came from, when that differs from the route), tool calls, or a pass. */
export type RouteOutcome = { answer: string; via?: string } | { calls: ToolCallSpec[] } | undefined;

export interface RecoveryRoute {
	/** Short name, recorded with every answer it produced. */
	name: string;
	resolve(question: QuestionView, view: WindowView, stage: StageView): RouteOutcome;
}

/** What the question is about, taken from its text: the file, the symbol, the candidate files. */
export function questionTarget(q: QuestionView): { file?: string; symbol?: string; candidates: string[] } {
	switch (q.kind) {
		case "line-count":
			return { file: q.quoted[0], candidates: [] };
		case "definition-line":
			return { file: q.quoted[0], symbol: q.quoted[1], candidates: [] };
		case "defining-file":
			return { symbol: q.quoted[0], candidates: q.quoted.slice(1) };
		default:
			return { candidates: [] };
	}
}

/**
 * Answers a file question from the exact text of `path`, or undefined when that text does not settle it.
 * Any route that obtains a file's text (a read, a peek, an expansion) can answer with this.
 */
export function answerFromFileText(q: QuestionView, path: string, text: string): string | undefined {
	const target = questionTarget(q);
	if (q.kind === "line-count" && target.file === path) return String(countLines(text));
	if (q.kind === "definition-line" && target.file === path && target.symbol) {
		const line = definitionLine(text, target.symbol);
		return line === undefined ? undefined : String(line);
	}
	// A reuse question names no candidates ("which file defines `S`?"): any file whose text defines it answers.
	if (
		q.kind === "defining-file" &&
		target.symbol &&
		(target.candidates.length === 0 || target.candidates.includes(path))
	)
		return definitionLine(text, target.symbol) === undefined ? undefined : path;
	return undefined;
}

/** A receipt for `stage` anywhere in the visible texts (stage results, summaries). */
export function visibleReceipt(view: WindowView, stage: number): string | undefined {
	for (const text of visibleTexts(view))
		for (const m of text.matchAll(RECEIPT_LINE)) if (Number(m[1]) === stage) return m[2] as string;
	return undefined;
}

export const visibleRoute: RecoveryRoute = {
	name: "window",
	resolve(q, view, stage) {
		if (q.kind === "receipt") {
			if (q.aboutStage === undefined) return undefined;
			for (const m of view.results.flatMap((r) => [...r.text.matchAll(RECEIPT_LINE)]))
				if (Number(m[1]) === q.aboutStage) return { answer: m[2] as string };
			const fromSummary = visibleReceipt(view, q.aboutStage);
			return fromSummary ? { answer: fromSummary, via: "summary" } : undefined;
		}
		const target = questionTarget(q);
		const paths = target.file
			? [target.file]
			: target.candidates.length > 0
				? target.candidates
				: [...view.reads.keys()];
		for (const path of paths) {
			const read = view.reads.get(path);
			const answer = read ? answerFromFileText(q, path, read.text) : undefined;
			// A read made after the stage opened, of a file the stage did not list, was a reread for this question.
			const reread = read !== undefined && read.index > stage.index && !stage.files.includes(path);
			if (answer !== undefined && read?.toolName !== "read") return { answer, via: "peek" };
			// An old read back in view after an expand this stage is the expand's answer.
			const expanded = callsSince(view, stage.index).some((c) => c.args.action === "expand");
			if (answer !== undefined && expanded && (read?.index ?? 0) < stage.index) return { answer, via: "expand" };
			if (answer !== undefined) return reread ? { answer, via: "reread" } : { answer };
		}
		const fromSummary = q.kind === "line-count" && target.file ? summaryLineCount(view, target.file) : undefined;
		return fromSummary ? { answer: fromSummary, via: "summary" } : undefined;
	},
};

/** A file's line count as a visible compaction summary names it ("<file> (120 lines)"). */
export function summaryLineCount(view: WindowView, file: string): string | undefined {
	const named = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\((\\d+) lines\\)`);
	for (const text of view.userTexts) {
		if (!text.includes("<summary>")) continue;
		const m = named.exec(text);
		if (m) return m[1] as string;
	}
	return undefined;
}

export const rereadRoute: RecoveryRoute = {
	name: "reread",
	resolve(q, view, stage) {
		if (q.kind === "receipt") return undefined; // a receipt was never on disk
		const tried = new Set(
			callsSince(view, stage.index)
				.filter((c) => c.name === "read")
				.map((c) => String(c.args.path)),
		);
		const target = questionTarget(q);
		const paths = target.file ? [target.file] : target.candidates;
		// One file at a time, in the order the question names them; never the same file twice in a stage.
		const next = paths.find((p) => !view.reads.has(p) && !tried.has(p));
		return next ? { calls: [{ name: "read", args: { path: next } }] } : undefined;
	},
};

export const UNKNOWN_ANSWER = "unknown";
