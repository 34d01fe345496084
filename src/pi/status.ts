// The status report, for the agent (the `status` action) and the human (`/context`): folds with
// kind, depth, parent, leaves, bytes, brief excerpt and whether collapsed; pending marks (origin,
// what a commit would free, the prefix it would rewrite) and the scheduler's last decision;
// native-compaction decisions, fenced requests and summarizer usage;
// protections; window occupancy against the serving budget (descriptor and total both shown); the
// observer's counters (pure appends, rewrites, unattributed rewrites, provider-side cache misses);
// refusals and why automatic folding is paused. Bounded output with paging. Pure over a snapshot.

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { PlacedFold } from "../lattice/index.ts";
import { estimateTokens } from "../wasm/index.ts";
import { excerpt, plural } from "./actions/shared.ts";
import { markViews, windowTokens } from "./ladder-input.ts";
import type { FoldRuntime } from "./runtime.ts";
import type { Snapshot } from "./snapshot.ts";

/** Fold lines per status page. */
export const STATUS_PAGE_SIZE = 25;

export interface StatusRequest {
	readonly detail?: "summary" | "tree" | "entries" | undefined;
	readonly page?: number | undefined;
}

function occupancy(ctx: Pick<ExtensionContext, "getContextUsage">, snap: Snapshot) {
	const usage = ctx.getContextUsage?.();
	if (usage && typeof usage.tokens === "number") return { tokens: usage.tokens, source: "Pi's context usage" };
	let chars = 0;
	for (const e of snap.view.transcript) chars += JSON.stringify(e.message).length;
	return { tokens: Math.ceil(chars / 4), source: "estimate (chars/4 of the raw transcript)" };
}

/** Pending marks with origin, what a commit would free and the prefix it would rewrite; the scheduler's last word. */
export function schedulingReport(runtime: FoldRuntime, snap: Snapshot) {
	const tokens = windowTokens(snap);
	const views = markViews(snap, tokens);
	const marks = views.map((v) => {
		const mark = snap.state.pendingMarks.get(v.id);
		const origin = mark?.topUp ? "top-up" : (mark?.actor ?? v.actor);
		return {
			id: v.id,
			origin,
			freedTokens: v.freedTokens,
			state: v.protectedBy ? `refuses at commit: ${v.protectedBy}` : v.inFreshTail ? "waits (fresh tail)" : "ready",
		};
	});
	const ready = views.filter((v) => v.protectedBy === null);
	const freed = ready.reduce((sum, v) => sum + v.freedTokens, 0);
	const first = ready.length > 0 ? Math.min(...ready.map((v) => v.start)) : -1;
	return {
		mode: runtime.options.foldScheduling,
		marks,
		commitWouldFreeShare: freed / snap.budget.budgetTokens,
		commitWouldFreeTokens: freed,
		prefixTokensRewritten: first >= 0 ? tokens.range(0, first) : 0,
		lastDecision: runtime.lastSchedule,
	};
}

function schedulingLines(runtime: FoldRuntime, snap: Snapshot): string[] {
	const report = schedulingReport(runtime, snap);
	const lines: string[] = [];
	if (report.marks.length > 0) {
		lines.push(
			`Pending marks: ${report.marks.length} · a commit would free ~${report.commitWouldFreeTokens.toLocaleString("en-US")} tokens (${(report.commitWouldFreeShare * 100).toFixed(1)}% of the serving budget) and rewrite from ~${report.prefixTokensRewritten.toLocaleString("en-US")} prefix tokens on (transcript tokens before the first affected message)`,
		);
		for (const m of report.marks.slice(0, STATUS_PAGE_SIZE))
			lines.push(`  mark ${m.id} · ${m.origin} · ~${m.freedTokens.toLocaleString("en-US")} tokens · ${m.state}`);
	}
	const last = report.lastDecision;
	if (last)
		lines.push(
			`Scheduler (${report.mode}) at the last boundary (${last.at}): ${last.commit ? "committed" : "held"}: ${last.reason} · next request ~${last.occupancyTokens.toLocaleString("en-US")} tokens (${last.occupancySource})`,
		);
	if (runtime.lastReceipt) lines.push(`Last receipt: ${runtime.lastReceipt}`);
	for (const c of runtime.compactions.slice(-3)) lines.push(`Native compaction (${c.reason}): ${c.decision}: ${c.why}`);
	if (runtime.fenced.length > 0)
		lines.push(`Fenced requests: ${runtime.fenced.length} (last: ${runtime.fenced.at(-1)})`);
	const u = runtime.summarizerUsage;
	if (u.calls > 0 || u.fallbacks > 0)
		lines.push(
			`Summarizer: ${u.calls} model brief${u.calls === 1 ? "" : "s"}, ${u.fallbacks} deterministic fallback${u.fallbacks === 1 ? "" : "s"} · usage input ${u.input} · output ${u.output} · cache read ${u.cacheRead} · cache write ${u.cacheWrite}`,
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
	return `${pad}${id} · ${fold.record.kind} · depth ${fold.depth} · parent ${fold.parent ?? "-"} · ${plural(fold.record.leafIds.length, "leaf", "leaves")} · ${plural(fold.record.sourceBytes, "byte")} · ${shown}${hidden}${prot} · "${excerpt(fold.record.brief, 90)}"`;
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
				: excerpt(textOf(first?.message.content), 60);
		lines.push(
			`${unit.kind} · ${ids.length === 1 ? ids[0] : `${ids[0]}..${ids.at(-1)}`} · ${plural(unit.chars, "char")}${fresh} · ${what}`,
		);
	}
	return lines;
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((b) => ((b as { type?: string }).type === "text" ? String((b as { text?: unknown }).text) : ""))
		.join(" ");
}

export function statusReport(
	runtime: FoldRuntime,
	ctx: ExtensionContext,
	request: StatusRequest = {},
): { text: string; details: Record<string, unknown> } {
	const snap = runtime.snapshot(ctx);
	const { state, lattice, budget } = snap;
	const occ = occupancy(ctx, snap);
	const pct = ((occ.tokens / budget.budgetTokens) * 100).toFixed(1);
	const counts = runtime.observer.counts();
	const all = lattice.inOrder();
	const collapsed = all.filter((f) => !state.expanded.has(f.record.id)).length;
	const tree = request.detail === "tree";
	const listed = tree ? all : all.filter((f) => f.parent === null);
	const raw = request.detail === "entries" ? rawUnits(snap) : [];
	const pages = Math.max(1, Math.ceil((request.detail === "entries" ? raw.length : listed.length) / STATUS_PAGE_SIZE));
	const page = Math.min(Math.max(1, request.page ?? 1), pages);
	const lines: string[] = [];
	lines.push(
		`Folds: ${all.length} (${collapsed} collapsed, ${all.length - collapsed} expanded; ${lattice.roots.length} top-level) · pending marks: ${state.pendingMarks.size} (${runtime.options.foldScheduling} scheduling)`,
	);
	lines.push(
		`Window: ${occ.tokens.toLocaleString("en-US")} tokens = ${pct}% of the serving budget ${budget.budgetTokens.toLocaleString("en-US")} (total ${budget.totalWindow.toLocaleString("en-US")} from ${budget.totalWindowSource} − output reservation ${budget.outputReservation.toLocaleString("en-US")}; transport descriptor ${budget.descriptorWindow.toLocaleString("en-US")}) · measured by ${occ.source}`,
	);
	lines.push(
		`Requests ${runtime.baselineNote}: ${counts.requests} · pure appends ${counts.appends} · identical ${counts.identical} · rewrites ${counts.rewrites} (unattributed ${counts.unattributedRewrites}) · provider-side cache misses ${counts.providerCacheMisses}`,
	);
	if (runtime.lastCommit)
		lines.push(
			`Last commit: #${runtime.lastCommit.seq} (${runtime.lastCommit.reason}) · ${plural(runtime.lastCommit.edits, "edit")} · applied ${runtime.lastCommit.applied.join(", ") || "-"}`,
		);
	else lines.push(`Commits on this branch: ${state.commitSeq}`);
	if (runtime.options.evidenceIngestion && (runtime.evidence.records.length > 0 || runtime.evidence.refused > 0))
		lines.push(
			`Evidence artifacts written this session: ${runtime.evidence.records.length} (refused ${runtime.evidence.refused})`,
		);
	const protectedEntries = [...state.protectedEntries];
	if (protectedEntries.length > 0 || state.protectedFolds.size > 0)
		lines.push(
			`Protected: ${protectedEntries.length > 0 ? `entries ${protectedEntries.slice(0, 20).join(", ")}${protectedEntries.length > 20 ? ` and ${protectedEntries.length - 20} more` : ""}` : "no entries"}${state.protectedFolds.size > 0 ? `; folds ${[...state.protectedFolds].join(", ")}` : ""}`,
		);
	if (snap.unplaced.length > 0)
		lines.push(`Not placeable on this branch: ${snap.unplaced.map((u) => `${u.id} (${u.reason})`).join("; ")}`);
	if (snap.view.foreign.size > 0)
		lines.push(`Overridden by another author's context edit: ${[...snap.view.foreign].join(", ")}`);
	lines.push(...schedulingLines(runtime, snap));
	for (const r of runtime.lastCommitRefusals) lines.push(`Refused at the last commit: ${r.foldId}: ${r.reason}`);
	for (const r of state.refusals) lines.push(`Refused record ${r.entryId}: ${r.reason}`);
	const paused = runtime.pauseReason();
	if (paused) lines.push(`Paused: ${paused}`);
	if (request.detail === "entries") {
		lines.push(
			`Raw units, oldest first (fold a span with from/to = entry ids, or tool call ids) · page ${page}/${pages}:`,
		);
		lines.push(...raw.slice((page - 1) * STATUS_PAGE_SIZE, page * STATUS_PAGE_SIZE));
		if (page < pages) lines.push(`More: {"action":"status","detail":"entries","page":${page + 1}}`);
	} else if (listed.length > 0) {
		lines.push(`${tree ? "Fold tree (transcript order)" : "Top-level folds"} · page ${page}/${pages}:`);
		for (const fold of listed.slice((page - 1) * STATUS_PAGE_SIZE, page * STATUS_PAGE_SIZE))
			lines.push(foldLine(snap, fold, tree));
		if (page < pages) lines.push(`More: {"action":"status"${tree ? ',"detail":"tree"' : ""},"page":${page + 1}}`);
	}
	const text = lines.join("\n");
	return {
		text,
		details: {
			action: "status",
			folds: all.length,
			collapsed,
			pendingMarks: state.pendingMarks.size,
			scheduling: schedulingReport(runtime, snap),
			compactions: runtime.compactions,
			fenced: runtime.fenced.length,
			summarizer: runtime.summarizerUsage,
			tokens: occ.tokens,
			budget,
			counters: counts,
			commitSeq: state.commitSeq,
			refusals: state.refusals.length,
			paused,
			page,
			pages,
			statusTokens: estimateTokens(text),
		},
	};
}
