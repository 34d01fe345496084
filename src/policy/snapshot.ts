// One consistent picture of the active branch for a decision or a commit: the branch view (plain
// data a host reads: the transcript, pi-fold's decision records, the context edits in force), the
// replayed state, the lattice of the folds that can be placed on this transcript, the units, the
// serving budget and the protected range (fresh tail and the running turn's opening message).
// A function of what the caller read (the runtime builds it under its lock); it keeps the last units,
// placement and snapshot it built, and a transcript that only grew by appending (the same entry
// objects first and last at the old length) reuses them: only what was appended is split and placed,
// and folds added after the placed ones are placed beside them (a commit).

import { errorMessage } from "../common/index.ts";
import { registerMemo } from "../common/memo-slots.ts";
import type { FoldRecord } from "../lattice/index.ts";
import { Lattice, LatticeError } from "../lattice/index.ts";
import type { Replacement } from "../projection/index.ts";
import type { FoldState } from "../state/index.ts";
import {
	extendsByAppending,
	extendUnits,
	freshTailStart,
	runningTurnStart,
	type TranscriptEntry,
	toUnits,
	type Unit,
} from "../transcript/index.ts";
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

/** The units of the last transcript split, with the running turn's unit: a transcript that extends it splits only what is new. */
let lastUnits: { transcript: readonly TranscriptEntry[]; units: Unit[]; running: number } | null = null;
registerMemo(
	() => lastUnits,
	(value) => {
		lastUnits = value as typeof lastUnits;
	},
);

function unitsOf(transcript: readonly TranscriptEntry[]): { units: Unit[]; running: number } {
	const last = lastUnits;
	if (last?.transcript === transcript) return last;
	let units: Unit[];
	let running: number;
	if (last && extendsByAppending(last.transcript, transcript)) {
		units = extendUnits(last.units, transcript);
		// Only the units from the last one re-split on are new: the running turn is among them, or where it was.
		const from = Math.max(0, last.units.length - 1);
		const fresh = runningTurnStart(units.slice(from));
		running = fresh >= 0 ? from + fresh : last.running < from ? last.running : runningTurnStart(units);
	} else {
		units = toUnits(transcript);
		running = runningTurnStart(units);
	}
	lastUnits = { transcript, units, running };
	return lastUnits;
}

interface PlacedFolds {
	readonly lattice: Lattice;
	readonly unplaced: { id: string; reason: string }[];
}

/** The last placement: its transcript, the folds it placed (in order) and those it could not. */
let lastPlaced: {
	transcript: readonly TranscriptEntry[];
	folds: readonly FoldRecord[];
	unplacedLeaves: ReadonlySet<string>;
	placed: PlacedFolds;
} | null = null;
registerMemo(
	() => lastPlaced,
	(value) => {
		lastPlaced = value as typeof lastPlaced;
	},
);

/**
 * The folds placed on `view`'s transcript. The same folds on a transcript that extends the last one
 * placed (only appended entries, none of them a leaf of a fold that could not be placed) keep their
 * places: the lattice is extended, not built again.
 */
function placeFolds(view: BranchView, folds: Iterable<FoldRecord>): PlacedFolds {
	const list = [...folds];
	const last = lastPlaced;
	if (
		last &&
		last.folds.length === list.length &&
		last.folds.every((f, i) => f === list[i]) &&
		extendsByAppending(last.transcript, view.transcript)
	) {
		if (last.transcript === view.transcript) return last.placed;
		const added = view.transcript.slice(last.transcript.length);
		const lattice = added.some((e) => last.unplacedLeaves.has(e.id))
			? null
			: last.placed.lattice.extendedTo(view.transcript);
		if (lattice) {
			const placed = { lattice, unplaced: last.placed.unplaced };
			lastPlaced = { ...last, transcript: view.transcript, placed };
			return placed;
		}
	}
	const added = last ? withFoldsAdded(last, view, list) : null;
	if (added) {
		lastPlaced = { transcript: view.transcript, folds: list, unplacedLeaves: new Set(), placed: added };
		return added;
	}
	// The same transcript with other folds (a commit's look-ahead): its entry positions are shared.
	const placed = placeAnew(view, list, last?.transcript === view.transcript ? last.placed.lattice : null);
	const unplacedIds = new Set(placed.unplaced.map((u) => u.id));
	const unplacedLeaves = new Set(list.filter((f) => unplacedIds.has(f.id)).flatMap((f) => f.leafIds));
	lastPlaced = { transcript: view.transcript, folds: list, unplacedLeaves, placed };
	return placed;
}

/**
 * The last placement with folds added (a commit records new folds after the ones placed, all of
 * which were placed), on its transcript or one that extends it: only the new folds are placed, and
 * the folds that now hold one get their children anew. Null when that does not apply or a new fold
 * does not place (placeAnew then says why).
 */
function withFoldsAdded(
	last: NonNullable<typeof lastPlaced>,
	view: BranchView,
	list: readonly FoldRecord[],
): PlacedFolds | null {
	if (last.placed.unplaced.length > 0 || list.length <= last.folds.length) return null;
	if (!last.folds.every((f, i) => f === list[i]) || !extendsByAppending(last.transcript, view.transcript)) return null;
	const base =
		last.transcript === view.transcript ? last.placed.lattice : last.placed.lattice.extendedTo(view.transcript);
	const lattice = base?.withAdded(list.slice(last.folds.length));
	return lattice ? { lattice, unplaced: [] } : null;
}

function placeAnew(view: BranchView, folds: readonly FoldRecord[], same: Lattice | null): PlacedFolds {
	const build = (records: FoldRecord[]) => (same ? same.rebuiltWith(records) : Lattice.build(view.transcript, records));
	const ids: { has(id: string): boolean } = same ? same.position : new Set(view.transcript.map((e) => e.id));
	const unplaced: { id: string; reason: string }[] = [];
	const candidates: FoldRecord[] = [];
	for (const fold of folds) {
		const missing = fold.leafIds.find((id) => !ids.has(id));
		if (missing !== undefined) unplaced.push({ id: fold.id, reason: `entry ${missing} is no longer in the context` });
		else candidates.push(fold);
	}
	try {
		return { lattice: build(candidates), unplaced };
	} catch (error) {
		if (!(error instanceof LatticeError)) throw error;
		// Place them one by one, keeping every fold that nests with those already placed.
		const placed: FoldRecord[] = [];
		for (const fold of candidates) {
			try {
				build([...placed, fold]);
				placed.push(fold);
			} catch (inner) {
				unplaced.push({ id: fold.id, reason: errorMessage(inner) });
			}
		}
		return { lattice: build(placed), unplaced };
	}
}

/** The last snapshot built, returned again for the same view, state, folds known and budget. */
let lastSnapshot: Snapshot | null = null;
registerMemo(
	() => lastSnapshot,
	(value) => {
		lastSnapshot = value as typeof lastSnapshot;
	},
);

function sameBudget(a: ServingBudget, b: ServingBudget): boolean {
	return (
		a.totalWindow === b.totalWindow &&
		a.totalWindowSource === b.totalWindowSource &&
		a.descriptorWindow === b.descriptorWindow &&
		a.outputReservation === b.outputReservation &&
		a.budgetTokens === b.budgetTokens
	);
}

/**
 * One consistent picture of the branch. Built from what the last one built where it can: the same
 * inputs give the same snapshot, and a transcript that grew by appending splits and places only
 * what it appended; folds a commit adds after the placed ones are placed beside them (a fold taken
 * away, a compaction or a new branch builds everything again).
 */
export function buildSnapshot(
	view: BranchView,
	state: FoldState,
	known: ReadonlyMap<string, FoldRecord>,
	budget: ServingBudget,
): Snapshot {
	const last = lastSnapshot;
	if (last && last.view === view && last.state === state && last.known === known && sameBudget(last.budget, budget))
		return last;
	const { units, running } = unitsOf(view.transcript);
	const { lattice, unplaced } = placeFolds(view, state.folds.values());
	lastSnapshot = {
		view,
		state,
		known,
		units,
		lattice,
		unplaced,
		budget,
		freshUnit: freshTailStart(units, budget.budgetTokens),
		runningUnit: running,
	};
	return lastSnapshot;
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
