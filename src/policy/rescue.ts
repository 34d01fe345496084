// The last lossless resort before native compaction: when even the deepest ordinary commit would
// leave the next request over the serving budget, every stale unit folds, whatever its tools, and
// the protected tail shrinks to the unit in use (the newest one) plus the user message that opened
// the running turn. Each maximal run of such units becomes one span fold, absorbing the folds
// already inside it, so the window keeps a handful of briefs. Protected entries, summaries the host
// inserted and incomplete tool batches stay raw and split the runs. Pure.

import type { Unit } from "../transcript/index.ts";
import type { Proposal } from "./ladder.ts";
import type { WindowTokens } from "./ladder-input.ts";
import { PLACEHOLDER_TOKENS_ESTIMATE, spanOf } from "./ladder-input.ts";
import type { Snapshot } from "./snapshot.ts";
import { EDITABLE_ROLES } from "./span-rules.ts";

/** Whether `unit` may fold in a rescue: completed, not a summary, nothing protected in it. */
function rescuable(snap: Snapshot, unit: Unit): boolean {
	if (unit.kind === "summary" || unit.kind === "orphan") return false;
	if (unit.kind === "toolBatch" && !unit.complete) return false;
	if (unit.index === snap.runningUnit || unit.index === snap.units.length - 1) return false;
	if (unit.entryIds.some((id) => snap.state.protectedEntries.has(id))) return false;
	for (const id of snap.state.protectedFolds) {
		const fold = snap.lattice.get(id);
		if (fold && fold.start < unit.end && unit.start < fold.end) return false;
	}
	return true;
}

/** Maximal runs of rescuable units, as entry ranges. */
function runs(snap: Snapshot): { start: number; end: number }[] {
	const out: { start: number; end: number }[] = [];
	let open: { start: number; end: number } | null = null;
	for (const unit of snap.units) {
		if (!rescuable(snap, unit)) {
			open = null;
			continue;
		}
		if (open) open.end = unit.end;
		else {
			open = { start: unit.start, end: unit.end };
			out.push(open);
		}
	}
	return out;
}

/** Entry ranges of the folds in force and of the pending marks: a rescue span must nest with each. */
function ranges(snap: Snapshot): { start: number; end: number }[] {
	const out = [...snap.lattice.folds.values()].map((f) => ({ start: f.start, end: f.end }));
	for (const mark of snap.state.pendingMarks.values()) {
		const span = spanOf(snap, mark.fold.leafIds);
		if (span) out.push(span);
	}
	return out;
}

/** Whether a fold over [start, end) would nest with every fold and mark and can carry a brief. */
function placeable(
	snap: Snapshot,
	start: number,
	end: number,
	taken: readonly { start: number; end: number }[],
): boolean {
	const first = snap.view.transcript[start];
	if (!first || !EDITABLE_ROLES.has(first.message.role)) return false;
	for (const r of taken) {
		if (r.start === start && r.end === end) return false;
		const overlaps = r.start < end && start < r.end;
		if (overlaps && !(start <= r.start && r.end <= end)) return false;
	}
	return true;
}

/** The rescue's span folds, oldest first: each frees its run's visible tokens less one placeholder. */
export function rescueProposals(snap: Snapshot, tokens: WindowTokens): Proposal[] {
	const out: Proposal[] = [];
	const taken = ranges(snap);
	for (const run of runs(snap)) {
		if (!placeable(snap, run.start, run.end, taken)) continue;
		const freedTokens = Math.max(0, tokens.range(run.start, run.end) - PLACEHOLDER_TOKENS_ESTIMATE);
		if (freedTokens > 0) out.push({ rung: "rescue", start: run.start, end: run.end, freedTokens });
	}
	return out;
}
