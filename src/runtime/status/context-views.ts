// `/context` for the human, in plain words: first a headline (the window used, the same figure as
// Pi's footer; pi-fold's limit; the top-level folds the listing lists, each counted once: in the
// window, summarized by Pi and still readable, or unreadable, with those nested inside beside them;
// the last commit and what it freed, from its record after a reload), then one page of a
// listing (the top-level folds, the whole fold tree, or the unfolded entries with the ids a fold
// names), then the slash commands that act on it. Every size is in estimated tokens, the unit of
// the window figure above it. Lines fit an 80-column terminal. The scheduler,
// observer and cache details are details.ts. Pure over the status model.

import { plural } from "../../common/index.ts";
import type { PlacedFold } from "../../lattice/index.ts";
import { requestMessageTokens, type Snapshot } from "../../policy/index.ts";
import { contentText } from "../../transcript/index.ts";
import { oneLineExcerpt } from "../actions/shared.ts";
import type { CommitBody } from "../commit/index.ts";
import { type FoldCounts, foldCounts, type SummarizedFold } from "../fold-forest.ts";
import type { CommitNote } from "../telemetry.ts";
import { commitClause, commitFacts } from "./commit.ts";
import type { StatusModel } from "./model.ts";
import { foldsClause, kindLabel } from "./words.ts";

/** The views of `/context`: the summary, every fold nested, the unfolded entries, the details. */
export const CONTEXT_VIEWS = ["summary", "tree", "entries", "details"] as const;
export type ContextView = (typeof CONTEXT_VIEWS)[number];

/** The command names the replies point at (options.commandNames). */
export interface CommandNames {
	readonly status: string;
	readonly fold: string;
}

/** Folds per page of the human's listing (two lines each). */
const HUMAN_FOLD_PAGE = 12;
/** Entries per page of the human's entries listing. */
const HUMAN_ENTRY_PAGE = 20;
/** Columns the views are laid out for (an 80-column terminal less Pi's padding). */
export const VIEW_WIDTH = 78;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Bytes of a fold's stored source per token, for a fold whose entries are no longer in the window. */
const SOURCE_BYTES_PER_TOKEN = 4;

/** A size as the person reads every size: estimated tokens. */
function tokens(n: number): string {
	return `~${fmt(n)} ${n === 1 ? "token" : "tokens"}`;
}

/** Estimated tokens of `entries` of the transcript, as the window counts them. */
function entriesTokens(snap: Snapshot, start: number, end: number): number {
	return requestMessageTokens(snap.view.transcript.slice(start, end).map((e) => e.message));
}

/** The window line: Pi's own figure when Pi supplied it, else the estimate, said so. */
export function usageLine(m: StatusModel): string {
	const u = m.usage;
	if (u.tokens === null || u.percent === null)
		return `Context window: ${fmt(u.window)} tokens; how much is used is unknown until the next response`;
	if (!u.fromHost)
		return `Context window: about ${u.percent.toFixed(1)}% used (~${fmt(u.tokens)} of ${fmt(u.window)} tokens, estimated)`;
	return `Context window: ${u.percent.toFixed(1)}% used (${fmt(u.tokens)} of ${fmt(u.window)} tokens), as in Pi's footer`;
}

/** pi-fold's limit for a request, in the window's terms. */
export function budgetLine(m: StatusModel): string {
	const b = m.budget;
	const reply = `leaving ${fmt(b.outputReservation)} for the reply`;
	if (b.totalWindowSource === "providerTotalWindow")
		return `pi-fold's limit: ${fmt(b.budgetTokens)} tokens (providerTotalWindow ${fmt(b.totalWindow)}), ${reply}`;
	return `pi-fold's limit: ${fmt(b.budgetTokens)} tokens (${((b.budgetTokens / m.usage.window) * 100).toFixed(1)}%), ${reply}`;
}

/** The folds line of the headline: the top-level folds the listing shows, nested ones beside them. */
function foldsLine(m: StatusModel): string {
	const marks = m.snap.state.pendingMarks.size;
	const marked = marks > 0 ? ` · ${plural(marks, "part")} marked to fold` : "";
	if (m.forest.total === 0) return `Folds: none yet${marked}`;
	return `Folds: ${foldsClause(foldCounts(m.forest, m.snap.state.expanded))}${marked}`;
}

/** The last commit as its record on the branch holds it (after a resume or reload the telemetry has none). */
function recordedCommit(m: StatusModel): CommitNote | null {
	const seq = m.snap.state.commitSeq;
	for (let i = m.snap.view.records.length - 1; i >= 0; i--) {
		const body = m.snap.view.records[i]?.data as CommitBody | undefined;
		if (body?.kind === "commit" && body.seq === seq && Array.isArray(body.applied))
			return {
				seq,
				reason: body.reason,
				edits: body.edits.length,
				applied: body.applied,
				freedTokens: 0,
				force: body.force,
			};
	}
	return null;
}

function lastCommitLine(m: StatusModel): string {
	const note = m.telemetry.commit ?? recordedCommit(m);
	if (note) {
		const f = commitFacts(note, m.snap, undefined, m.pricesAssumed);
		return `Last commit: #${f.seq}${f.when ? ` ${f.when}` : ""}: ${commitClause(f)}`;
	}
	const seq = m.snap.state.commitSeq;
	return seq > 0 ? `Commits on this branch: ${seq}` : "No commit yet: the window is as Pi built it";
}

/** The headline every human view starts with. */
function headlineLines(m: StatusModel): string[] {
	const lines = [usageLine(m), budgetLine(m), foldsLine(m), lastCommitLine(m)];
	if (m.paused) lines.push(`Automatic folding is paused: ${m.paused.replace(/^automatic folding paused: /, "")}`);
	return lines;
}

function stateOf(snap: Snapshot, fold: PlacedFold): string {
	const id = fold.record.id;
	const hidden = snap.lattice.ancestors(id).some((a) => !snap.state.expanded.has(a.record.id));
	const shown = hidden ? "inside a collapsed fold" : snap.state.expanded.has(id) ? "expanded" : "collapsed";
	return snap.state.protectedFolds.has(id) ? `${shown}, protected` : shown;
}

/** Two lines per fold: what it is, then the start of its brief. */
function foldLines(snap: Snapshot, fold: PlacedFold, indent: boolean): string[] {
	const pad = indent ? "  ".repeat(fold.depth) : "";
	const r = fold.record;
	const head = `  ${pad}${r.id} · ${kindLabel(r.kind)} · ${plural(r.leafIds.length, "entry", "entries")} · ${tokens(entriesTokens(snap, fold.start, fold.end))} · ${stateOf(snap, fold)}`;
	return [head, `  ${pad}  "${oneLineExcerpt(r.brief, VIEW_WIDTH - pad.length - 6)}"`];
}

/** Two lines per fold Pi's compaction summarized: what it is, then the start of its brief. */
function summarizedLines(fold: SummarizedFold, indent: boolean): string[] {
	const pad = indent ? "  ".repeat(fold.depth) : "";
	const r = fold.record;
	const head = `  ${pad}${r.id} · ${kindLabel(r.kind)} · ${plural(r.leafIds.length, "entry", "entries")} · ${tokens(Math.ceil(r.sourceBytes / SOURCE_BYTES_PER_TOKEN))} · summarized by Pi`;
	return [head, `  ${pad}  still readable: "${oneLineExcerpt(r.brief, VIEW_WIDTH - pad.length - 22)}"`];
}

const UNIT_WORDS: Record<string, string> = {
	user: "you",
	assistant: "assistant",
	toolBatch: "tool calls",
	summary: "summary",
	orphan: "tool result",
};

/** One line per unit outside every collapsed fold: the ids a fold names, who, and what. */
function entryLines(snap: Snapshot): string[] {
	const visible = new Set<string>();
	for (const item of snap.lattice.visible(snap.state.expanded)) if (item.type === "entry") visible.add(item.id);
	const out: string[] = [];
	for (const unit of snap.units) {
		const ids = unit.entryIds.filter((id) => visible.has(id));
		if (ids.length === 0) continue;
		const span = ids.length === 1 ? (ids[0] as string) : `${ids[0]}..${ids.at(-1)}`;
		const recent = unit.index >= snap.freshUnit || unit.index === snap.runningUnit ? " (recent)" : "";
		const who = UNIT_WORDS[unit.kind] ?? unit.kind;
		const what =
			unit.kind === "toolBatch"
				? `${unit.toolNames.join(", ")}${unit.complete ? "" : " (running)"}, ${tokens(entriesTokens(snap, unit.start, unit.end))}`
				: `"${oneLineExcerpt(contentText(snap.view.transcript[unit.start]?.message.content), 40)}"`;
		out.push(`  ${span.padEnd(18)} ${who}: ${what}${recent}`);
	}
	return out;
}

/** One page of `items` (each a group of lines) with its title and the next page's command. */
function page(
	items: readonly string[][],
	perPage: number,
	want: number | undefined,
	title: string,
	next: (page: number) => string,
) {
	const pages = Math.max(1, Math.ceil(items.length / perPage));
	const at = Math.min(Math.max(1, want ?? 1), pages);
	const shown = items.slice((at - 1) * perPage, at * perPage).flat();
	const lines = [pages > 1 ? `${title} (page ${at} of ${pages}):` : `${title}:`, ...shown];
	if (at < pages) lines.push(`Next page: ${next(at + 1)}`);
	return lines;
}

/** The summary, tree or entries view (details: details.ts). */
export function renderContext(
	m: StatusModel,
	view: Exclude<ContextView, "details">,
	cmd: CommandNames,
	pageNumber?: number,
): string {
	const lines = headlineLines(m);
	const s = `/${cmd.status}`;
	const f = `/${cmd.fold}`;
	if (view === "entries") {
		const items = entryLines(m.snap).map((l) => [l]);
		if (items.length === 0) lines.push("Every entry is inside a collapsed fold.");
		else
			lines.push(
				...page(
					items,
					HUMAN_ENTRY_PAGE,
					pageNumber,
					"Unfolded entries, oldest first; recent ones stay raw",
					(p) => `${s} entries ${p}`,
				),
			);
		lines.push(`Fold some of them: ${f} fold <first-id> <last-id> [brief]`);
		return lines.join("\n");
	}
	const tree = view === "tree";
	const folds = tree ? m.folds : m.folds.filter((x) => x.parent === null);
	const summarized = tree ? m.forest.summarized : m.forest.summarized.filter((x) => x.parent === null);
	if (folds.length + summarized.length > 0) {
		// Summarized folds first: Pi's compaction summarizes the oldest entries.
		const items = [...summarized.map((x) => summarizedLines(x, tree)), ...folds.map((x) => foldLines(m.snap, x, tree))];
		const title = tree ? "Every fold, nested, oldest first" : "Folds, oldest first";
		lines.push(...page(items, HUMAN_FOLD_PAGE, pageNumber, title, (p) => (tree ? `${s} tree ${p}` : `${s} ${p}`)));
		lines.push(`Read one: ${f} peek <id> · restore it: ${f} expand <id>`);
	} else lines.push(`Fold entries yourself: ${f} fold <first-id> <last-id> (${s} entries lists the ids)`);
	lines.push(`More: ${s} details · ${s} tree · ${s} entries`);
	return lines.join("\n");
}

/**
 * The compact footer item: the top-level folds, counted as /context's headline counts them (those
 * Pi's compaction summarized among them, and those expanded, said so), and marks waiting to fold. No percentage: Pi's own
 * footer shows the window's, refreshed as it changes, and a second figure could only lag behind it.
 */
export function footerText(counts: FoldCounts | null, marks: number): string {
	const n = counts ? counts.inWindow + counts.summarized + counts.unreadable : 0;
	const bypi = counts && counts.summarized > 0 ? ` (${counts.summarized} summarized by Pi)` : "";
	// As /context's headline says it: how many of those in the window are expanded (after expand-all, all).
	const expanded = counts && counts.expanded > 0 ? `, ${counts.expanded} expanded` : "";
	const marked = marks > 0 ? `, ${marks} marked` : "";
	return `pi-fold: ${n === 0 ? "no folds" : plural(n, "fold")}${bypi}${expanded}${marked}`;
}
