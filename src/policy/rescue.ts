// The last lossless resort before native compaction: when even the deepest ordinary commit would
// leave the next request over the serving budget, stale units fold, whatever their tools, oldest
// first and only as many as the room needed asks for (all of them at most), and the protected tail
// shrinks to the unit in use (the newest one) plus the user message that opened the running turn.
// Each run of such units becomes one span fold, absorbing the tool-batch folds already inside it,
// so the window keeps a handful of briefs and the newest material stays raw as long as there is
// room for it; when a fold in force or one landing in the same commit (a consolidation reaching
// into the run) straddles the run's first unit, the span starts at the first unit boundary past it
// (a run is never lost whole to one fold that cannot nest), and the rest of the run may hold
// another. Protected entries, summaries the host inserted and incomplete tool batches stay raw and
// split the runs; so does a collapsed span, chapter or consolidation: a new span sits beside an
// older one, never around it (wrapping it frees only its brief and deepens the tree by one level
// per commit; the tree's depth comes from consolidation alone). Pure.

import type { Unit } from "../transcript/index.ts";
import type { Proposal } from "./ladder.ts";
import type { WindowTokens } from "./ladder-input.ts";
import { freedByFold, spanOf } from "./ladder-input.ts";
import type { Snapshot } from "./snapshot.ts";
import { EDITABLE_ROLES } from "./span-rules.ts";

/** Fold kinds a new span never wraps: they already stand for a stretch of the conversation with a written brief. */
const WALL_KINDS: ReadonlySet<string> = new Set(["span", "chapter", "consolidation"]);

/** Whether `unit` lies inside a collapsed span, chapter or consolidation (already folded: a new span stops there). */
function walled(snap: Snapshot, unit: Unit): boolean {
	for (const fold of snap.lattice.folds.values())
		if (
			fold.start < unit.end &&
			unit.start < fold.end &&
			WALL_KINDS.has(fold.record.kind) &&
			!snap.state.expanded.has(fold.record.id)
		)
			return true;
	return false;
}

/** Whether `unit` may fold in a rescue: completed, not a summary, nothing protected in it, not already in a span. */
function rescuable(snap: Snapshot, unit: Unit, keep: (unit: Unit) => boolean): boolean {
	if (keep(unit)) return false;
	if (walled(snap, unit)) return false;
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

interface Run {
	readonly start: number;
	/** Entry index after each unit of the run, in order (the last is the run's end). */
	readonly ends: number[];
}

/** Maximal runs of rescuable units, as entry ranges with their unit boundaries. */
function runs(snap: Snapshot, keep: (unit: Unit) => boolean): Run[] {
	const out: Run[] = [];
	let open: Run | null = null;
	for (const unit of snap.units) {
		if (!rescuable(snap, unit, keep)) {
			open = null;
			continue;
		}
		if (open) open.ends.push(unit.end);
		else {
			open = { start: unit.start, ends: [unit.end] };
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

/**
 * The rescue's span folds, oldest first, until they free `need` tokens (default: every stale unit).
 * Each frees its span's visible tokens less one placeholder; the last span ends at the first unit
 * boundary where the room is made and the span nests with the folds and marks in force and with the
 * other folds `alongside` it in the same commit. Units `keep` names stay raw as well (a caller's
 * extra protection).
 */
export function rescueProposals(
	snap: Snapshot,
	tokens: WindowTokens,
	need = Number.POSITIVE_INFINITY,
	keep: (unit: Unit) => boolean = () => false,
	alongside: readonly { start: number; end: number }[] = [],
): Proposal[] {
	const out: Proposal[] = [];
	const taken = [...ranges(snap), ...alongside];
	let freed = 0;
	for (const run of runs(snap, keep)) {
		// A span starts at the run's first unit boundary from which it can nest; the rest of the run may
		// hold another past its end.
		let from = run.start;
		for (const start of [run.start, ...run.ends.slice(0, -1)]) {
			if (freed >= need) break;
			if (start < from) continue;
			const freedTo = (end: number) => freedByFold(snap, start, end, tokens.range(start, end));
			const ends = run.ends.filter((end) => end > start && placeable(snap, start, end, taken));
			const end = ends.find((e) => freed + freedTo(e) >= need) ?? ends.at(-1);
			if (end === undefined || freedTo(end) <= 0) continue;
			out.push({ rung: "rescue", start, end, freedTokens: freedTo(end) });
			freed += freedTo(end);
			from = end;
		}
	}
	return out;
}
