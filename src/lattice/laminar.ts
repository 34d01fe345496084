// Whether one more fold would place among folds that already nest, without building a lattice:
// `Lattice.build` refuses a set of folds exactly when one names entries off the transcript, is not a
// contiguous run of it, or partially overlaps another (equal ranges nest, a repeated id is placed
// once), so for a set that already nests only the new fold's own range and its overlaps with the
// others need checking. Costs the new fold's leaves and the folds in the set, not the transcript (a
// commit asks it of every proposal and every mark it places). Answers as `Lattice.build` does
// (tests/lattice/laminar.test.ts compares the two). Pure.

import type { FoldRecord } from "./fold-types.ts";
import { type Lattice, leafRange } from "./lattice.ts";

interface Range {
	readonly start: number;
	readonly end: number;
}

/** Folds that nest on one lattice's transcript, to which folds that nest with them are added one at a time. */
export class NestingSet {
	private readonly position: Lattice["position"];
	private readonly ranges = new Map<string, Range>();

	/** The folds placed on `lattice` (they nest), over its transcript. */
	constructor(lattice: Lattice) {
		this.position = lattice.position;
		for (const fold of lattice.folds.values()) this.ranges.set(fold.record.id, { start: fold.start, end: fold.end });
	}

	/** The range `fold`'s leaves cover on the transcript, or null when they are not a contiguous run of it. */
	private rangeOf(fold: Pick<FoldRecord, "leafIds">): Range | null {
		const range = leafRange(this.position, fold.leafIds);
		return typeof range === "string" ? null : range;
	}

	/** Whether the set and `fold` would place together (`Lattice.build` over both would not refuse). */
	fits(fold: Pick<FoldRecord, "id" | "leafIds">): boolean {
		const range = this.rangeOf(fold);
		if (!range) return false;
		// A repeated id is placed once, the first in the lattice's order (start, then the longer
		// first); the other is not checked. Ids name their entries, so only a collision gets here.
		const same = this.ranges.get(fold.id);
		if (same && !sortsBefore(range, same)) return true;
		for (const [id, other] of this.ranges) if (id !== fold.id && partiallyOverlaps(range, other)) return false;
		return true;
	}

	/** Adds `fold`, which must fit. */
	add(fold: Pick<FoldRecord, "id" | "leafIds">): void {
		const range = this.rangeOf(fold);
		if (!range || !this.fits(fold)) throw new Error(`fold ${fold.id} does not nest with the set`);
		const same = this.ranges.get(fold.id);
		if (!same || sortsBefore(range, same)) this.ranges.set(fold.id, range);
	}
}

/** Whether `a` comes before `b` in the lattice's order of placing (by start, then the longer first). */
function sortsBefore(a: Range, b: Range): boolean {
	return a.start < b.start || (a.start === b.start && a.end > b.end);
}

/** Whether `a` and `b` overlap without one holding the other. */
function partiallyOverlaps(a: Range, b: Range): boolean {
	return (
		(a.start < b.start && b.start < a.end && a.end < b.end) || (b.start < a.start && a.start < b.end && b.end < a.end)
	);
}
