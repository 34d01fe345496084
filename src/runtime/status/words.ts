// The words a person reads for pi-fold's internal terms: a fold's kind (a round of tool calls, a
// prompt with its answer, ...) in the listing, the commit line and the replies to slash commands.
// "fold" and "brief" are the two terms that stay (README names them); nothing else of pi-fold's
// vocabulary (span, chapter, consolidation, tool batch, epoch, boundary) reaches the person; and
// the one way folds are counted in words, for the person's views and the agent's status alike. Pure.

import type { FoldKind } from "../../lattice/index.ts";
import type { FoldCounts } from "../fold-forest.ts";

/** A fold's kind as one line of the listing names it. */
const KIND_LABEL: Record<FoldKind, string> = {
	tools: "tool calls",
	chapter: "prompt and answer",
	span: "messages",
	consolidation: "earlier folds merged",
	result: "oversized tool result",
};

/** A fold's kind counted in a sentence: one, many. */
export const KIND_COUNTED: Record<FoldKind, [string, string]> = {
	tools: ["round of tool calls", "rounds of tool calls"],
	chapter: ["prompt with its answer", "prompts with their answers"],
	span: ["run of messages", "runs of messages"],
	consolidation: ["merge of earlier folds", "merges of earlier folds"],
	result: ["oversized tool result", "oversized tool results"],
};

/** The label of a kind the table may not know (a record from a newer version). */
export function kindLabel(kind: string): string {
	return (KIND_LABEL as Record<string, string>)[kind] ?? kind;
}

/** What the folds amount to, counted as the listing and the footer count them (fold-forest.ts foldCounts). */
export function foldsClause(c: FoldCounts): string {
	const parts = [
		...(c.inWindow > 0 ? [`${c.inWindow} in the window${c.expanded > 0 ? ` (${c.expanded} expanded)` : ""}`] : []),
		...(c.summarized > 0 ? [`${c.summarized} summarized by Pi, still readable`] : []),
		...(c.unreadable > 0 ? [`${c.unreadable} unreadable`] : []),
	];
	const listed = c.inWindow + c.summarized + c.unreadable;
	const nested = c.all > listed ? ` · ${c.all} counting those nested inside` : "";
	return `${parts.join(", ")}${nested}`;
}
