// One consistent picture of the active branch for a decision or a commit: the branch view (plain
// data a host reads: the transcript, pi-fold's decision records, the context edits in force), the
// replayed state, the lattice of the folds that can be placed on this transcript, the units, the
// serving budget and the protected range (fresh tail and the running turn's opening message).
// Pure over what the caller read; the runtime builds it under its lock.

import { errorMessage } from "../common/index.ts";
import type { FoldRecord } from "../lattice/index.ts";
import { Lattice, LatticeError } from "../lattice/index.ts";
import type { Replacement } from "../projection/index.ts";
import type { FoldState } from "../state/index.ts";
import { freshTailStart, runningTurnStart, type TranscriptEntry, toUnits, type Unit } from "../transcript/index.ts";
import type { ServingBudget } from "./budget.ts";

/** The active branch as plain data (a host adapter reads it; see src/pi/branch.ts). */
export interface BranchView {
	readonly leafId: string | null;
	/** Context-producing entries (system messages excluded) with their original, unedited messages. */
	readonly transcript: readonly TranscriptEntry[];
	/** pi-fold's decision records in branch order. */
	readonly records: readonly { entryId: string; data: unknown }[];
	/** Latest context edit per target among the entries the host projects. */
	readonly inForce: ReadonlyMap<string, Replacement>;
	/** Targets pi-fold has edited on this branch (found through its commit records). */
	readonly managed: ReadonlySet<string>;
	/** Managed targets whose latest edit in force was written by someone else. */
	readonly foreign: ReadonlySet<string>;
	/**
	 * pi-fold's own commit receipts in the context, oldest first (not part of the transcript), each
	 * with the transcript index it sits before.
	 */
	readonly receipts?: readonly { readonly id: string; readonly before: number }[];
	/**
	 * Any context-producing entry on the branch by id, with its original message, the ones a native
	 * compaction took out of the context included (the session file still holds them): what a fold's
	 * source is rebuilt from when the fold store has no copy. Absent: the transcript only.
	 */
	readonly branchEntry?: (id: string) => TranscriptEntry | undefined;
}

export interface Snapshot {
	readonly view: BranchView;
	readonly state: FoldState;
	/** Every fold record an accepted decision named (dissolved ones included). */
	readonly known: ReadonlyMap<string, FoldRecord>;
	readonly units: readonly Unit[];
	readonly lattice: Lattice;
	/** Folds in state that cannot be placed on this transcript, with why. */
	readonly unplaced: readonly { id: string; reason: string }[];
	readonly budget: ServingBudget;
	/** First unit of the fresh tail. */
	readonly freshUnit: number;
	/** The user unit that opened the running turn, or -1. */
	readonly runningUnit: number;
}

function placeFolds(view: BranchView, folds: Iterable<FoldRecord>) {
	const ids = new Set(view.transcript.map((e) => e.id));
	const unplaced: { id: string; reason: string }[] = [];
	const candidates: FoldRecord[] = [];
	for (const fold of folds) {
		const missing = fold.leafIds.find((id) => !ids.has(id));
		if (missing !== undefined) unplaced.push({ id: fold.id, reason: `entry ${missing} is no longer in the context` });
		else candidates.push(fold);
	}
	try {
		return { lattice: Lattice.build(view.transcript, candidates), unplaced };
	} catch (error) {
		if (!(error instanceof LatticeError)) throw error;
		// Place them one by one, keeping every fold that nests with those already placed.
		const placed: FoldRecord[] = [];
		for (const fold of candidates) {
			try {
				Lattice.build(view.transcript, [...placed, fold]);
				placed.push(fold);
			} catch (inner) {
				unplaced.push({ id: fold.id, reason: errorMessage(inner) });
			}
		}
		return { lattice: Lattice.build(view.transcript, placed), unplaced };
	}
}

export function buildSnapshot(
	view: BranchView,
	state: FoldState,
	known: ReadonlyMap<string, FoldRecord>,
	budget: ServingBudget,
): Snapshot {
	const units = toUnits(view.transcript);
	const { lattice, unplaced } = placeFolds(view, state.folds.values());
	return {
		view,
		state,
		known,
		units,
		lattice,
		unplaced,
		budget,
		freshUnit: freshTailStart(units, budget.budgetTokens),
		runningUnit: runningTurnStart(units),
	};
}

/** Why entry index `index` may not fold (fresh tail or the running turn's opening), or null. */
export function protectedByRecency(snap: Snapshot, index: number): string | null {
	const unit = snap.units.find((u) => u.start <= index && index < u.end);
	if (!unit) return null;
	if (unit.index >= snap.freshUnit)
		return `is in the fresh tail (the newest ${snap.units.length - snap.freshUnit} units stay raw)`;
	if (unit.index === snap.runningUnit) return "is the user message that opened the running turn";
	return null;
}
