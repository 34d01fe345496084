// Snapping a requested span to the lattice's structural rules: a span that cuts a unit grows to
// the unit's edges, a span that cuts a fold grows to contain it, and the result says how it moved
// and which folds it crossed. Refusals name the rule and the entry. Pure.

import { nounFor } from "../common/index.ts";
import type { TranscriptEntry, Unit } from "../transcript/index.ts";
import type { Lattice } from "./lattice.ts";

/** A span as the agent names it: first and last entry (or fold) ids, inclusive. */
interface SpanRequest {
	readonly from: string;
	readonly to: string;
}

/** A span snapped to units and folds: entry range [start, end) plus what moved and why. */
interface SnappedSpan {
	readonly start: number;
	readonly end: number;
	readonly notes: readonly string[];
	readonly crossedFolds: readonly string[];
}

export class SpanError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SpanError";
	}
}

function resolve(lattice: Lattice, id: string, edge: "from" | "to"): number {
	const fold = lattice.get(id);
	if (fold) return edge === "from" ? fold.start : fold.end - 1;
	const index = lattice.position.get(id);
	if (index === undefined)
		throw new SpanError(`${edge} names ${JSON.stringify(id)}, which is neither an entry nor a fold on this branch`);
	return index;
}

/**
 * Resolves and snaps `request`. Grows the range to whole units, then to whole folds it partially
 * overlaps, repeating until stable (units and folds both align, so this terminates).
 */
export function snapSpan(
	entries: readonly TranscriptEntry[],
	units: readonly Unit[],
	lattice: Lattice,
	request: SpanRequest,
): SnappedSpan {
	let start = resolve(lattice, request.from, "from");
	let end = resolve(lattice, request.to, "to") + 1;
	if (end <= start) throw new SpanError(`from (${request.from}) comes after to (${request.to}) in the transcript`);
	const unitAt: Unit[] = [];
	for (const unit of units) for (let i = unit.start; i < unit.end; i++) unitAt[i] = unit;
	const notes: string[] = [];
	const crossed: string[] = [];
	for (let changed = true; changed; ) {
		changed = false;
		const first = unitAt[start] as Unit;
		if (first.start < start) {
			notes.push(
				`start moved back ${start - first.start} ${nounFor(start - first.start, "entry", "entries")} to the start of a ${first.kind} unit (${(entries[first.start] as TranscriptEntry).id})`,
			);
			start = first.start;
			changed = true;
		}
		const last = unitAt[end - 1] as Unit;
		if (last.end > end) {
			notes.push(
				`end moved forward ${last.end - end} ${nounFor(last.end - end, "entry", "entries")} to the end of a ${last.kind} unit (${(entries[last.end - 1] as TranscriptEntry).id})`,
			);
			end = last.end;
			changed = true;
		}
		for (const fold of lattice.folds.values()) {
			const overlaps = fold.start < end && start < fold.end;
			const inside = start <= fold.start && fold.end <= end;
			const contains = fold.start <= start && end <= fold.end;
			if (!overlaps || inside || contains) continue;
			crossed.push(fold.record.id);
			notes.push(`grew to contain fold ${fold.record.id}, which the span cut`);
			start = Math.min(start, fold.start);
			end = Math.max(end, fold.end);
			changed = true;
		}
	}
	return { start, end, notes, crossedFolds: crossed };
}
