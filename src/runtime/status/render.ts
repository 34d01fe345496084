// Renders the status model as bounded, paged text with structured details: the headline lines
// (folds in the window, summarized by Pi and unreadable, window against the serving budget, the observer's counters, the last commit), then
// protections, refusals, the scheduler and the fold list (top-level, the whole tree, or the raw
// units with their entry ids). The same text serves the `status` action and `/context`; unsafe
// characters in it (a brief from an old record, a tool or file name) are escaped visibly. Pure.

import { escapeUnsafe, plural } from "../../common/index.ts";
import type { PlacedFold } from "../../lattice/index.ts";
import type { Snapshot } from "../../policy/index.ts";
import { contentText } from "../../transcript/index.ts";
import { estimateTokens } from "../../wasm/index.ts";
import { oneLineExcerpt } from "../actions/shared.ts";
import { foldCounts, type SummarizedFold } from "../fold-forest.ts";
import { hostThresholdWords, reservationWords } from "./budget-words.ts";
import type { StatusModel } from "./model.ts";
import { foldsClause } from "./words.ts";

/** Fold lines per status page. */
const STATUS_PAGE_SIZE = 25;
/** Protected entry ids listed before "and N more". */
const PROTECTED_LISTED = 20;
/** Native compaction decisions listed (the newest). */
const COMPACTIONS_LISTED = 3;

interface StatusRequest {
	readonly detail?: "summary" | "tree" | "entries" | undefined;
	readonly page?: number | undefined;
}

const fmt = (n: number) => n.toLocaleString("en-US");

function headline(m: StatusModel): string[] {
	const { snap, budget, usage: u, telemetry: t } = m;
	const c = t.counters;
	// One occupancy figure, the one Pi's footer shows; the budget in tokens beside it.
	const used =
		u.tokens === null || u.percent === null
			? `unknown until the next response, of the model's ${fmt(u.window)}-token window`
			: `${fmt(u.tokens)} tokens = ${u.percent.toFixed(1)}% of the model's ${fmt(u.window)}-token window (${u.fromHost ? "Pi's context usage, as its footer shows" : m.occupancy.source})`;
	const lines = [
		// Folds counted as /context and the footer count them: the top-level ones, nested ones beside.
		`Folds: ${m.forest.total === 0 ? "none yet" : foldsClause(foldCounts(m.forest, snap.state.expanded))} · pending marks: ${snap.state.pendingMarks.size} (${m.scheduling.mode} scheduling)`,
		`Window: ${used} · serving budget ${fmt(budget.budgetTokens)} tokens (total ${fmt(budget.totalWindow)} from ${budget.totalWindowSource} less ${reservationWords(budget)}${hostThresholdWords(budget) === null ? "" : `; ${hostThresholdWords(budget)}`})`,
		`Requests ${t.baseline} (system prompt, tools and messages digested): ${c.requests} · pure appends ${c.appends} · identical ${c.identical} · rewrites ${c.rewrites} (unattributed ${c.unattributedRewrites}) · provider-side cache misses ${c.providerCacheMisses}`,
	];
	if (t.wire)
		lines.push(
			`On the wire (each body as it left): ${t.wire.requests} · pure appends ${t.wire.appends} · rewrites ${t.wire.rewrites} (unattributed ${t.wire.unattributedRewrites})`,
		);
	const last = t.commit;
	lines.push(
		last
			? `Last commit: #${last.seq} (${last.reason}) · ${plural(last.edits, "edit")} · applied ${last.applied.join(", ") || "-"}`
			: `Commits on this branch: ${snap.state.commitSeq}`,
	);
	return lines;
}

function protectionLines(snap: Snapshot): string[] {
	const entries = [...snap.state.protectedEntries];
	const folds = [...snap.state.protectedFolds];
	if (entries.length === 0 && folds.length === 0) return [];
	const more = entries.length > PROTECTED_LISTED ? ` and ${entries.length - PROTECTED_LISTED} more` : "";
	const listed = entries.length > 0 ? `entries ${entries.slice(0, PROTECTED_LISTED).join(", ")}${more}` : "no entries";
	return [`Protected: ${listed}${folds.length > 0 ? `; folds ${folds.join(", ")}` : ""}`];
}

function schedulingLines(m: StatusModel): string[] {
	const s = m.scheduling;
	const t = m.telemetry;
	const lines: string[] = [];
	if (s.marks.length > 0) {
		lines.push(
			`Pending marks: ${s.marks.length} · a commit would free ~${fmt(s.commitWouldFreeTokens)} tokens (${(s.commitWouldFreeShare * 100).toFixed(1)}% of the serving budget) and rewrite from ~${fmt(s.prefixTokensRewritten)} prefix tokens on (transcript tokens before the first affected message)`,
		);
		for (const mark of s.marks.slice(0, STATUS_PAGE_SIZE))
			lines.push(`  mark ${mark.id} · ${mark.origin} · ~${fmt(mark.freedTokens)} tokens · ${mark.state}`);
	}
	const last = s.lastDecision;
	if (last)
		lines.push(
			`Scheduler (${s.mode}) at the last boundary (${last.at}): ${last.commit ? "committed" : "waiting"}: ${last.reason.replace(/^holding: /, "")} · next request ~${fmt(last.occupancyTokens)} tokens (${last.occupancySource})`,
		);
	if (t.receipt) lines.push(`Last receipt: ${t.receipt}`);
	for (const c of t.compactions.recent.slice(-COMPACTIONS_LISTED))
		lines.push(`Native compaction (${c.reason}): ${c.decision}: ${c.why}`);
	if (t.fenced.total > 0) lines.push(`Fenced requests: ${t.fenced.total} (last: ${t.fenced.recent.at(-1)})`);
	const u = t.briefs;
	if (u.calls > 0 || u.fallbacks > 0)
		lines.push(
			`Summarizer: ${plural(u.calls, "model brief")}, ${plural(u.fallbacks, "deterministic fallback")} · usage input ${u.input} · output ${u.output} · cache read ${u.cacheRead} · cache write ${u.cacheWrite}`,
		);
	return lines;
}

function foldLine(snap: Snapshot, fold: PlacedFold, indent: boolean): string {
	const id = fold.record.id;
	const shown = snap.state.expanded.has(id) ? "expanded" : "collapsed";
	const hidden = snap.lattice.ancestors(id).some((a) => !snap.state.expanded.has(a.record.id))
		? ", inside a collapsed fold"
		: "";
	const prot = snap.state.protectedFolds.has(id) ? ", protected" : "";
	const pad = indent ? "  ".repeat(fold.depth) : "";
	return `${pad}${id} · ${fold.record.kind} · depth ${fold.depth} · parent ${fold.parent ?? "-"} · ${plural(fold.record.leafIds.length, "leaf", "leaves")} · ${plural(fold.record.sourceBytes, "byte")} · ${shown}${hidden}${prot} · "${oneLineExcerpt(fold.record.brief, 90)}"`;
}

/** A fold Pi's compaction summarized: its record, nested among the other summarized folds. */
function summarizedLine(fold: SummarizedFold, indent: boolean): string {
	const r = fold.record;
	const pad = indent ? "  ".repeat(fold.depth) : "";
	return `${pad}${r.id} · ${r.kind} · depth ${fold.depth} · parent ${fold.parent ?? "-"} · ${plural(r.leafIds.length, "leaf", "leaves")} · ${plural(r.sourceBytes, "byte")} · summarized by Pi, still readable (peek or search it) · "${oneLineExcerpt(r.brief, 90)}"`;
}

/** One line per raw unit outside every collapsed fold: kind, entry ids, size, a short excerpt. */
function rawUnits(snap: Snapshot): string[] {
	const visible = new Set<string>();
	for (const item of snap.lattice.visible(snap.state.expanded)) if (item.type === "entry") visible.add(item.id);
	const lines: string[] = [];
	for (const unit of snap.units) {
		const ids = unit.entryIds.filter((id) => visible.has(id));
		if (ids.length === 0) continue;
		const first = snap.view.transcript[unit.start];
		const fresh =
			unit.index >= snap.freshUnit ? " · fresh tail" : unit.index === snap.runningUnit ? " · running turn" : "";
		const what =
			unit.kind === "toolBatch"
				? `${unit.toolNames.join(", ")}${unit.complete ? "" : " (incomplete)"}`
				: oneLineExcerpt(contentText(first?.message.content), 60);
		const span = ids.length === 1 ? ids[0] : `${ids[0]}..${ids.at(-1)}`;
		lines.push(`${unit.kind} · ${span} · ${plural(unit.chars, "char")}${fresh} · ${what}`);
	}
	return lines;
}

function titleOf(request: StatusRequest): string {
	if (request.detail === "entries")
		return "Raw units, oldest first (fold a span with from/to = entry ids, or tool call ids)";
	return request.detail === "tree" ? "Fold tree (transcript order)" : "Top-level folds";
}

/** The listing a request asks for (raw units or folds), one page of it, with the "more" pointer. */
function listing(m: StatusModel, request: StatusRequest): { lines: string[]; page: number; pages: number } {
	const entries = request.detail === "entries";
	const tree = request.detail === "tree";
	// Summarized folds first: Pi's compaction summarizes the oldest entries.
	const summarized = (tree ? m.forest.summarized : m.forest.summarized.filter((f) => f.parent === null)).map((f) =>
		summarizedLine(f, tree),
	);
	const items = entries
		? rawUnits(m.snap)
		: [
				...summarized,
				...(tree ? m.folds : m.folds.filter((f) => f.parent === null)).map((f) => foldLine(m.snap, f, tree)),
			];
	const pages = Math.max(1, Math.ceil(items.length / STATUS_PAGE_SIZE));
	const page = Math.min(Math.max(1, request.page ?? 1), pages);
	// An explicit listing always says which page it is, even empty (a reader pages by it).
	if (items.length === 0)
		return { lines: request.detail ? [`${titleOf(request)} · page 1/1:`, "(none)"] : [], page, pages };
	const title = titleOf(request);
	const lines = [
		`${title} · page ${page}/${pages}:`,
		...items.slice((page - 1) * STATUS_PAGE_SIZE, page * STATUS_PAGE_SIZE),
	];
	const detail = entries ? ',"detail":"entries"' : tree ? ',"detail":"tree"' : "";
	if (page < pages) lines.push(`More: {"action":"status"${detail},"page":${page + 1}}`);
	return { lines, page, pages };
}

/** The status text and its structured details. */
export function renderStatus(
	m: StatusModel,
	request: StatusRequest = {},
): { text: string; details: Record<string, unknown> } {
	const { snap, telemetry: t } = m;
	const lines = [...headline(m)];
	if (m.evidenceIngestion && (t.evidence.written > 0 || t.evidence.refused > 0))
		lines.push(
			`Tool results shown as excerpts this session: ${t.evidence.written} (${t.evidence.refused} left whole at the cap)`,
		);
	lines.push(...protectionLines(snap));
	if (m.forest.unreadable.length > 0)
		lines.push(`Unreadable: ${m.forest.unreadable.map((u) => `${u.record.id} (${u.reason})`).join("; ")}`);
	if (snap.view.foreign.size > 0)
		lines.push(`Overridden by another author's context edit: ${[...snap.view.foreign].join(", ")}`);
	lines.push(...schedulingLines(m));
	for (const r of t.commitRefusals) lines.push(`Refused at the last commit: ${r.foldId}: ${r.reason}`);
	for (const r of snap.state.refusals) lines.push(`Refused record ${r.entryId}: ${r.reason}`);
	if (m.paused) lines.push(`Paused: ${m.paused}`);
	const list = listing(m, request);
	lines.push(...list.lines);
	const text = escapeUnsafe(lines.join("\n"));
	return {
		text,
		details: {
			action: "status",
			folds: m.forest.total,
			inWindow: m.folds.length,
			summarized: m.forest.summarized.length,
			unreadable: m.forest.unreadable.map((u) => ({ id: u.record.id, reason: u.reason })),
			collapsed: m.collapsed,
			pendingMarks: snap.state.pendingMarks.size,
			scheduling: m.scheduling,
			compactions: t.compactions.recent,
			fenced: t.fenced.total,
			summarizer: t.briefs,
			tokens: m.occupancy.tokens,
			budget: m.budget,
			counters: t.counters,
			commitSeq: snap.state.commitSeq,
			refusals: snap.state.refusals.length,
			paused: m.paused,
			page: list.page,
			pages: list.pages,
			statusTokens: estimateTokens(text),
		},
	};
}
