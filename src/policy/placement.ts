// Placement (commit-plan.ts decides it, the runtime builds the placed state): the marks a commit applies, placed as folds one at a
// time on the state after the ladder's decisions were recorded; a mark that does not nest with the
// folds placed before it is refused by name, and the plan's own refusals (protected evidence) come
// along. Also: the pending marks a native compaction left with nothing to fold. Pure.

import { errorMessage } from "../common/index.ts";
import { type FoldRecord, NestingSet } from "../lattice/index.ts";
import type { FoldState } from "../state/index.ts";
import type { SchedulePlan } from "./schedule.ts";
import { buildSnapshot, type Snapshot } from "./snapshot.ts";

/** Pending marks naming an entry no longer in the context (a native compaction summarized it). */
export function compactedMarks(snap: Snapshot): string[] {
	// The lattice's positions hold every entry id of the transcript (the marks' leaves only are read).
	const inContext = snap.lattice.position;
	return [...snap.state.pendingMarks]
		.filter(([, mark]) => mark.fold.leafIds.some((id) => !inContext.has(id)))
		.map(([id]) => id);
}

/** The state after a commit places the marks it applies (epoch), with what applied and what refused. */
export interface PlacedMarks {
	readonly snap: Snapshot;
	readonly applied: string[];
	readonly refused: { foldId: string; reason: string }[];
}

/** No mark placed: immediate scheduling, where a fold is recorded as a fold; only the plan's refusals. */
export function noMarks(snap: Snapshot, refusedByPlan: SchedulePlan["refused"]): PlacedMarks {
	return { snap, applied: [], refused: refusedByPlan.map((r) => ({ foldId: r.id, reason: r.reason })) };
}

/** The marks a commit applies and refuses at placement (what `placeMarks` decided). */
export interface Placement {
	readonly applied: readonly string[];
	readonly refused: readonly { foldId: string; reason: string }[];
	/** Every mark id the commit tried to place (applied or refused), and the plan's own refusals. */
	readonly settled: readonly string[];
}

/** The placement `placeMarks` decided, carried over to `snap` (the branch with the commit's records appended). */
export function placedSnapshot(snap: Snapshot, placement: Placement): PlacedMarks {
	const outcome = { applied: [...placement.applied], refused: [...placement.refused] };
	if (placement.settled.length === 0) return { snap, ...outcome };
	const folds = new Map(snap.state.folds);
	const pending = new Map(snap.state.pendingMarks);
	for (const id of placement.applied) {
		const mark = pending.get(id);
		if (mark) folds.set(id, mark.fold);
	}
	for (const id of placement.settled) pending.delete(id);
	const state: FoldState = { ...snap.state, folds, pendingMarks: pending };
	return { snap: buildSnapshot(snap.view, state, snap.known, snap.budget), ...outcome };
}

/** Why `folds` do not place on `snap`'s transcript (the lattice's refusal), or null when they do. */
function nestingProblem(snap: Snapshot, folds: readonly FoldRecord[]): string | null {
	try {
		snap.lattice.rebuiltWith(folds);
		return null;
	} catch (error) {
		return errorMessage(error);
	}
}

/** Places the marks the commit applies as folds, one at a time (a mark that does not nest refuses by name). */
export function placeMarks(
	snap: Snapshot,
	apply: readonly string[],
	refusedByPlan: SchedulePlan["refused"],
): PlacedMarks {
	const refused = refusedByPlan.map((r) => ({ foldId: r.id, reason: r.reason }));
	const folds = new Map(snap.state.folds);
	// Folds whose entries left the context (a native compaction summarized them) stay in the state,
	// peekable, but a mark only has to nest with the folds that are placed on this transcript.
	// Those are the lattice's folds; each mark is checked against them and the marks placed before it
	// (NestingSet answers as a lattice built over them would; only a refusal builds one, for its reason).
	const unplaced = new Set(snap.unplaced.map((u) => u.id));
	const placedFolds = () => [...folds.values()].filter((f) => !unplaced.has(f.id));
	const nesting = new NestingSet(snap.lattice);
	const pending = new Map(snap.state.pendingMarks);
	const applied: string[] = [];
	for (const r of refused) pending.delete(r.foldId);
	for (const id of apply) {
		const mark = pending.get(id);
		if (!mark) continue;
		const problem = nesting.fits(mark.fold) ? null : nestingProblem(snap, [...placedFolds(), mark.fold]);
		if (problem === null) {
			folds.set(id, mark.fold);
			nesting.add(mark.fold);
			applied.push(id);
		} else refused.push({ foldId: id, reason: `does not nest with the folds in force: ${problem}` });
		pending.delete(id);
	}
	const state: FoldState = { ...snap.state, folds, pendingMarks: pending };
	return { snap: buildSnapshot(snap.view, state, snap.known, snap.budget), applied, refused };
}
