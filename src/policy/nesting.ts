// Whether a new fold over entries [start, end) would nest cleanly among the folds placed on a
// transcript: no fold equals it, none partially overlaps it or holds it, and every fold inside it is
// of a kind the caller allows inside (the ladder's rungs ask this of every unit and chapter). The
// placed folds nest (the lattice refuses any other), so every fold that meets [start, end) is a
// top-level fold meeting it or lies inside one: one walk over the top-level folds in the range
// answers it, with each top-level fold's range and the kinds in its subtree indexed once per set of
// placed folds (a lattice extended over appended entries keeps its folds, and the index). Pure.

import type { Lattice, PlacedFold } from "../lattice/index.ts";

interface RootIndex {
	/** The top-level fold holding each entry index (undefined: raw at top level). */
	readonly rootAt: readonly (PlacedFold | undefined)[];
	/** The fold kinds in each top-level fold's subtree, its own included. */
	readonly kinds: ReadonlyMap<string, ReadonlySet<string>>;
}

const indexes = new WeakMap<ReadonlyMap<string, PlacedFold>, RootIndex>();

function rootIndex(lattice: Lattice): RootIndex {
	const cached = indexes.get(lattice.folds);
	if (cached) return cached;
	const rootAt: (PlacedFold | undefined)[] = [];
	const kinds = new Map<string, Set<string>>();
	for (const id of lattice.roots) {
		const root = lattice.get(id) as PlacedFold;
		for (let i = root.start; i < root.end; i++) rootAt[i] = root;
		kinds.set(id, new Set([root.record.kind]));
	}
	for (const fold of lattice.folds.values()) {
		let top = fold;
		while (top.parent !== null) top = lattice.get(top.parent) as PlacedFold;
		kinds.get(top.record.id)?.add(fold.record.kind);
	}
	const index = { rootAt, kinds };
	indexes.set(lattice.folds, index);
	return index;
}

/** True when [start, end) would nest cleanly: no fold partially overlaps or holds it, it is not already a fold, and every fold inside it is allowed. */
export function nestsCleanly(
	lattice: Lattice,
	start: number,
	end: number,
	allowInside: (kind: string) => boolean,
): boolean {
	if (start >= end) return nestsByScan(lattice, start, end, allowInside);
	const { rootAt, kinds } = rootIndex(lattice);
	for (let i = start; i < end; ) {
		const root = rootAt[i];
		if (!root) {
			i++;
			continue;
		}
		// A top-level fold that is not inside the range holds it or overlaps it partially.
		if (root.start < start || root.end > end) return false;
		if (root.start === start && root.end === end) return false;
		for (const kind of kinds.get(root.record.id) ?? []) if (!allowInside(kind)) return false;
		i = root.end;
	}
	return true;
}

/** The end of the top-level fold holding entry `index`, or undefined when the entry is raw at top level. */
export function topFoldEnd(lattice: Lattice, index: number): number | undefined {
	return rootIndex(lattice).rootAt[index]?.end;
}

/** The same question asked of every placed fold in turn (what the index answers, for an empty range). */
export function nestsByScan(
	lattice: Lattice,
	start: number,
	end: number,
	allowInside: (kind: string) => boolean,
): boolean {
	for (const fold of lattice.folds.values()) {
		if (fold.start === start && fold.end === end) return false;
		const overlaps = fold.start < end && start < fold.end;
		if (!overlaps) continue;
		const inside = start <= fold.start && fold.end <= end;
		if (inside && allowInside(fold.record.kind)) continue;
		return false;
	}
	return true;
}
